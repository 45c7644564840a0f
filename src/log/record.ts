/**
 * The query-log data model shared by every part of querymask.
 *
 * A {@link LogRecord} is one line of a log. In the AOL layout a query that led to clicks appears once per click
 * (the query repeated on each click row) and a request for the next page of results appears as the same query
 * again with a later time. Methods and metrics count *query events*, not rows: see `events.ts`.
 */

/** Where a record came from, for error messages and reject files. */
export interface SourcePos {
  readonly file: string;
  /** 1-based line number in `file`. */
  readonly line: number;
}

export interface LogRecord {
  /** The user (AOL AnonID, Excite user hash). Kept as text: ids are opaque. */
  user: string;
  /** The query text as logged (AOL: lower-cased, most punctuation removed). May be empty (Excite next page). */
  query: string;
  /** Query time in seconds since 1970-01-01 00:00:00, read as UTC (logs carry no zone; none is implied). */
  time: number;
  /** Rank of the clicked result, when the row is a click and the log has ranks. */
  itemRank?: number;
  /** Clicked URL (AOL: the domain part), when the row is a click. */
  clickUrl?: string;
  /** ODP category path assigned by the classifier, e.g. `Top/Sports/Soccer`; "" = unclassified. */
  category?: string;
  /** The classifier's main semantic unit of the query. */
  unit?: string;
  /** Where the record was read from; absent for generated or synthetic records. */
  source?: SourcePos;
}

/** The on-disk layouts querymask reads and writes. */
export type LogFormat = "aol" | "excite" | "ndjson";

export const LOG_FORMATS: readonly LogFormat[] = ["aol", "excite", "ndjson"];

/** A whole log held in memory, for the batch methods. Streaming code uses `AsyncIterable<LogRecord[]>`. */
export interface QueryLog {
  readonly records: LogRecord[];
  /** The format it was read in; a released log is written back in the same format. */
  readonly format: LogFormat;
  /** True when the input carried classifier columns (category, unit). */
  readonly classified?: boolean;
}
