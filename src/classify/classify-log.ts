/**
 * A whole log through the classifier, as a stream of record batches (memory stays flat however long the log)
 * or in memory: each record gets `category` and `unit`, and its query is replaced by the scrubbed text (a click
 * URL whose host carries an identifier removed from the query is dropped: src/scrub/click-url.ts). A
 * {@link ClassifyTally} counts per query event (consecutive rows with the same user, query and time) by
 * top-level category, plus `unclassified`, `events` and `scrubbed` (events with an identifier removed).
 */
import { LRUCache } from "lru-cache";
import { EventCursor } from "../log/events.ts";
import type { LogRecord, QueryLog } from "../log/record.ts";
import type { RowWriter } from "../log/row-write.ts";
import type { RowBlock } from "../log/rows.ts";
import {
  ClickUsers,
  dropSingleUserClick,
  hostCarries,
  identifierWords,
  scrubClick,
} from "../scrub/click-url.ts";
import { type Progress, silentProgress } from "../util/progress.ts";
import { type Classification, type Classifier, UNCLASSIFIED } from "./classifier.ts";
import type { ClassifyThreads } from "./threads.ts";

/** The counts of a classified log; it may be fed batch by batch (an event may straddle two batches). */
export class ClassifyTally {
  readonly counts: Record<string, number> = { events: 0, [UNCLASSIFIED]: 0, scrubbed: 0 };
  /** Click URLs dropped because their host carries an identifier removed from the query. */
  clicksDropped = 0;
  /** Click URLs dropped because only one user ever clicked them (see {@link ClickUsers}). */
  singleUserClicksDropped = 0;
  /**
   * Query events without query text (empty, or AOL's `-`: a request for another page of results): unclassified
   * by nature, and counted among the unclassified ones.
   */
  noQueryText = 0;
  private readonly events = new EventCursor();

  /** Count one input record (before scrubbing) with its classification. */
  add(r: LogRecord, c: Classification): void {
    if (this.events.next(r) === undefined) return; // a click row of the event already counted
    this.counts.events!++;
    if (c.spans.length > 0) this.counts.scrubbed!++;
    if (hasNoText(r.query)) this.noQueryText++;
    // The top-level branch: the second step of the path (`Top/Sports/Soccer` → `Sports`).
    const top = c.categoryId < 0 ? UNCLASSIFIED : c.category.split("/", 2)[1]!;
    this.counts[top] = (this.counts[top] ?? 0) + 1;
  }

  /** Share of query events with a category (0 for an empty log). */
  get coverage(): number {
    const events = this.counts.events!;
    return events === 0 ? 0 : 1 - this.counts[UNCLASSIFIED]! / events;
  }

  /** Share of the query events with query text that have a category (0 when none has text). */
  get textCoverage(): number {
    const withText = this.counts.events! - this.noQueryText;
    return withText === 0 ? 0 : 1 - (this.counts[UNCLASSIFIED]! - this.noQueryText) / withText;
  }
}

/** Whether a query is no text: empty, spaces, or AOL's `-`. */
function hasNoText(query: string): boolean {
  const q = query.trim();
  return q === "" || q === "-";
}

/**
 * Classified copies of `records`, counted in `tally`; with `clicks` (the whole log's click counts), a click only
 * one user ever made is dropped too.
 */
export function classifyRecords(
  classifier: Pick<Classifier, "classify">,
  records: readonly LogRecord[],
  tally: ClassifyTally,
  clicks?: ClickUsers,
): LogRecord[] {
  const out: LogRecord[] = new Array(records.length);
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    const c = classifier.classify(r.query);
    const classified = { ...r, query: c.scrubbed, category: c.category, unit: c.unit };
    let o = scrubClick(classified, c.spans);
    if (o !== classified) tally.clicksDropped++;
    else if (clicks !== undefined) {
      o = dropSingleUserClick(classified, clicks);
      if (o !== classified) tally.singleUserClicksDropped++;
    }
    out[i] = o;
    tally.add(r, c);
  }
  return out;
}

