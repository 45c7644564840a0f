/**
 * "graph": query-click graph disconnection (paper 001, Poblete et al.) with its extension towards k-anonymity.
 * Removes (a) vulnerable queries, (b) queries with fewer than k results, (c) from fewer than K sites, then
 * (d) the queries the disconnection heuristic (Method 1, 2 or 3) picks until the density reaches the
 * threshold. Every event of a removed query is dropped whole.
 */
import { groupEvents } from "../../log/events.ts";
import type { Method, Release } from "../method.ts";
import { dropQueries } from "../threshold/drop-queries.ts";
import { disconnect } from "./disconnect.ts";
import { kAnonymityFilter, Reason } from "./k-anonymity.ts";
import { type GraphParams, graphDeclaration } from "./meta.ts";

import { QueryGraphBuilder } from "./query-graph.ts";

export const graph: Method<GraphParams> = {
  ...graphDeclaration,
  parse: (raw) => graphDeclaration.params.parse(raw),
  async anonymize(input, params, ctx): Promise<Release> {
    ctx.progress.start("graph: building the query-click graph", input.records.length);
    const events = groupEvents(input.records);
    const builder = new QueryGraphBuilder();
    for (const e of events) {
      builder.addEvent(e.query);
      for (let i = e.first; i < e.first + e.rows; i++) {
        const url = input.records[i]!.clickUrl;
        if (url) builder.addClick(e.query, url);
      }
      ctx.progress.tick(e.rows);
    }
    const g = builder.build();
    ctx.progress.stop();

    const reasons = kAnonymityFilter(g, params);
    const alive = new Uint8Array(g.queries.length);
    const byReason = [0, 0, 0, 0];
    for (let v = 0; v < alive.length; v++) {
      alive[v] = reasons[v] === Reason.Kept ? 1 : 0;
      byReason[reasons[v]!]!++;
    }
    const result = disconnect(g, {
      variant: params.variant,
      densityThreshold: params.density,
      alive,
      progress: ctx.progress,
    });
    const removed = new Set<string>();
    for (let v = 0; v < alive.length; v++) if (!alive[v]) removed.add(g.queries[v]!);
    for (const v of result.removed) removed.add(g.queries[v]!);
    return dropQueries(input, events, removed, {
      "queries removed (vulnerable)": byReason[Reason.Vulnerable]!,
      "queries removed (k results)": byReason[Reason.FewResults]!,
      "queries removed (K sites)": byReason[Reason.FewSites]!,
      "queries removed (disconnection)": result.removed.length,
      "edges before (one per shared URL)": result.edgesBefore,
      "edges after (one per shared URL)": result.edgesAfter,
      "density before": result.densityBefore,
      "density after": result.densityAfter,
    });
  },
};
