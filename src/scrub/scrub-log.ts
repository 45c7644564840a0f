/**
 * Scrubbing a whole log, as a stream of record batches: each record's query is replaced by its released text,
 * and records whose query is left empty are removed (unless kept); a click URL whose host carries a removed
 * identifier is dropped (click-url.ts). Counts per identifier type say what was done.
 *
 * AOL repeats a query on each click row and on each next-page request, so results are memoized per distinct
 * query text in a bounded map: the scrubber is pure, so this changes nothing but the time.
 */
import type { LogRecord } from "../log/record.ts";
import { type ClickUsers, dropSingleUserClick, scrubClick } from "./click-url.ts";
import type { Scrubber } from "./scrubber.ts";
import { PII_TYPES, type PiiType, type ScrubResult } from "./types.ts";

export interface ScrubLogOptions {
  /** Keep records whose query is empty after scrubbing (default: remove them). */
  keepEmpty?: boolean;
  /** The whole log's click counts: a click only one user made is dropped (see {@link ClickUsers}). */
  clicks?: ClickUsers;
}

export interface ScrubCounts {
  records: number;
  /** Records whose query text changed. */
  changed: number;
  /** Records removed because nothing was left of their query. */
  removed: number;
  /** Click URLs dropped because their host carries an identifier removed from the query. */
  clicksDropped: number;
  /** Click URLs dropped because only one user ever clicked them. */
  singleUserClicksDropped: number;
  /** Identifier spans found, per type (one per occurrence in each record). */
  spans: Record<PiiType, number>;
}

const MEMO_LIMIT = 100_000;

export function emptyCounts(): ScrubCounts {
  return {
    records: 0,
    changed: 0,
    removed: 0,
    clicksDropped: 0,
    singleUserClicksDropped: 0,
    spans: Object.fromEntries(PII_TYPES.map((t) => [t, 0])) as Record<PiiType, number>,
  };
}

function singleUserDropped(rec: LogRecord, clicks: ClickUsers | undefined, counts: ScrubCounts): LogRecord {
  if (clicks === undefined) return rec;
  const out = dropSingleUserClick(rec, clicks);
  if (out !== rec) counts.singleUserClicksDropped++;
  return out;
}

/** Scrub the queries of a stream of batches, updating `counts` as it goes. */
export async function* scrubRecords(
  batches: AsyncIterable<readonly LogRecord[]>,
  scrubber: Scrubber,
  counts: ScrubCounts,
  opts: ScrubLogOptions = {},
): AsyncGenerator<LogRecord[]> {
  const memo = new Map<string, ScrubResult>();
  for await (const batch of batches) {
    const out: LogRecord[] = [];
    for (const rec of batch) {
      counts.records++;
      let r = memo.get(rec.query);
      if (r === undefined) {
        if (memo.size >= MEMO_LIMIT) memo.clear();
        r = scrubber.scrub(rec.query);
        memo.set(rec.query, r);
      }
      for (const s of r.spans) counts.spans[s.type]++;
      if (r.spans.length === 0) {
        out.push(singleUserDropped(rec, opts.clicks, counts));
        continue;
      }
      counts.changed++;
      if (r.text === "" && !opts.keepEmpty) {
        counts.removed++;
        continue;
      }
      const scrubbed = scrubClick({ ...rec, query: r.text }, r.spans);
      if (scrubbed.clickUrl !== rec.clickUrl) counts.clicksDropped++;
      out.push(singleUserDropped(scrubbed, opts.clicks, counts));
    }
    if (out.length > 0) yield out;
  }
}
