/**
 * The client-side simulator: every node of a social network takes the personality of one log user and sends
 * that user's query events in time order (all users interleaved by time); each query is routed by the protocol
 * (`protocol.ts`) and the engine files it under an id. The result is the engine's view — the log the engine
 * would keep, each record under the id it was filed under, in the input's format — plus the measures of paper
 * 002: the profile exposure level (PEL) per user, the share of users whose uncertainty (100 − PEL) is above the
 * paper's 70% and 80% thresholds by number of neighbours, the synthetic worst case, and the cost (hops, added
 * latency).
 *
 * A next-page request (the same query again, or Excite's empty query) is not a new query: it follows the route
 * of the query it pages through, so the page comes from the node that fetched the first one.
 */
import { groupEvents } from "../log/events.ts";
import type { LogRecord, QueryLog } from "../log/record.ts";
import { UsageError } from "../util/errors.ts";
import { type Progress, silentProgress } from "../util/progress.ts";
import type { Rng } from "../util/random.ts";
import { edgeCount, type SocialGraph } from "./graph.ts";
import { categoryAtDepth, type FiledEvent, profileExposure, quantile } from "./pel.ts";
import { assignRoles, COLLUDING, routeQuery, SELFISH } from "./protocol.ts";

export interface ProtocolParams {
  /** Most hops a query may travel (1 = as published; 0 = nobody forwards). */
  readonly maxHops: number;
  /** Share of nodes that submit their own queries directly. */
  readonly selfish: number;
  /** Share of nodes that report the authors of the queries they receive to the engine. */
  readonly colluding: number;
  /** One-way delay of one hop between friends, in milliseconds (the cost model). */
  readonly hopMs: number;
  /** Category depth of the profiles PEL compares (1 = top-level ODP category). */
  readonly depth: number;
  /** Synthetic worst case: each user also sends one unique query this many times (0 = skip). */
  readonly worstCase?: number;
}

/**
 * Paper 002 counts the users whose uncertainty — what the engine does not know of their profile, 100 − PEL — is
 * above 70% and above 80%, i.e. the users the protocol hides well.
 */
export const UNCERTAINTY_THRESHOLDS = [70, 80] as const;

export interface DegreeRow {
  /** Number of neighbours: "3", or a range such as "6-10", "51+". */
  readonly neighbours: string;
  readonly users: number;
  /** Users of the row with a PEL (the others have a one-category profile). */
  readonly measured: number;
  readonly meanPel: number | null;
  /** Percent of measured users whose uncertainty (100 − PEL) is above 70 / 80. */
  readonly uncertaintyAbove70: number | null;
  readonly uncertaintyAbove80: number | null;
}

export interface WorstCase {
  /** Copies of its one unique query each user sends. */
  readonly copies: number;
  /** Mean share of a user's copies the engine files under her own id. */
  readonly meanOwnShare: number;
  /** Mean number of distinct ids her copies are filed under. */
  readonly meanIds: number;
  /** Percent of users whose own id files the most copies: the engine guessing "the id that sent it most". */
  readonly attributed: number;
}

export interface ClientsideSummary {
  readonly users: number;
  readonly nodes: number;
  readonly edges: number;
  readonly meanNeighbours: number;
  readonly selfishNodes: number;
  readonly colludingNodes: number;
  /** Query events routed (next-page requests included, on their query's route). */
  readonly events: number;
  /** Percent of query events submitted by someone other than their author. */
  readonly forwarded: number;
  /** Query events the engine files under their author because a colluder reported them. */
  readonly reported: number;
  readonly meanHops: number;
  readonly maxHops: number;
  /** Added latency of a query (there and back over its hops), in ms. */
  readonly meanLatencyMs: number;
  readonly p95LatencyMs: number;
  /** Users with a PEL, and users without one (single-category or unclassified profiles). */
  readonly pelUsers: number;
  readonly pelUndefined: number;
  readonly meanPel: number | null;
  readonly pelP10: number | null;
  readonly pelP25: number | null;
  readonly pelP50: number | null;
  readonly pelP75: number | null;
  readonly pelP90: number | null;
  /** Percent of users with a PEL whose uncertainty (100 − PEL) is above 70 / 80 (paper 002's thresholds). */
  readonly uncertaintyAbove70: number | null;
  readonly uncertaintyAbove80: number | null;
  readonly byNeighbours: DegreeRow[];
  readonly worstCase?: WorstCase;
}

export interface SimulationResult {
  /** The engine's view: every input record under the id it was filed under, sorted by id then time. */
  readonly view: QueryLog;
  /** For each record of `view`, its index in the input's records. */
  readonly origin: Int32Array;
  /** PEL of each user (undefined: no PEL). */
  readonly pel: Map<string, number | undefined>;
  readonly summary: ClientsideSummary;
}

/**
 * Which node each user is: by name when the graph is an edge list naming every user of the log, otherwise a
 * seeded random choice of distinct nodes. A graph with fewer nodes than the log has users is a usage error.
 */
