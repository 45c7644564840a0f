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
 * The one place the event rules live, fed one row at a time in log order: whether a row starts a new query
 * event (it differs from the previous row in user, query or time) and whether that event is a next-page request
 * (the same query as the user's previous non-empty query, or an empty query). `groupEvents` and the streaming
 * `StatsAccumulator` both use it, so they cannot disagree.
 */
export class EventCursor {
  private started = false;
  private user = "";
  private query = "";
  private time = 0;
  private prevQuery: string | undefined;

  /**
   * Feed the next row (its user, query and time): undefined if it continues the current event, else whether the
   * new event is a next page.
   */
  next(user: string, query: string, time: number): { nextPage: boolean } | undefined {
    const sameUser = this.started && this.user === user;
    if (sameUser && this.time === time && this.query === query) return undefined;
    this.started = true;
    this.user = user;
    this.query = query;
    this.time = time;
    if (!sameUser) this.prevQuery = undefined;
    const nextPage = sameUser && (query === this.prevQuery || query === "");
    if (query !== "") this.prevQuery = query;
    return nextPage ? NEXT_PAGE : NEW_QUERY;
  }
}

const NEXT_PAGE = Object.freeze({ nextPage: true });
const NEW_QUERY = Object.freeze({ nextPage: false });

/**
 * Group consecutive rows with the same user, query and time into events. Rows are expected in log order
 * (by user, then time, as AOL ships them); rows of one event that are not adjacent form separate events.
 */
export function groupEvents(records: readonly LogRecord[]): QueryEvent[] {
  const events: QueryEvent[] = [];
  const cursor = new EventCursor();
  let current:
    | {
        user: string;
        query: string;
        time: number;
        first: number;
        rows: number;
        clicks: number;
        nextPage: boolean;
      }
    | undefined;
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    const start = cursor.next(r.user, r.query, r.time);
    if (start !== undefined) {
      current = {
        user: r.user,
        query: r.query,
        time: r.time,
        first: i,
        rows: 0,
        clicks: 0,
        nextPage: start.nextPage,
      };
      events.push(current);
    }
    current!.rows++;
    if (r.clickUrl !== undefined) current!.clicks++;
  }
  return events;
}
