/**
 * The skeleton shared by the user-microaggregation baselines (§5.2 of paper 004): MDAV over a precomputed user
 * distance matrix, one prototype per cluster (a list of original query events), and the release of the
 * prototype under every member's id.
 */
import type { QueryLog } from "../../log/record.ts";
import type { UserLogs } from "../../semantic/user-logs.ts";
import type { Rng } from "../../util/random.ts";
import type { Release } from "../method.ts";
import { mdavPartition } from "./mdav-core.ts";
import { buildRelease } from "./release.ts";

export interface Microaggregation {
  readonly input: QueryLog;
  readonly logs: UserLogs;
  /** Full n×n user distance matrix, users in `logs.users` order. */
  readonly distances: Float32Array;
  readonly k: number;
  /** The prototype of a cluster: indices into `logs.events`. */
  readonly prototype: (members: Int32Array, rng: Rng) => number[];
  readonly rng: Rng;
  readonly counts?: Record<string, number>;
}

export function microaggregate(m: Microaggregation): Release {
  const clusters = mdavPartition({ n: m.logs.users.length, data: m.distances }, m.k);
  const synthetic = clusters.map((members, c) => m.prototype(members, m.rng.derive(`cluster ${c}`)));
  return buildRelease(m.input, m.logs, clusters, synthetic, m.counts ?? {}, m.k);
}

/** Round(mean number of query events of the members): the prototype size of the aggregation baselines. */
export function meanEvents(logs: UserLogs, members: Int32Array): number {
  let total = 0;
  for (const u of members) total += logs.byUser[u]!.length;
  return members.length === 0 ? 0 : Math.round(total / members.length);
}

/**
 * Cache of per-log precomputations (distance matrices do not depend on k), so an experiment sweeping k over one
 * log computes them once. Keyed by the log object and a method-specific string.
 */
const store = new WeakMap<QueryLog, Map<string, unknown>>();

export function cached<T>(log: QueryLog, key: string, make: () => T): T {
  let m = store.get(log);
  if (!m) {
    m = new Map();
    store.set(log, m);
  }
  if (!m.has(key)) m.set(key, make());
  return m.get(key) as T;
}
