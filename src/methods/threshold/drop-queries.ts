/**
 * The release of a removal method (threshold, graph): the input log with every event of the removed queries
 * dropped whole (all its rows, clicks included), the origin of each kept row, and what was removed, counted in
 * queries, events, rows and users (a user is removed when none of their events is left).
 */
import { groupEvents, type QueryEvent } from "../../log/events.ts";
import type { LogRecord, QueryLog } from "../../log/record.ts";
import type { Progress } from "../../util/progress.ts";
import { NO_GUARANTEE, type Release, type ReleaseSink, type UserPasses } from "../method.ts";

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

/** The distinct queries of a log read by user, and how many of them are released. */
export interface QueryTotals {
  readonly distinct: number;
  readonly released: number;
}

/**
 * {@link dropQueries} on a log read by user, in one more pass: the events of the queries `released` keeps are
 * written to `out` as they are read (or collected into the release's log when there is no `out`), and the counts
 * are the batch release's.
 */
export async function dropQueriesByUser(
  log: UserPasses,
  released: (query: string) => boolean,
  queries: QueryTotals,
  out: ReleaseSink | undefined,
  extra: Record<string, number> = {},
  progress?: Progress,
): Promise<Release> {
  const kept: LogRecord[] | undefined = out === undefined ? [] : undefined;
  const origin: number[] = [];
  let row = 0;
  let events = 0;
  let eventsRemoved = 0;
  let rowsRemoved = 0;
  let rowsReleased = 0;
  let users = 0;
  let usersReleased = 0;
  for await (const block of log.pass()) {
    users++;
    let any = false;
    const write: LogRecord[] = [];
    for (const e of groupEvents(block)) {
      events++;
      if (!released(e.query)) {
        eventsRemoved++;
        rowsRemoved += e.rows;
        continue;
      }
      any = true;
      for (let i = e.first; i < e.first + e.rows; i++) {
        write.push(block[i]!);
        if (kept) origin.push(row + i);
      }
    }
    row += block.length;
    progress?.tick(block.length);
    if (any) usersReleased++;
    rowsReleased += write.length;
    if (kept) for (const r of write) kept.push({ ...r });
    else if (write.length > 0) {
      const behind = out!.write(write);
      if (behind) await behind;
    }
  }
  const counts: RemovalCounts = {
    "queries removed": queries.distinct - queries.released,
    "events removed": eventsRemoved,
    "rows removed": rowsRemoved,
    "users removed": users - usersReleased,
    "queries released": queries.released,
    "events released": events - eventsRemoved,
    "rows released": rowsReleased,
    "users released": usersReleased,
  };
  return {
    ...(kept
      ? {
          log: { records: kept, format: log.format ?? "aol", classified: log.classified },
          origin: Int32Array.from(origin),
        }
      : {}),
    counts: { ...counts, ...extra },
    guarantee: NO_GUARANTEE,
  };
}

/**
 * The release of {@link dropQueriesByUser} run on shards of users (each shard's users, the same `queries` and no
 * extra counts): every count but the queries' is a sum over users; the queries' and `extra` are the whole log's.
 */
export function mergeRemovalParts(
  shards: readonly Release[],
  queries: QueryTotals,
  extra: Record<string, number> = {},
): Release {
  const counts: Record<string, number> = {};
  for (const s of shards) for (const [k, v] of Object.entries(s.counts)) counts[k] = (counts[k] ?? 0) + v;
  counts["queries removed"] = queries.distinct - queries.released;
  counts["queries released"] = queries.released;
  return { counts: { ...counts, ...extra }, guarantee: NO_GUARANTEE };
}
