/**
 * "graph": query-click graph disconnection (paper 001, Poblete et al.) with its extension towards k-anonymity.
 * Removes (a) vulnerable queries, (b) queries with fewer than k results, (c) from fewer than K sites, then
 * (d) the queries the disconnection heuristic (Method 1, 2 or 3) picks until the density reaches the
 * threshold. Every event of a removed query is dropped whole.
 */
import { groupEvents } from "../../log/events.ts";
import { intParam, type Method, numberParam, ParamError, type Release } from "../method.ts";
import { dropQueries } from "../threshold/drop-queries.ts";
import { disconnect, type Variant } from "./disconnect.ts";
import { kAnonymityFilter, Reason } from "./k-anonymity.ts";
import { graphInfo } from "./meta.ts";
import { QueryGraphBuilder } from "./query-graph.ts";

export interface GraphParams {
  /** The paper's Method: 1 = degree, 2 = degree / frequency, 3 = degree / clicks. */
  readonly variant: Variant;
  /** Stop when the density is at or below this; 0 = disconnect fully. */
  readonly density: number;
  /** Remove queries that name a site clicked for them. */
  readonly vulnerable: boolean;
  /** Minimum distinct clicked URLs (proxy for results shown); 0 = off. */
  readonly k: number;
  /** Minimum distinct clicked sites; 0 = off; must not exceed k when both are set. */
  readonly K: number;
}

function boolParam(raw: Readonly<Record<string, unknown>>, name: string, def: boolean): boolean {
  const v = raw[name] ?? def;
  if (typeof v === "boolean") return v;
  if (v === "true" || v === "1" || v === "yes" || v === "on") return true;
  if (v === "false" || v === "0" || v === "no" || v === "off") return false;
  throw new ParamError("graph", name, `must be true or false, got ${JSON.stringify(v)}`);
}

export const graph: Method<GraphParams> = {
  ...graphInfo,
  parse(raw) {
    const variant = intParam("graph", raw, "variant", 1, 1, 3) as Variant;
    const density = numberParam("graph", raw, "density", 0, (x) =>
      x < 0 || x > 1 ? `must be in [0, 1], got ${x}` : undefined,
    );
    const vulnerable = boolParam(raw, "vulnerable", false);
    const k = intParam("graph", raw, "k", 0, 0);
    const K = intParam("graph", raw, "K", 0, 0);
    if (k > 0 && K > k)
      throw new ParamError("graph", "K", `must not exceed k (the paper requires k ≥ K), got K=${K} > k=${k}`);
    return { variant, density, vulnerable, k, K };
  },
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
      "edges before": result.edgesBefore,
      "edges after": result.edgesAfter,
      "density before": result.densityBefore,
      "density after": result.densityAfter,
    });
  },
};
