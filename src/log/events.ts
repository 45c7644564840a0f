/**
 * The events view. In the AOL layout a query that led to several clicks appears once per click, all rows with
 * the same user, query and time; a request for the next page of results appears as the same query again with a
 * later time (Excite logs it as an empty query). Methods and metrics count query *events*, not rows.
 */
import type { LogRecord } from "./record.ts";

export interface QueryEvent {
  readonly user: string;
  readonly query: string;
  readonly time: number;
  /** Index in the records array of the event's first row. */
  readonly first: number;
  /** Number of consecutive rows of the event (≥ 1). */
  readonly rows: number;
  /** Rows of the event that are clicks. */
  readonly clicks: number;
  /**
   * A request for the next page of results: the same query as the user's previous event (AOL), or an empty
   * query (Excite).
   */
  readonly nextPage: boolean;
}

/**
 * Group consecutive rows with the same user, query and time into events. Rows are expected in log order
 * (by user, then time, as AOL ships them); rows of one event that are not adjacent form separate events.
 */
export function groupEvents(records: readonly LogRecord[]): QueryEvent[] {
  const events: QueryEvent[] = [];
  let i = 0;
  let prevUser: string | undefined;
  let prevQuery: string | undefined;
  while (i < records.length) {
    const r = records[i]!;
    let j = i + 1;
    let clicks = r.clickUrl !== undefined ? 1 : 0;
    while (j < records.length) {
      const s = records[j]!;
      if (s.user !== r.user || s.time !== r.time || s.query !== r.query) break;
      if (s.clickUrl !== undefined) clicks++;
      j++;
    }
    const sameUser = prevUser === r.user;
    if (!sameUser) prevQuery = undefined;
    const nextPage = sameUser && (r.query === prevQuery || r.query === "");
    events.push({ user: r.user, query: r.query, time: r.time, first: i, rows: j - i, clicks, nextPage });
    prevUser = r.user;
    if (r.query !== "") prevQuery = r.query;
    i = j;
  }
  return events;
}
