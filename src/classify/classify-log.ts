/**
 * A whole log through the classifier, as a stream of record batches (memory stays flat however long the log)
 * or in memory: each record gets `category` and `unit`, and its query is replaced by the scrubbed text (a click
 * URL whose host carries an identifier removed from the query is dropped: src/scrub/click-url.ts). A
 * {@link ClassifyTally} counts per query event (consecutive rows with the same user, query and time) by
 * top-level category, plus `unclassified`, `events` and `scrubbed` (events with an identifier removed).
 */
import { EventCursor } from "../log/events.ts";
import type { LogRecord, QueryLog } from "../log/record.ts";
import type { RowBlock } from "../log/row-block.ts";
import type { RowWriter } from "../log/row-write.ts";
import { type ClickDrop, ClickUsers, clickDrop, rowClickDrop, withoutClick } from "../scrub/click-url.ts";
import { type Progress, silentProgress } from "../util/progress.ts";
import { type Assessment, type Classification, type Classifier, UNCLASSIFIED } from "./classifier.ts";
import { contextBranches, type LogContextSettings } from "./log-context.ts";
import { argmax } from "./model.ts";
import { QueryEvents } from "./query-events.ts";

/** The counts of a classified log; it may be fed batch by batch (an event may straddle two batches). */
export class ClassifyTally {
  readonly counts: Record<string, number> = { events: 0, [UNCLASSIFIED]: 0, scrubbed: 0 };
  /** Identifiers removed, per kind (one per occurrence in each query event). */
  readonly identifiers: Record<string, number> = {};
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

  /** Count a click dropped (`why`; undefined: none was). */
  dropped(why: ClickDrop | undefined): void {
    if (why === "identifier") this.clicksDropped++;
    else if (why === "singleUser") this.singleUserClicksDropped++;
  }

  /** Count one input row (its user, query before scrubbing, and time) with its classification. */
  add(user: string, query: string, time: number, c: Classification): void {
    if (this.events.next(user, query, time) === undefined) return; // a click row of the event already counted
    this.counts.events!++;
    if (c.spans.length > 0) this.counts.scrubbed!++;
    for (const sp of c.spans) this.identifiers[sp.type] = (this.identifiers[sp.type] ?? 0) + 1;
    if (hasNoText(query)) this.noQueryText++;
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
    const why = clickDrop(r.clickUrl, c.spans, clicks);
    out[i] = classifiedRecord(r, c, why);
    tally.dropped(why);
    tally.add(r.user, r.query, r.time, c);
  }
  return out;
}

/** `r` with `c`'s scrubbed query, category and unit, without its click when it is dropped (`why`). */
function classifiedRecord(r: LogRecord, c: Classification, why: ClickDrop | undefined): LogRecord {
  const classified = { ...r, query: c.scrubbed, category: c.category, unit: c.unit };
  return why === undefined ? classified : withoutClick(classified);
}

/** Classify a stream of record batches (see `openLog`), counting in `tally`. */
export async function* classifyBatches(
  classifier: Pick<Classifier, "classify">,
  batches: AsyncIterable<readonly LogRecord[]>,
  tally: ClassifyTally,
  clicks?: ClickUsers,
): AsyncGenerator<LogRecord[]> {
  for await (const batch of batches) yield classifyRecords(classifier, batch, tally, clicks);
}

/**
 * The query of each of `rows`' rows, into `into` (reused). A row read as bytes with the query of the row before (a
 * click row of its event) gets that row's string: no new string, and {@link classifyBlock} sees it is the same.
 */
export function blockQueries(rows: RowBlock, into: string[]): string[] {
  into.length = rows.n;
  for (let i = 0; i < rows.n; i++) into[i] = rows.sameQueryAsBefore(i) ? into[i - 1]! : rows.query(i);
  return into;
}

/**
 * Classify and write one block of raw rows (src/log/rows.ts), whose queries are `queries`, through `out`
 * (src/log/row-write.ts): a row's bytes are copied but for its query (the scrubbed text), its click when it is
 * dropped, and its category and unit; a row the codec read goes through {@link classifyRecords}. The same bytes as
 * the record path (tests).
 */
