/**
 * `querymask stats`: what a log holds, counted in one streaming pass (memory grows with users and distinct
 * queries, not with rows).
 */

import { EventCursor } from "./events.ts";
import type { LogRecord } from "./record.ts";
import type { RowBlock } from "./row-block.ts";
import { formatAolTime } from "./time.ts";

export interface LogStats {
  rows: number;
  users: number;
  queryEvents: number;
  clickRows: number;
  nextPageRequests: number;
  distinctQueries: number;
  firstTime: string | null;
  lastTime: string | null;
  queriesPerUser: { min: number; median: number; max: number };
  rejected: number;
}

/**
 * Feed batches of records ({@link StatsAccumulator.push}) or blocks of an AOL log's raw rows
 * ({@link StatsAccumulator.pushRows}) in log order; read the result with {@link StatsAccumulator.result}.
 */
export class StatsAccumulator {
  private rows = 0;
  private clickRows = 0;
  private events = 0;
  private nextPage = 0;
  private minTime = Number.POSITIVE_INFINITY;
  private maxTime = Number.NEGATIVE_INFINITY;
  private readonly queries = new Set<string>();
  private readonly eventsPerUser = new Map<string, number>();
  private readonly cursor = new EventCursor();

  push(batch: readonly LogRecord[]): void {
    for (const r of batch) this.add(r.user, r.query, r.time, r.clickUrl !== undefined);
  }

  /**
   * The same counts as {@link push} of the block's records, without a record or (for the click rows that
   * continue the row before them) a string per row.
   */
  pushRows(rows: RowBlock): void {
    const { user, time, tab4, urlEnd, rec } = rows;
    for (let i = 0; i < rows.n; i++) {
      const r = rec[i];
      if (r !== undefined) {
        this.add(r.user, r.query, r.time, r.clickUrl !== undefined);
        continue;
      }
      const click = urlEnd[i]! > tab4[i]! + 1;
      if (rows.sameQueryAsBefore(i) && user[i - 1] === user[i] && time[i - 1] === time[i]) {
        // Another row of the event the row before opened (the cursor would say so): counted as a row only.
        this.rows++;
        if (click) this.clickRows++;
        continue;
      }
      this.add(user[i]!, rows.query(i), time[i]!, click);
    }
  }

  private add(user: string, query: string, time: number, click: boolean): void {
    this.rows++;
    if (click) this.clickRows++;
    if (time < this.minTime) this.minTime = time;
    if (time > this.maxTime) this.maxTime = time;
    const start = this.cursor.next(user, query, time);
    if (start === undefined) return;
    this.events++;
    if (start.nextPage) this.nextPage++;
    // A next page repeats the user's previous query (counted then) or has none.
    if (query !== "" && !start.nextPage) this.queries.add(query);
    this.eventsPerUser.set(user, (this.eventsPerUser.get(user) ?? 0) + 1);
  }

  result(rejected = 0): LogStats {
    const per = [...this.eventsPerUser.values()].sort((a, b) => a - b);
    const median =
      per.length === 0
        ? 0
        : per.length % 2
          ? per[(per.length - 1) / 2]!
          : (per[per.length / 2 - 1]! + per[per.length / 2]!) / 2;
    return {
      rows: this.rows,
      users: this.eventsPerUser.size,
      queryEvents: this.events,
      clickRows: this.clickRows,
      nextPageRequests: this.nextPage,
      distinctQueries: this.queries.size,
      firstTime: this.rows ? formatAolTime(this.minTime) : null,
      lastTime: this.rows ? formatAolTime(this.maxTime) : null,
      queriesPerUser: { min: per[0] ?? 0, median, max: per[per.length - 1] ?? 0 },
      rejected,
    };
  }
}