export function assignUsers(users: readonly string[], graph: SocialGraph, rng: Rng): Int32Array {
  const n = graph.labels.length;
  if (n < users.length) {
    throw new UsageError(
      `the social network has ${n} nodes but the log has ${users.length} users: each user needs a node`,
    );
  }
  const out = new Int32Array(users.length);
  const byLabel = new Map(graph.labels.map((l, i) => [l, i]));
  if (graph.named && users.every((u) => byLabel.has(u))) {
    users.forEach((u, i) => {
      out[i] = byLabel.get(u)!;
    });
    return out;
  }
  const order = rng.shuffle(Array.from({ length: n }, (_, i) => i));
  for (let i = 0; i < users.length; i++) out[i] = order[i]!;
  return out;
}

const BUCKETS: readonly [number, number, string][] = [
  [0, 0, "0"],
  [1, 1, "1"],
  [2, 2, "2"],
  [3, 3, "3"],
  [4, 4, "4"],
  [5, 5, "5"],
  [6, 10, "6-10"],
  [11, 20, "11-20"],
  [21, 50, "21-50"],
  [51, Number.POSITIVE_INFINITY, "51+"],
];

const mean = (xs: readonly number[]) => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length);
/** Percent of PEL values whose uncertainty 100 − PEL is above `t`. */
const uncertainAbove = (pels: readonly number[], t: number) =>
  pels.length === 0 ? null : (100 * pels.filter((x) => 100 - x > t).length) / pels.length;
const nullable = (x: number) => (Number.isNaN(x) ? null : x);