export function classifyBlock(
  classifier: Pick<Classifier, "classify">,
  rows: RowBlock,
  queries: readonly string[],
  tally: ClassifyTally,
  clicks: ClickUsers | undefined,
  out: RowWriter,
): void {
  let c: Classification | undefined;
  for (let i = 0; i < rows.n; i++) {
    const query = queries[i]!;
    // A click row of the event before has its string (blockQueries) and its classification.
    if (c === undefined || query !== queries[i - 1]) c = classifier.classify(query);
    const why = rowClickDrop(rows, i, c.spans, clicks);
    tally.dropped(why);
    const rec = rows.rec[i];
    if (rec !== undefined) {
      out.record(classifiedRecord(rec, c, why));
      tally.add(rec.user, rec.query, rec.time, c);
    } else {
      out.classifiedRow(rows, i, c.scrubbed, why !== undefined, c.category, c.unit);
      tally.add(rows.user[i]!, query, rows.time[i]!, c);
    }
  }
}

/** {@link classifyBatches} on the raw rows of an AOL log (no record per row), written by `out`. */
export async function classifyRows(
  classifier: Pick<Classifier, "classify">,
  blocks: AsyncIterable<RowBlock>,
  tally: ClassifyTally,
  clicks: ClickUsers | undefined,
  out: RowWriter,
): Promise<void> {
  const queries: string[] = [];
  for await (const rows of blocks) {
    classifyBlock(classifier, rows, blockQueries(rows, queries), tally, clicks, out);
    const behind = out.backlog();
    if (behind) await behind;
  }
}

/**
 * Classify a log held in memory (clicks only one user made are dropped, as `querymask classify` does); with
 * `context`, each query's branch is reconsidered in the light of the log (`classify --context`, ./log-context.ts).
 */
export function classifyLog(
  classifier: Classifier,
  log: QueryLog,
  progress: Progress = silentProgress,
  context?: LogContextSettings,
): {
  log: QueryLog;
  counts: Record<string, number>;
  /** Identifiers removed per kind (query events). */
  identifiers: Record<string, number>;
  clicksDropped: number;
  singleUserClicksDropped: number;
  context?: { queriesChanged: number; eventsChanged: number };
} {
  const tally = new ClassifyTally();
  const clicks = new ClickUsers().add(log.records);
  // the whole log in memory: its name evidence is known (how many users typed each name)
  classifier = classifier.withNameUsers(clicks.names);
  let withContext: ReturnType<typeof withLogContext> | undefined;
  if (context !== undefined) {
    const events = new QueryEvents();
    const cursor = new EventCursor();
    for (const r of log.records) addEvent(r.user, r.query, r.time, r.clickUrl, cursor, events);
    withContext = withLogContext(classifier, events, context, assessAll(classifier, events.texts, progress));
  }
  const by = withContext ?? classifier;
  const records: LogRecord[] = [];
  progress.start("classify", log.records.length);
  const step = 8192;
  for (let i = 0; i < log.records.length; i += step) {
    const part = classifyRecords(by, log.records.slice(i, i + step), tally, clicks);
    for (const r of part) records.push(r);
    progress.tick(part.length);
  }
  progress.stop();
  return {
    log: { records, format: log.format, classified: true },
    counts: tally.counts,
    identifiers: tally.identifiers,
    clicksDropped: tally.clicksDropped,
    singleUserClicksDropped: tally.singleUserClicksDropped,
    ...(withContext === undefined
      ? {}
      : {
          context: { queriesChanged: withContext.queriesChanged, eventsChanged: withContext.eventsChanged },
        }),
  };
}

/** What `querymask classify` reads of a log before it classifies it (see {@link firstPassRows}). */
export interface FirstPass {
  /** Each click URL's users (for the single-user click rule). */
  readonly clicks: ClickUsers | undefined;
  /** The query events and clicks (for the log context). */
  readonly events: QueryEvents | undefined;
}

/** What the first pass gathers: the click URLs' users, the query events, or both. */
export interface FirstPassWants {
  readonly clicks: boolean;
  readonly events: boolean;
}

