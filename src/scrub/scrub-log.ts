/**
 * Scrubbing a whole log, as a stream of record batches: each record's query is replaced by its released text,
 * and records whose query is left empty are removed (unless kept); a click URL whose host carries a removed
 * identifier is dropped (click-url.ts). Counts per identifier type say what was done.
 *
 * AOL repeats a query on each click row and on each next-page request, so results are memoized per distinct
 * query text in a bounded map: the scrubber is pure, so this changes nothing but the time.
 */
import type { LogRecord, QueryLog } from "../log/record.ts";
import { ClickUsers, dropSingleUserClick, scrubClick } from "./click-url.ts";
import { createScrubber, type Scrubber } from "./scrubber.ts";
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

/**
 * A log held in memory as `querymask scrub` gives it: identifiers dropped from every query (records left empty
 * removed), click URLs whose host carries one dropped, and clicks only one user of this log made dropped. What
 * every method but identity is given when its input is not already classified (and so scrubbed): a method
 * releases no identifier, whatever it keeps of the text (docs/audit.md).
 */
export async function scrubLog<L extends QueryLog>(
  log: L,
  scrubber: Scrubber = createScrubber(),
): Promise<{ log: L; counts: ScrubCounts }> {
  const counts = emptyCounts();
  const clicks = await ClickUsers.of(once(log.records));
  const records: LogRecord[] = [];
  for await (const batch of scrubRecords(once(log.records), scrubber, counts, { clicks })) {
    for (const r of batch) records.push(r);
  }
  return { log: { ...log, records }, counts };
}

async function* once<T>(batch: readonly T[]): AsyncGenerator<readonly T[]> {
  yield batch;
}

/**
 * Methods whose release is the queries as typed by design, so neither scrubbed nor audited for identifiers:
 * identity (the input unchanged) and clientside (what the search engine receives when users forward each
 * other's queries — it protects who asked, not what was asked; paper 002).
 */
export const KEEPS_TEXT_AS_TYPED: ReadonlySet<string> = new Set(["identity", "clientside"]);

/**
 * Whether `querymask anonymize` (and the library's `anonymize`) scrubs a log before the method sees it, as
 * `querymask scrub` does: every method but those of {@link KEEPS_TEXT_AS_TYPED} and swap (which
 * classifies, and so scrubs, an unclassified input on the way), when the log is not already classified. So no
 * method releases an identifier, whatever it keeps of the text; the audit scrubs the original the same way.
 */
export function scrubsInput(method: string, log: { readonly classified?: boolean }): boolean {
  return !log.classified && !KEEPS_TEXT_AS_TYPED.has(method) && method !== "swap";
}
