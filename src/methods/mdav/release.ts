/**
 * Turning a partition of users and one synthetic log per cluster into a {@link Release}, shared by the
 * semantic method and its baselines.
 *
 * Every user of a cluster is released under her own id with the cluster's synthetic log, so each released log
 * is shared by all (≥ k) users of the cluster. A synthetic log is a list of original query events; each is
 * copied whole (all its click rows, with their times, ranks and clicked URLs), so the synthetic queries carry
 * the times of the original events they were picked from, and the log is sorted by time. `origin` points every
 * released row at the input row it was copied from.
 */
import type { LogRecord, QueryLog } from "../../log/record.ts";
import type { Release } from "../method.ts";
import type { UserLogs } from "./user-logs.ts";

export function buildRelease(
  input: QueryLog,
  logs: UserLogs,
  clusters: readonly ArrayLike<number>[],
  synthetic: readonly (readonly number[])[],
  counts: Record<string, number> = {},
  k?: number,
): Release {
  const clusterOf = new Int32Array(logs.users.length).fill(-1);
  clusters.forEach((members, c) => {
    for (let i = 0; i < members.length; i++) clusterOf[members[i]!] = c;
  });
  const sorted = synthetic.map((events) =>
    [...events].sort((a, b) => logs.events[a]!.time - logs.events[b]!.time || a - b),
  );
  const records: LogRecord[] = [];
  const origin: number[] = [];
  let empty = 0;
  logs.users.forEach((user, u) => {
    const c = clusterOf[u]!;
    const events = c >= 0 ? sorted[c]! : [];
    if (events.length === 0) empty++;
    for (const e of events) {
      const ev = logs.events[e]!;
      for (let r = ev.first; r < ev.first + ev.rows; r++) {
        const { source: _source, ...row } = input.records[r]!;
        records.push({ ...row, user });
        origin.push(r);
      }
    }
  });
  const sizes = synthetic.map((s) => s.length);
  return {
    log: { records, format: input.format, classified: input.classified },
    origin: Int32Array.from(origin),
    counts: {
      users: logs.users.length,
      clusters: clusters.length,
      "released rows": records.length,
      "mean synthetic queries per cluster": sizes.length
        ? sizes.reduce((a, b) => a + b, 0) / sizes.length
        : 0,
      "users with an empty log": empty,
      ...counts,
    },
    ...(k !== undefined ? { guarantee: { k } } : {}),
  };
}
