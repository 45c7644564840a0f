/**
 * A block of raw rows (./rows.ts reads them): the streaming paths' view of an AOL log, as columns over the bytes
 * that were read, and the helpers that read text and records out of those bytes.
 */
import { grown } from "../util/arrays.ts";
import { aolCodec } from "./formats/aol.ts";
import type { LogRecord } from "./record.ts";

const NO_BYTES = Buffer.alloc(0);

/** Node's own decoders of a buffer range (what `toString(encoding, start, end)` calls after checking its arguments). */
export interface Slicing {
  latin1Slice(start: number, end: number): string;
  utf8Slice(start: number, end: number): string;
}

/** The UTF-8 text of `b[start, end)`. */
export function textOf(b: Uint8Array, start: number, end: number): string {
  return (b as unknown as Slicing).utf8Slice(start, end);
}

/** Whether `a[as, ae)` and `b[bs, be)` hold the same bytes. */
export function sameBytes(
  a: Uint8Array,
  as: number,
  ae: number,
  b: Uint8Array,
  bs: number,
  be: number,
): boolean {
  if (ae - as !== be - bs) return false;
  for (let i = as, j = bs; i < ae; i++, j++) if (a[i] !== b[j]) return false;
  return true;
}

/**
 * The rows of one block of a log, as columns: row i (0 ≤ i < n) is either the line `bytes[start[i], end[i])`
 * (no newline, no trailing carriage return), whose query is `bytes(tab1[i], tab2[i])`, whose time field ends
 * at `tab3[i]` and whose ClickURL is `bytes(tab4[i], urlEnd[i])`, or — when `rec[i]` is set — a record the codec
 * parsed.
 */
export class RowBlock {
  bytes: Buffer = NO_BYTES;
  n = 0;
  file = "";
  start = new Int32Array(1024);
  /** The tab after the user, the tab after the query, the tab after the time. */
  tab1 = new Int32Array(1024);
  tab2 = new Int32Array(1024);
  tab3 = new Int32Array(1024);
  /** The tab before the ClickURL, and the ClickURL's end (the line's end, or the tab before the Category). */
  tab4 = new Int32Array(1024);
  urlEnd = new Int32Array(1024);
  end = new Int32Array(1024);
  /** The row's line number in its file. */
  line = new Int32Array(1024);
  time = new Float64Array(1024);
  /** Interned by the reader: rows of one user share one string. */
  readonly user: string[] = [];
  /** The category column of a classified log (undefined otherwise), interned like the user. */
  readonly category: (string | undefined)[] = [];
  /** The parsed record of a line the fast path left to the codec (undefined for a line kept as bytes). */
  readonly rec: (LogRecord | undefined)[] = [];

  /**
   * Whether rows i - 1 and i were both kept as bytes and hold the same query bytes (in AOL, a click row of the
   * event the row before opened, when user and time match too): a consumer may reuse what it made of that query.
   */
  sameQueryAsBefore(i: number): boolean {
    const j = i - 1;
    return (
      j >= 0 &&
      this.rec[i] === undefined &&
      this.rec[j] === undefined &&
      sameBytes(this.bytes, this.tab1[j]! + 1, this.tab2[j]!, this.bytes, this.tab1[i]! + 1, this.tab2[i]!)
    );
  }

  /**
   * Whether row i was kept as bytes in the `classified` layout (with the classifier's columns or without): its
   * bytes can be copied into an output of that layout; otherwise the codec prints its record.
   */
  bytesIn(i: number, classified: boolean): boolean {
    return this.rec[i] === undefined && (this.category[i] !== undefined) === classified;
  }

  /** Row i's query text (decoded from its bytes: for the rare comparisons of text with a record's). */
  query(i: number): string {
    const rec = this.rec[i];
    return rec !== undefined ? rec.query : textOf(this.bytes, this.tab1[i]! + 1, this.tab2[i]!);
  }

  /** Row i's ClickURL (a line's; empty when it has none). */
  urlText(i: number): string {
    const rec = this.rec[i];
    return rec !== undefined ? (rec.clickUrl ?? "") : textOf(this.bytes, this.tab4[i]! + 1, this.urlEnd[i]!);
  }

  /** Row i as a record (what the codec reads from its line). */
  record(i: number): LogRecord {
    const rec = this.rec[i];
    if (rec !== undefined) return rec;
    return lineRecord(this.bytes, this.start[i]!, this.end[i]!, this.category[i] !== undefined);
  }

  /** A copy with bytes and columns of its own (valid after the reader has moved on), trimmed to its rows. */
  copy(): RowBlock {
    const c = new RowBlock();
    const n = this.n;
    c.bytes = Buffer.from(this.bytes);
    c.n = n;
    c.file = this.file;
    c.start = this.start.slice(0, n);
    c.tab1 = this.tab1.slice(0, n);
    c.tab2 = this.tab2.slice(0, n);
    c.tab3 = this.tab3.slice(0, n);
    c.tab4 = this.tab4.slice(0, n);
    c.urlEnd = this.urlEnd.slice(0, n);
    c.end = this.end.slice(0, n);
    c.line = this.line.slice(0, n);
    c.time = this.time.slice(0, n);
    for (let i = 0; i < n; i++) {
      c.user[i] = this.user[i]!;
      c.category[i] = this.category[i];
      c.rec[i] = this.rec[i];
    }
    return c;
  }

  /** Start the block over. */
  reset(bytes: Buffer, file: string): void {
    this.bytes = bytes;
    this.file = file;
    this.n = 0;
  }

  /** Room for one more row; returns its index. */
  next(): number {
    const i = this.n;
    if (i === this.start.length) this.grow();
    return i;
  }

  private grow(): void {
    const n = this.start.length * 2;
    const more = (a: Int32Array) => grown(a, n);
    this.start = more(this.start);
    this.tab1 = more(this.tab1);
    this.tab2 = more(this.tab2);
    this.tab3 = more(this.tab3);
    this.tab4 = more(this.tab4);
    this.urlEnd = more(this.urlEnd);
    this.end = more(this.end);
    this.line = more(this.line);
    const time = new Float64Array(n);
    time.set(this.time);
    this.time = time;
  }

  /** Append a row the codec parsed. */
  pushRecord(rec: LogRecord, line: number): void {
    const i = this.next();
    this.start[i] = 0;
    this.end[i] = 0;
    this.line[i] = line;
    this.time[i] = rec.time;
    this.user[i] = rec.user;
    this.category[i] = rec.category;
    this.rec[i] = rec;
    this.n = i + 1;
  }
}

/** The record of an AOL line the fast path read (`classified` when it has 7 fields). */
export function lineRecord(b: Uint8Array, start: number, end: number, classified: boolean): LogRecord {
  const rec = aolCodec.parse(textOf(b, start, end), classified);
  if (typeof rec === "string") throw new Error(`a line the raw reader accepted does not parse: ${rec}`);
  return rec;
}
