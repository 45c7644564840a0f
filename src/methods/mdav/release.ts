/**
 * Turning a partition of users and one synthetic log per cluster into a {@link Release}, shared by the
 * semantic method and its baselines.
 *
 * Every user of a cluster is released under her own id with the cluster's synthetic log, so each released log
 * is shared by all (≥ k) users of the cluster. A synthetic log is a list of original query events; each is
 * copied whole (all its click rows, with their times, ranks and clicked URLs), so the synthetic queries carry
 * the times of the original events they were picked from, and the log is sorted by time. `origin` points every
 * released row at the input row it was copied from.
 *
 * A cluster of fewer than k users (only when the whole log has fewer than k users) is not released: its log
 * would be one user's, or shared by too few, and the release claims k. Its users are counted as suppressed.
 */
import type { LogRecord, QueryLog } from "../../log/record.ts";
import type { UserLogs } from "../../semantic/user-logs.ts";
import type { Release } from "../method.ts";

export function buildRelease(
  input: QueryLog,
  logs: UserLogs,
  clusters: readonly ArrayLike<number>[],
  synthetic: readonly (readonly number[])[],
  counts: Record<string, number>,
  k: number,
): Release {
  const clusterOf = new Int32Array(logs.users.length).fill(-1);
  clusters.forEach((members, c) => {
    for (let i = 0; i < members.length; i++) clusterOf[members[i]!] = c;
  });
  // Each cluster's rows, stripped of their source position, once (its k… members then only copy them).
  const rowsOf: { rows: Omit<LogRecord, "source">[]; origin: number[] }[] = synthetic.map((events) => {
    const rows: Omit<LogRecord, "source">[] = [];
    const from: number[] = [];
    const sorted = [...events].sort((a, b) => logs.events[a]!.time - logs.events[b]!.time || a - b);
    for (const e of sorted) {
      const ev = logs.events[e]!;
      for (let r = ev.first; r < ev.first + ev.rows; r++) {
        const { source: _source, ...row } = input.records[r]!;
        rows.push(row);
        from.push(r);
      }
    }
    return { rows, origin: from };
  });
  const records: LogRecord[] = [];
  const origin: number[] = [];
  let empty = 0;
  let small = 0;
  logs.users.forEach((user, u) => {
    const c = clusterOf[u]!;
    const own = c >= 0 ? rowsOf[c]! : undefined;
    if (k !== undefined && c >= 0 && clusters[c]!.length < k) {
      small++;
      return;
    }
    if (!own || own.rows.length === 0) {
      empty++;
      return;
    }
    for (let i = 0; i < own.rows.length; i++) {
      records.push({ ...own.rows[i]!, user });
      origin.push(own.origin[i]!);
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
      "users suppressed (fewer than k users)": small,
      ...counts,
    },
    guarantee: { model: "k-anonymity", k },
  };
}
