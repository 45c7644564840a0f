/**
 * Scrubbing a whole log, as a stream of record batches: each record's query is replaced by its released text,
 * and records whose query is left empty are removed (unless kept); a click URL whose host carries a removed
 * identifier is dropped (click-url.ts). Counts per identifier type say what was done.
 *
 * AOL repeats a query on each click row and on each next-page request, so results are memoized per distinct
 * query text in a bounded map: the scrubber is pure, so this changes nothing but the time.
 */
import type { TextDomain } from "../log/declared.ts";
import type { LogRecord, QueryLog } from "../log/record.ts";
import type { RowBlock } from "../log/row-block.ts";
import type { RowWriter } from "../log/row-write.ts";
import { ClickUsers, dropSingleUserClick, rowClickDrop, scrubClick } from "./click-url.ts";
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
  /** Spans found within a phrase of the allow list, left in the query (one per occurrence in each record). */
  allowed: number;
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
    allowed: 0,
  };
}

function singleUserDropped(rec: LogRecord, clicks: ClickUsers | undefined, counts: ScrubCounts): LogRecord {
  if (clicks === undefined) return rec;
  const out = dropSingleUserClick(rec, clicks);
  if (out !== rec) counts.singleUserClicksDropped++;
  return out;
}

/** `scrubber.scrub`, remembered per query text (at most {@link MEMO_LIMIT} at a time). */
export function scrubMemo(scrubber: Scrubber): (query: string) => ScrubResult {
  const memo = new Map<string, ScrubResult>();
  return (query) => {
    let r = memo.get(query);
    if (r === undefined) {
      if (memo.size >= MEMO_LIMIT) memo.clear();
      r = scrubber.scrub(query);
      memo.set(query, r);
    }
    return r;
  };
}

/** Count a record and its query's scrub result `r`; its release, or undefined when it is removed (left empty). */
export function scrubbedRecord(
  rec: LogRecord,
  r: ScrubResult,
  counts: ScrubCounts,
  opts: ScrubLogOptions,
): LogRecord | undefined {
  counts.records++;
  for (const s of r.spans) counts.spans[s.type]++;
  counts.allowed += r.allowed ?? 0;
  if (r.spans.length === 0) return singleUserDropped(rec, opts.clicks, counts);
  counts.changed++;
  if (r.text === "" && !opts.keepEmpty) {
    counts.removed++;
    return undefined;
  }
  const scrubbed = scrubClick({ ...rec, query: r.text }, r.spans);
  if (scrubbed.clickUrl !== rec.clickUrl) counts.clicksDropped++;
  return singleUserDropped(scrubbed, opts.clicks, counts);
}

/** Scrub the queries of a stream of batches, updating `counts` as it goes. */
export async function* scrubRecords(
  batches: AsyncIterable<readonly LogRecord[]>,
  scrubber: Scrubber,
  counts: ScrubCounts,
  opts: ScrubLogOptions = {},
): AsyncGenerator<LogRecord[]> {
  const scrub = scrubMemo(scrubber);
  for await (const batch of batches) {
    const out: LogRecord[] = [];
    for (const rec of batch) {
      const released = scrubbedRecord(rec, scrub(rec.query), counts, opts);
      if (released !== undefined) out.push(released);
    }
    if (out.length > 0) yield out;
  }
}

/**
 * {@link scrubRecords} on the raw rows of an AOL log (src/log/rows.ts), written by `out` (src/log/row-write.ts, with
 * the classifier's columns when `classified`): a row's bytes are copied but for its query when the scrubber changed
 * it and its click when it is dropped; a row the codec read, or one whose layout is not the output's (a file of
 * several without the classifier's columns), goes through the record path. The same bytes and counts as the record
 * path (tests).
 */
export async function scrubRows(
  blocks: AsyncIterable<RowBlock>,
  scrubber: Scrubber,
  counts: ScrubCounts,
  out: RowWriter,
  classified: boolean,
  opts: ScrubLogOptions = {},
): Promise<void> {
  const scrub = scrubMemo(scrubber);
  /** The scrub result of the row before, when it is in this block and was read as bytes. */
  let last: ScrubResult | undefined;
  for await (const rows of blocks) {
    last = undefined;
    for (let i = 0; i < rows.n; i++) {
      if (!rows.bytesIn(i, classified)) {
        last = undefined;
        const rec = rows.record(i);
        const released = scrubbedRecord(rec, scrub(rec.query), counts, opts);
        if (released !== undefined) out.record(released);
        continue;
      }
      counts.records++;
      // A row with the query of the row before it (a click row of its event, when that row was read as bytes
      // too: `last` is set) has that row's result, looked up without a string.
      if (last === undefined || !rows.sameQueryAsBefore(i)) last = scrub(rows.query(i));
      const r = last;
      for (const s of r.spans) counts.spans[s.type]++;
      counts.allowed += r.allowed ?? 0;
      if (r.spans.length > 0) {
        counts.changed++;
        if (r.text === "" && !opts.keepEmpty) {
          counts.removed++;
          continue;
        }
      }
      const why = rowClickDrop(rows, i, r.spans, opts.clicks);
      if (why === "identifier") counts.clicksDropped++;
      else if (why === "singleUser") counts.singleUserClicksDropped++;
      out.editedRow(rows, i, r.spans.length > 0 ? r.text : undefined, why !== undefined);
    }
    const behind = out.backlog();
    if (behind) await behind;
  }
}

/**
 * A log held in memory as `querymask scrub` gives it: identifiers dropped from every query (records left empty
 * removed), click URLs whose host carries one dropped, and (unless `singleUserClicks` is false: a method whose
 * preparation is per record) clicks only one user of this log made dropped. What a method declaring a scrubbed
 * input is given when its input is not already classified: it releases no identifier, whatever it keeps of the
 * text (docs/audit.md).
 */
export async function scrubLog<L extends QueryLog>(
  log: L,
  scrubber: Scrubber = createScrubber(),
  opts: { readonly singleUserClicks?: boolean; readonly clicks?: ClickUsers } = {},
): Promise<{ log: L; counts: ScrubCounts }> {
  const counts = emptyCounts();
  // The single-user click rule decides about a record from the others: only where the method allows that.
  const clicks =
    opts.singleUserClicks === false ? undefined : (opts.clicks ?? (await ClickUsers.of(once(log.records))));
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
 * Whether a log is to be scrubbed before a method that declares `text` as its input (src/log/declared.ts) sees
 * it, as `querymask scrub` does: when the method takes scrubbed text and the log is not already classified (and
 * so scrubbed). So no method releases an identifier, whatever it keeps of the text; the audit scrubs the original
 * the same way.
 */
export function scrubsInput(text: TextDomain, log: { readonly classified?: boolean }): boolean {
  return !log.classified && text === "scrubbed";
}
