/**
 * The release of a removal method (threshold, graph): the input log with every event of the removed queries
 * dropped whole (all its rows, clicks included), the origin of each kept row, and what was removed, counted in
 * queries, events, rows and users (a user is removed when none of their events is left).
 */
import type { QueryEvent } from "../../log/events.ts";
import type { LogRecord, QueryLog } from "../../log/record.ts";
import { NO_GUARANTEE, type Release } from "../method.ts";

/** Counts common to removal methods, under these names in {@link Release.counts}. */
export interface RemovalCounts {
  "queries removed": number;
  "events removed": number;
  "rows removed": number;
  "users removed": number;
  "queries released": number;
  "events released": number;
  "rows released": number;
  "users released": number;
}

/**
 * Drop every event whose query is in `removed`. `events` must be `groupEvents(input.records)`.
 * Extra counts are merged into the release's counts.
 */
export function dropQueries(
  input: QueryLog,
  events: readonly QueryEvent[],
  removed: ReadonlySet<string>,
  extra: Record<string, number> = {},
): Release {
  const records: LogRecord[] = [];
  const origin: number[] = [];
  const usersIn = new Set<string>();
  const usersOut = new Set<string>();
  const queriesIn = new Set<string>();
  let eventsRemoved = 0;
  let rowsRemoved = 0;
  for (const e of events) {
    usersIn.add(e.user);
    queriesIn.add(e.query);
    if (removed.has(e.query)) {
      eventsRemoved++;
      rowsRemoved += e.rows;
      continue;
    }
    usersOut.add(e.user);
    for (let i = e.first; i < e.first + e.rows; i++) {
      records.push({ ...input.records[i]! });
      origin.push(i);
    }
  }
  let queriesRemoved = 0;
  for (const q of queriesIn) if (removed.has(q)) queriesRemoved++;
  const counts: RemovalCounts = {
    "queries removed": queriesRemoved,
    "events removed": eventsRemoved,
    "rows removed": rowsRemoved,
    "users removed": usersIn.size - usersOut.size,
    "queries released": queriesIn.size - queriesRemoved,
    "events released": events.length - eventsRemoved,
    "rows released": records.length,
    "users released": usersOut.size,
  };
  return {
    log: { records, format: input.format, classified: input.classified },
    origin: Int32Array.from(origin),
    counts: { ...counts, ...extra },
    guarantee: NO_GUARANTEE,
  };
}