/** The first pass over an AOL log's raw rows: one read for both of what it gathers. */
export async function firstPassRows(
  blocks: AsyncIterable<RowBlock>,
  wants: FirstPassWants,
): Promise<FirstPass> {
  const clicks = wants.clicks ? new ClickUsers() : undefined;
  const events = wants.events ? new QueryEvents() : undefined;
  const cursor = new EventCursor();
  for await (const rows of blocks) {
    clicks?.addRows(rows);
    if (events === undefined) continue;
    for (let i = 0; i < rows.n; i++) {
      const rec = rows.rec[i];
      if (rec !== undefined) addEvent(rec.user, rec.query, rec.time, rec.clickUrl, cursor, events);
      else {
        const url = rows.urlEnd[i]! > rows.tab4[i]! + 1 ? rows.urlText(i) : undefined;
        addEvent(rows.user[i]!, rows.query(i), rows.time[i]!, url, cursor, events);
      }
    }
  }
  return { clicks, events };
}

/** {@link firstPassRows} over a stream of record batches (see `openLog`). */
export async function firstPassRecords(
  batches: AsyncIterable<readonly LogRecord[]>,
  wants: FirstPassWants,
): Promise<FirstPass> {
  const clicks = wants.clicks ? new ClickUsers() : undefined;
  const events = wants.events ? new QueryEvents() : undefined;
  const cursor = new EventCursor();
  for await (const batch of batches) {
    clicks?.add(batch);
    if (events !== undefined)
      for (const r of batch) addEvent(r.user, r.query, r.time, r.clickUrl, cursor, events);
  }
  return { clicks, events };
}

/** A row for the log context: a new query event unless it continues the last, and its click. */
function addEvent(
  user: string,
  query: string,
  time: number,
  clickUrl: string | undefined,
  cursor: EventCursor,
  events: QueryEvents,
): void {
  if (cursor.next(user, query, time) !== undefined) events.add(user, query, time);
  if (clickUrl) events.click(query, clickUrl);
}

/** `classifier.assess` of each of `texts` (for the log context: each distinct query of a log), in order. */
export function assessAll(
  classifier: Classifier,
  texts: readonly string[],
  progress: Progress = silentProgress,
): Assessment[] {
  const out: Assessment[] = new Array(texts.length);
  progress.start(ASSESSING, texts.length);
  for (let q = 0; q < texts.length; q++) {
    out[q] = classifier.assess(texts[q]!);
    if ((q & 1023) === 1023) progress.tick(1024);
  }
  progress.stop();
  return out;
}

/** The progress line of assessing a log's distinct queries. */
export const ASSESSING = "classify (each distinct query, for the log context)";

/**
 * Every distinct query of `events`, assessed once, its learned-layer branch reconsidered in the light of the rest
 * of its log (./log-context.ts); the answers by query text, to classify the log with (`classify` of the returned
 * object: a text the first pass did not see is classified alone), and how many distinct queries and query events
 * the context moved to another branch.
 */
export function withLogContext(
  classifier: Classifier,
  events: QueryEvents,
  settings: LogContextSettings,
  /** `classifier.assess` of each of `events.texts` ({@link assessAll}, or on threads `assessOnThreads`). */
  assessed: readonly Assessment[],
): { classify(query: string): Classification; queriesChanged: number; eventsChanged: number } {
  const { texts } = events;
  const probs = assessed.map((a) => a.probs);
  const answers = new Map<string, Classification>();
  for (let q = 0; q < texts.length; q++) answers.set(texts[q]!, assessed[q]!.classification);
  const branch = contextBranches(events, probs, classifier.branches.length, settings);
  const moved = new Uint8Array(texts.length);
  let queriesChanged = 0;
  for (let q = 0; q < texts.length; q++) {
    const p = probs[q];
    const a = assessed[q]!;
    if (a.ruled || branch[q]! < 0 || (p !== undefined && branch[q] === argmax(p))) continue;
    // A query the layer cannot score takes its context's branch, unless nothing of its text is left to classify.
    if (p === undefined && (hasNoText(texts[q]!) || a.classification.scrubbed.trim() === "")) continue;
    answers.set(texts[q]!, classifier.classifyInBranch(texts[q]!, branch[q]!));
    moved[q] = 1;
    queriesChanged++;
  }
  let eventsChanged = 0;
  for (let e = 0; e < events.n; e++) eventsChanged += moved[events.query[e]!]!;
  return {
    classify: (query) => answers.get(query) ?? classifier.classify(query),
    queriesChanged,
    eventsChanged,
  };
}