/** Classify a stream of record batches (see `openLog`), counting in `tally`. */
export async function* classifyBatches(
  classifier: Classifier,
  batches: AsyncIterable<readonly LogRecord[]>,
  tally: ClassifyTally,
  clicks?: ClickUsers,
): AsyncGenerator<LogRecord[]> {
  for await (const batch of batches) yield classifyRecords(classifier, batch, tally, clicks);
}

/** What {@link classifyRows} asks for each query: a classifier, or the answers of threads. */
export interface RowsClassifier {
  /** Called with each block's queries (one per row) before any of them is classified. */
  prepare?(queries: readonly string[]): Promise<void>;
  classify(query: string): Classification;
}

/**
 * {@link classifyBatches} on raw rows (src/log/rows.ts: an AOL log, a block at a time, no record per row), written
 * by `out` (src/log/row-write.ts): a row's bytes are copied but for its query (the scrubbed text), its click when it
 * is dropped, and its category and unit. The same bytes as the record path (tests).
 */
export async function classifyRows(
  classifier: RowsClassifier,
  blocks: AsyncIterable<RowBlock>,
  tally: ClassifyTally,
  clicks: ClickUsers | undefined,
  out: RowWriter,
): Promise<void> {
  const queries: string[] = [];
  for await (const rows of blocks) {
    queries.length = rows.n;
    for (let i = 0; i < rows.n; i++) queries[i] = rows.query(i);
    if (classifier.prepare !== undefined) await classifier.prepare(queries);
    for (let i = 0; i < rows.n; i++) {
      const rec = rows.rec[i];
      if (rec !== undefined) {
        out.record(classifyRecords(classifier, [rec], tally, clicks)[0]!);
        continue;
      }
      const query = queries[i]!;
      const c = classifier.classify(query);
      let drop = false;
      if (rows.urlEnd[i]! > rows.tab4[i]! + 1) {
        const url = rows.urlText(i);
        if (c.spans.length > 0 && hostCarries(url, identifierWords(c.spans))) {
          drop = true;
          tally.clicksDropped++;
        } else if (clicks?.singleUser(url)) {
          drop = true;
          tally.singleUserClicksDropped++;
        }
      }
      out.classifiedRow(rows, i, c.scrubbed, drop, c.category, c.unit);
      tally.add({ user: rows.user[i]!, query, time: rows.time[i]! }, c);
    }
    const behind = out.backlog();
    if (behind) await behind;
  }
}

/**
 * A {@link RowsClassifier} on worker threads: each block's distinct queries that the answers kept (an LRU of
 * `cacheSize`, as the classifier's own; 0 = none) do not hold are classified on the threads before the block is
 * written. (A block is the reader's buffer, valid until the next is read, so blocks are not sent out ahead.)
 */
export function rowsOnThreads(threads: ClassifyThreads, cacheSize: number): RowsClassifier {
  const memo = cacheSize > 0 ? new LRUCache<string, Classification>({ max: cacheSize }) : undefined;
  const block = new Map<string, Classification>();
  return {
    async prepare(queries) {
      block.clear();
      const asked: string[] = [];
      const seen = new Set<string>();
      for (const q of queries) {
        if (seen.has(q)) continue;
        seen.add(q);
        const hit = memo?.get(q);
        if (hit !== undefined) block.set(q, hit);
        else asked.push(q);
      }
      const results = await threads.classify(asked);
      for (let i = 0; i < asked.length; i++) {
        block.set(asked[i]!, results[i]!);
        memo?.set(asked[i]!, results[i]!);
      }
    },
    classify: (q) => block.get(q)!,
  };
}

/** How {@link classifyBatchesOnThreads} works. */
export interface OnThreadsOptions {
  /** Only a click that more than one user made is kept (as in {@link classifyRecords}). */
  readonly clicks?: ClickUsers | undefined;
  /** Answers kept for queries that come again (an LRU, as the classifier's own `cacheSize`; 0 = none). */
  readonly cacheSize: number;
  /** Records per group sent out at once (default 8,192). */
  readonly groupRecords?: number;
  /** Groups out at once beside the one being written (default 2). */
  readonly groupsAhead?: number;
}

