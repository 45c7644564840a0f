/**
 * "graph": query-click graph disconnection (paper 001, Poblete et al.) with its extension towards k-anonymity.
 * Removes (a) vulnerable queries, (b) queries with fewer than k results, (c) from fewer than K sites, then
 * (d) the queries the disconnection heuristic (Method 1, 2 or 3) picks until the density reaches the
 * threshold. Every event of a removed query is dropped whole.
 */
import { groupEvents, type QueryEvent } from "../../log/events.ts";
import type { LogRecord } from "../../log/record.ts";
import type { Progress } from "../../util/progress.ts";
import type { Method, MethodContext, Release, ReleaseSink, UserPasses } from "../method.ts";
import type { PartialRow, SummedRows } from "../sharded.ts";
import { dropQueries, dropQueriesByUser, mergeRemovalParts } from "../threshold/drop-queries.ts";
import { disconnect } from "./disconnect.ts";
import { kAnonymityFilter, Reason } from "./k-anonymity.ts";
import { type GraphParams, graphDeclaration } from "./meta.ts";
import { type QueryGraph, QueryGraphBuilder } from "./query-graph.ts";

export const graph: Method<GraphParams> = {
  ...graphDeclaration,
  parse: (raw) => graphDeclaration.params.parse(raw),
  async anonymize(input, params, ctx): Promise<Release> {
    ctx.progress.start("graph: building the query-click graph", input.records.length);
    const events = groupEvents(input.records);
    const builder = new QueryGraphBuilder();
    addEvents(builder, input.records, events);
    ctx.progress.tick(input.records.length);
    ctx.progress.stop();
    const g = builder.build();
    const { gone, counts } = removals(g, params, ctx.progress);
    const removed = new Set<string>();
    for (let v = 0; v < gone.length; v++) if (gone[v]) removed.add(g.queries[v]!);
    return dropQueries(input, events, removed, counts);
  },
  async anonymizeByUser(log, params, ctx, out): Promise<Release> {
    // The graph is the aggregate: a node per distinct query, an entry per distinct (query, URL) pair.
    ctx.progress.start("graph: building the query-click graph, one user at a time");
    const builder = new QueryGraphBuilder();
    for await (const block of log.pass()) {
      addEvents(builder, block, groupEvents(block));
      ctx.progress.tick(block.length);
    }
    ctx.progress.stop();
    return removeAndWrite(builder, log, params, ctx, out);
  },
  sharded: {
    addUser(block, order, table) {
      for (const e of groupEvents(block)) {
        let clicks = 0;
        for (let i = e.first; i < e.first + e.rows; i++) {
          const r = block[i]!;
          if (!r.clickUrl) continue;
          clicks++;
          table.add(URL, r.clickUrl, "", 0, 0, order(r));
          table.add(PAIR, e.query, r.clickUrl, 0, 0, 0);
        }
        table.add(QUERY, e.query, "", 1, clicks, order(block[e.first]!));
      }
    },
    parts: {
      async decide(sums, params, ctx): Promise<KeptQueries> {
        const builder = await graphOfSums(sums, ctx);
        const g = builder.build();
        const { gone, counts } = removals(g, params, ctx.progress);
        const kept: string[] = [];
        for (let v = 0; v < gone.length; v++) if (gone[v] === 0) kept.push(g.queries[v]!);
        return { kept, distinct: g.queries.length, counts };
      },
      write(decision, log, _params, out) {
        const d = decision as KeptQueries;
        const kept = new Set(d.kept);
        return dropQueriesByUser(log, (q) => kept.has(q), { distinct: d.distinct, released: kept.size }, out);
      },
      merge(decision, shards) {
        const d = decision as KeptQueries;
        return mergeRemovalParts(shards, { distinct: d.distinct, released: d.kept.length }, d.counts);
      },
    },
    async release(sums, log, params, ctx, out) {
      return removeAndWrite(await graphOfSums(sums, ctx), log, params, ctx, out);
    },
  },
};

/** The decision the workers write their parts of the release from: the queries kept, and the method's counts. */
interface KeptQueries {
  readonly kept: readonly string[];
  readonly distinct: number;
  readonly counts: Record<string, number>;
}

/** The query-click graph of the summed rows, nodes and URLs numbered as the single machine numbers them. */
async function graphOfSums(sums: SummedRows, ctx: MethodContext): Promise<QueryGraphBuilder> {
  ctx.progress.start("graph: the query-click graph from the shards' sums");
  const builder = new QueryGraphBuilder();
  for (const r of await byFirst(sums, QUERY)) builder.addNode(r.key, r.a, r.b);
  for (const r of await byFirst(sums, URL)) builder.url(r.key);
  for await (const page of sums.rows(PAIR)) for (const r of page) builder.addPair(r.key, r.key2);
  ctx.progress.stop();
  return builder;
}

/** Rows of graph's partial aggregate: a query (events, clicks), a clicked URL, a (query, URL) pair. */
const QUERY = 0;
const URL = 1;
const PAIR = 2;

/** The summed rows of `kind` in order of first appearance, as the single machine numbers nodes and URLs. */
async function byFirst(sums: SummedRows, kind: number): Promise<PartialRow[]> {
  const rows: PartialRow[] = [];
  for await (const page of sums.rows(kind)) for (const r of page) rows.push(r);
  return rows.sort((a, b) => a.first - b.first);
}

/** The removals on the built graph, then the kept events written from the log read by user. */
async function removeAndWrite(
  builder: QueryGraphBuilder,
  log: UserPasses,
  params: GraphParams,
  ctx: MethodContext,
  out: ReleaseSink | undefined,
): Promise<Release> {
  const g = builder.build();
  const { gone, counts } = removals(g, params, ctx.progress);
  let removedQueries = 0;
  for (let v = 0; v < gone.length; v++) removedQueries += gone[v]!;
  ctx.progress.start("graph: writing the queries kept");
  try {
    return await dropQueriesByUser(
      log,
      (q) => gone[builder.idOf(q)] === 0,
      { distinct: g.queries.length, released: g.queries.length - removedQueries },
      out,
      counts,
      ctx.progress,
    );
  } finally {
    ctx.progress.stop();
  }
}

/** Each event of `records` as a node's event, and its click rows as the node's clicks. */
function addEvents(
  builder: QueryGraphBuilder,
  records: readonly LogRecord[],
  events: readonly QueryEvent[],
): void {
  for (const e of events) {
    builder.addEvent(e.query);
    for (let i = e.first; i < e.first + e.rows; i++) {
      const url = records[i]!.clickUrl;
      if (url) builder.addClick(e.query, url);
    }
  }
}

/** The queries the extension and the disconnection remove (1 in `gone`), and the method's own counts. */
function removals(
  g: QueryGraph,
  params: GraphParams,
  progress: Progress,
): { gone: Uint8Array; counts: Record<string, number> } {
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
    progress,
  });
  const gone = new Uint8Array(alive.length);
  for (let v = 0; v < alive.length; v++) gone[v] = alive[v] ? 0 : 1;
  for (const v of result.removed) gone[v] = 1;
  return {
    gone,
    counts: {
      "queries removed (vulnerable)": byReason[Reason.Vulnerable]!,
      "queries removed (k results)": byReason[Reason.FewResults]!,
      "queries removed (K sites)": byReason[Reason.FewSites]!,
      "queries removed (disconnection)": result.removed.length,
      "edges before (one per shared URL)": result.edgesBefore,
      "edges after (one per shared URL)": result.edgesAfter,
      "density before": result.densityBefore,
      "density after": result.densityAfter,
    },
  };
}
