/**
 * `querymask stats`: what a log holds, counted in one streaming pass (memory grows with users and distinct
 * queries, not with rows).
 */

import { EventCursor } from "./events.ts";
import type { LogRecord } from "./record.ts";
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

/** Feed batches in log order; read the result with {@link StatsAccumulator.result}. */
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
    for (const r of batch) {
      this.rows++;
      if (r.clickUrl !== undefined) this.clickRows++;
      if (r.time < this.minTime) this.minTime = r.time;
      if (r.time > this.maxTime) this.maxTime = r.time;
      const start = this.cursor.next(r);
      if (start === undefined) continue;
      this.events++;
      if (start.nextPage) this.nextPage++;
      if (r.query !== "") this.queries.add(r.query);
      this.eventsPerUser.set(r.user, (this.eventsPerUser.get(r.user) ?? 0) + 1);
    }
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