/** Run the protocol over `log` on `graph`. `rng` drives the user placement, the roles and every route. */
export function simulateClientside(
  log: QueryLog,
  graph: SocialGraph,
  params: ProtocolParams,
  rng: Rng,
  progress: Progress = silentProgress,
): SimulationResult {
  const records = log.records;
  const events = groupEvents(records);
  const userIndex = new Map<string, number>();
  for (const e of events) if (!userIndex.has(e.user)) userIndex.set(e.user, userIndex.size);
  const users = [...userIndex.keys()];
  const nodeOf = assignUsers(users, graph, rng.derive("users"));
  const roles = assignRoles(graph.labels.length, params.selfish, params.colluding, rng.derive("roles"));
  const userOfNode = new Int32Array(graph.labels.length).fill(-1);
  nodeOf.forEach((node, u) => {
    userOfNode[node] = u;
  });
  const idOf = (node: number) => {
    const u = userOfNode[node]!;
    return u >= 0 ? users[u]! : `node:${graph.labels[node]}`;
  };

  // Every user's events in time order, all users interleaved by time (ties: log order).
  const order = events.map((_, i) => i).sort((a, b) => events[a]!.time - events[b]!.time || a - b);
  const filedNode = new Int32Array(events.length);
  const hops = new Int32Array(events.length);
  let forwarded = 0;
  let reported = 0;
  const route = rng.derive("routes");
  const lastOfUser = new Int32Array(users.length).fill(-1);
  const submitter = new Int32Array(events.length);
  const routed = new Uint8Array(events.length);
  // A next-page event takes its query's route: the user's previous event in log order (when a log out of time
  // order puts the page before its query, the page is routed as a query of its own).
  const previous = new Int32Array(events.length).fill(-1);
  for (let i = 0; i < events.length; i++) {
    const u = userIndex.get(events[i]!.user)!;
    previous[i] = lastOfUser[u]!;
    lastOfUser[u] = i;
  }
  progress.start("routing queries", events.length);
  for (let k = 0; k < order.length; k++) {
    const i = order[k]!;
    const e = events[i]!;
    const author = nodeOf[userIndex.get(e.user)!]!;
    const p = previous[i]!;
    if (e.nextPage && p >= 0 && routed[p] === 1) {
      submitter[i] = submitter[p]!;
      filedNode[i] = filedNode[p]!;
      hops[i] = hops[p]!;
    } else {
      const r = routeQuery(author, graph, roles, params.maxHops, route);
      submitter[i] = r.submitter;
      filedNode[i] = r.filed;
      hops[i] = r.hops;
    }
    routed[i] = 1;
    if (submitter[i] !== author) forwarded++;
    if (filedNode[i] !== submitter[i]) reported++;
    if ((k & 4095) === 4095) progress.tick(4096);
  }
  progress.tick(order.length & 4095);
  progress.stop();

  // The engine's view, sorted by the id it files under, then time, then input order.
  const ids = Array.from(filedNode, idOf);
  const viewIdx: number[] = [];
  const eventOfRecord = new Int32Array(records.length);
  events.forEach((e, i) => {
    for (let r = e.first; r < e.first + e.rows; r++) eventOfRecord[r] = i;
  });
  for (let r = 0; r < records.length; r++) viewIdx.push(r);
  const idOfRecord = (r: number) => ids[eventOfRecord[r]!]!;
  viewIdx.sort((a, b) => {
    const ia = idOfRecord(a);
    const ib = idOfRecord(b);
    return ia < ib ? -1 : ia > ib ? 1 : records[a]!.time - records[b]!.time || a - b;
  });
  const viewRecords: LogRecord[] = viewIdx.map((r) => ({ ...records[r]!, user: idOfRecord(r) }));
  const origin = Int32Array.from(viewIdx);

  const filed: FiledEvent[] = events.map((e, i) => ({
    author: e.user,
    filed: ids[i]!,
    category: categoryAtDepth(records[e.first]!.category, params.depth),
  }));
  const pel = profileExposure(filed);

  const degrees = users.map((_, u) => graph.adj[nodeOf[u]!]!.length);
  const measured = users.map((u) => pel.get(u)).filter((x): x is number => x !== undefined);
  const sorted = [...measured].sort((a, b) => a - b);
  const byNeighbours: DegreeRow[] = [];
  for (const [lo, hi, label] of BUCKETS) {
    const inRow = users.filter((_, u) => degrees[u]! >= lo && degrees[u]! <= hi);
    if (inRow.length === 0) continue;
    const xs = inRow.map((u) => pel.get(u)).filter((x): x is number => x !== undefined);
    byNeighbours.push({
      neighbours: label,
      users: inRow.length,
      measured: xs.length,
      meanPel: mean(xs),
      uncertaintyAbove70: uncertainAbove(xs, UNCERTAINTY_THRESHOLDS[0]),
      uncertaintyAbove80: uncertainAbove(xs, UNCERTAINTY_THRESHOLDS[1]),
    });
  }
  const latencies = Array.from(hops, (h) => 2 * h * params.hopMs).sort((a, b) => a - b);
  const summary: ClientsideSummary = {
    users: users.length,
    nodes: graph.labels.length,
    edges: edgeCount(graph),
    meanNeighbours: graph.labels.length === 0 ? 0 : (2 * edgeCount(graph)) / graph.labels.length,
    selfishNodes: roles.filter((r) => r === SELFISH).length,
    colludingNodes: roles.filter((r) => r === COLLUDING).length,
    events: events.length,
    forwarded: events.length === 0 ? 0 : (100 * forwarded) / events.length,
    reported,
    meanHops: mean(Array.from(hops)) ?? 0,
    maxHops: hops.reduce((a, b) => Math.max(a, b), 0),
    meanLatencyMs: mean(latencies) ?? 0,
    p95LatencyMs: nullable(quantile(latencies, 0.95)) ?? 0,
    pelUsers: measured.length,
    pelUndefined: users.length - measured.length,
    meanPel: mean(measured),
    pelP10: nullable(quantile(sorted, 0.1)),
    pelP25: nullable(quantile(sorted, 0.25)),
    pelP50: nullable(quantile(sorted, 0.5)),
    pelP75: nullable(quantile(sorted, 0.75)),
    pelP90: nullable(quantile(sorted, 0.9)),
    uncertaintyAbove70: uncertainAbove(measured, UNCERTAINTY_THRESHOLDS[0]),
    uncertaintyAbove80: uncertainAbove(measured, UNCERTAINTY_THRESHOLDS[1]),
    byNeighbours,
    ...(params.worstCase
      ? { worstCase: worstCase(graph, nodeOf, roles, params, params.worstCase, rng.derive("worst case")) }
      : {}),
  };
  return {
    view: { records: viewRecords, format: log.format, classified: log.classified },
    origin,
    pel,
    summary,
  };
}

/**
 * The synthetic worst case of paper 002: each user sends one query of her own, unlike anyone else's, `copies`
 * times, so the engine can link all the copies together. The user stays hidden only if the copies are spread
 * over several ids and her own id does not stand out: measured as her own id's share of the copies, the number
 * of ids they are filed under, and how often her own id files the most copies (ties shared).
 */
export function worstCase(
  graph: SocialGraph,
  nodeOf: Int32Array,
  roles: Uint8Array,
  params: ProtocolParams,
  copies: number,
  rng: Rng,
): WorstCase {
  let own = 0;
  let ids = 0;
  let attributed = 0;
  const count = new Map<number, number>();
  for (const author of nodeOf) {
    count.clear();
    for (let c = 0; c < copies; c++) {
      const r = routeQuery(author, graph, roles, params.maxHops, rng);
      count.set(r.filed, (count.get(r.filed) ?? 0) + 1);
    }
    const mine = count.get(author) ?? 0;
    own += mine / copies;
    ids += count.size;
    const top = Math.max(...count.values());
    if (mine === top) attributed += 1 / [...count.values()].filter((v) => v === top).length;
  }
  const n = nodeOf.length;
  return {
    copies,
    meanOwnShare: n === 0 ? 0 : own / n,
    meanIds: n === 0 ? 0 : ids / n,
    attributed: n === 0 ? 0 : (100 * attributed) / n,
  };
}
