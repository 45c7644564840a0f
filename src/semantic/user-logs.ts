/**
 * The input of the user-level methods (paper 004 and its baselines): the log's query events grouped by user,
 * users in order of first appearance. Events with an empty query (Excite next-page requests) carry no query
 * and are left out.
 */
import { groupEvents, type QueryEvent } from "../log/events.ts";
import type { LogRecord } from "../log/record.ts";

export interface UserLogs {
  /** User ids, in order of first appearance. */
  readonly users: string[];
  /** All query events of the log (non-empty queries only). */
  readonly events: QueryEvent[];
  /** For each user (same index as `users`), the indices in `events` of her events, in log order. */
  readonly byUser: number[][];
}

export function userLogs(records: readonly LogRecord[]): UserLogs {
  const events = groupEvents(records).filter((e) => e.query !== "");
  const index = new Map<string, number>();
  const users: string[] = [];
  const byUser: number[][] = [];
  events.forEach((e, i) => {
    let u = index.get(e.user);
    if (u === undefined) {
      u = users.length;
      index.set(e.user, u);
      users.push(e.user);
      byUser.push([]);
    }
    byUser[u]!.push(i);
  });
  return { users, events, byUser };
}