/** A group of records sent out, with the answers for its distinct queries once they are back. */
interface Group {
  readonly records: LogRecord[];
  readonly answers: Promise<Map<string, Classification>>;
  /** The queries the group sent to the threads. */
  readonly asked: readonly string[];
  /** Queries of the group an earlier group out at the same time is classifying, with that group's answers. */
  readonly borrowed: [string, Promise<Map<string, Classification>>][];
}

/**
 * {@link classifyBatches} with the classification on worker threads: the records are gathered in groups, each
 * group's distinct queries that the answers kept so far do not hold are classified on the threads while the main
 * thread reads the next groups and writes the last, and each group is then counted and yielded in order. A query
 * a group still out is classifying is not asked again: the later group takes that group's answer. The output is
 * {@link classifyBatches}'.
 */
export async function* classifyBatchesOnThreads(
  threads: ClassifyThreads,
  batches: AsyncIterable<readonly LogRecord[]>,
  tally: ClassifyTally,
  opts: OnThreadsOptions,
): AsyncGenerator<LogRecord[]> {
  const { clicks, cacheSize, groupRecords = 8192, groupsAhead = 2 } = opts;
  const memo = cacheSize > 0 ? new LRUCache<string, Classification>({ max: cacheSize }) : undefined;
  /** The queries groups out now are classifying, with their group's answers. */
  const outstanding = new Map<string, Promise<Map<string, Classification>>>();
  const out: Group[] = [];
  const send = (records: LogRecord[]) => {
    const known = new Map<string, Classification>();
    const seen = new Set<string>();
    const asked: string[] = [];
    const borrowed: Group["borrowed"] = [];
    for (const r of records) {
      const q = r.query;
      if (seen.has(q)) continue;
      seen.add(q);
      const hit = memo?.get(q);
      if (hit !== undefined) known.set(q, hit);
      else {
        const earlier = outstanding.get(q);
        if (earlier !== undefined) borrowed.push([q, earlier]);
        else asked.push(q);
      }
    }
    const answers = threads.classify(asked).then((results) => {
      for (let i = 0; i < asked.length; i++) {
        known.set(asked[i]!, results[i]!);
        memo?.set(asked[i]!, results[i]!);
      }
      return known;
    });
    // Awaited in turn by `finish`; a thread's failure is thrown there, not as an unhandled rejection before it.
    answers.catch(() => {});
    for (const q of asked) outstanding.set(q, answers);
    out.push({ records, answers, asked, borrowed });
  };
  const finish = async (g: Group): Promise<LogRecord[]> => {
    const known = await g.answers;
    for (const [q, earlier] of g.borrowed) known.set(q, (await earlier).get(q)!);
    for (const q of g.asked) outstanding.delete(q);
    return classifyRecords({ classify: (q) => known.get(q)! }, g.records, tally, clicks);
  };
  let group: LogRecord[] = [];
  for await (const batch of batches) {
    for (const r of batch) group.push(r);
    if (group.length < groupRecords) continue;
    send(group);
    group = [];
    if (out.length > groupsAhead) yield await finish(out.shift()!);
  }
  if (group.length > 0) send(group);
  while (out.length > 0) yield await finish(out.shift()!);
}

/** Classify a log held in memory (clicks only one user made are dropped, as `querymask classify` does). */
export function classifyLog(
  classifier: Classifier,
  log: QueryLog,
  progress: Progress = silentProgress,
): { log: QueryLog; counts: Record<string, number>; clicksDropped: number; singleUserClicksDropped: number } {
  const tally = new ClassifyTally();
  const clicks = new ClickUsers().add(log.records);
  const records: LogRecord[] = [];
  progress.start("classify", log.records.length);
  const step = 8192;
  for (let i = 0; i < log.records.length; i += step) {
    const part = classifyRecords(classifier, log.records.slice(i, i + step), tally, clicks);
    for (const r of part) records.push(r);
    progress.tick(part.length);
  }
  progress.stop();
  return {
    log: { records, format: log.format, classified: true },
    counts: tally.counts,
    clicksDropped: tally.clicksDropped,
    singleUserClicksDropped: tally.singleUserClicksDropped,
  };
}
