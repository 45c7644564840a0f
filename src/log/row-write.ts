/**
 * Writes raw rows (./rows.ts) back as AOL lines, atomically: the bytes a method does not change are copied from
 * the rows, and only the fields it rewrites are encoded — a released row is its new user, the bytes from the tab
 * before its query to the tab after it, its new time, and the bytes from the tab after the old time to the end
 * (ItemRank, ClickURL, and the classifier's columns). A row the reader left to the codec is printed by the codec.
 * The bytes are those {@link createLogWriter} writes for the same records, and its errors are the same.
 */
import { UsageError } from "../util/errors.ts";
import { AtomicTextFile } from "./atomic.ts";
import { aolCodec } from "./formats/aol.ts";
import { UnwritableRecord } from "./formats/codec.ts";
import { BLOCK_BYTES } from "./lines.ts";
import type { LogRecord } from "./record.ts";
import type { RowBlock } from "./row-block.ts";
import { writeAolTime } from "./time.ts";

export interface RowWriter {
  /** Write every row of `rows` as read. */
  copyAll(rows: RowBlock): void;
  /**
   * Write the `rows` AOL lines `bytes[start, end)` of one event (lines the fast path read, joined by newlines; an
   * event's lines share user, query and time, so their fields sit at the same offsets), whose first line's query
   * is `bytes(queryStart - 1, queryEnd)`, released under `user` at `time`; their other fields as read.
   */
  releaseLines(
    bytes: Uint8Array,
    start: number,
    end: number,
    rows: number,
    queryStart: number,
    queryEnd: number,
    user: string,
    time: number,
  ): void;
  /** Write a record the codec read, released under `user` at `time`. */
  releaseRecord(rec: LogRecord, user: string, time: number): void;
  /**
   * Write row i of `rows` classified (`classify`): its query replaced by `query`, its click (ItemRank and ClickURL)
   * kept or `dropClick`ed, and `category` and `unit` as its last two fields (in place of a classified log's own).
   */
  classifiedRow(
    rows: RowBlock,
    i: number,
    query: string,
    dropClick: boolean,
    category: string,
    unit: string,
  ): void;
  /**
   * Write row i of `rows` in its own layout (`scrub`): its query replaced by `query` (undefined: kept), its click
   * (ItemRank and ClickURL) kept or `dropClick`ed, every other field as read.
   */
  editedRow(rows: RowBlock, i: number, query: string | undefined, dropClick: boolean): void;
  /** Write a record as the codec prints it. */
  record(rec: LogRecord): void;
  /** The file is behind: await this (when it is a promise) before reading more. */
  backlog(): undefined | Promise<void>;
  /** Flush and move the file into place. */
  close(): Promise<void>;
  /** Discard everything written; the target is left untouched. */
  abort(): Promise<void>;
  /** Rows written so far. */
  readonly count: number;
  /**
   * A buffer for the reader (`readRows`' `buffer`, ./rows.ts), in the same memory as the writer's stage, so that the
   * bytes of released rows still in the reader's block are copied by `copyWithin` (no view, no loop).
   */
  readonly readBuffer: Buffer;
}

/**
 * Copy `from[start, end)` into `to` at `at`; returns the end. A loop: the fields are short, and `Buffer.copy`
 * makes a typed-array view per call (it was ~10% of a swap run's CPU).
 */
export function copyBytes(from: Uint8Array, start: number, end: number, to: Uint8Array, at: number): number {
  for (let i = start; i < end; i++) to[at++] = from[i]!;
  return at;
}

/** Bytes staged before they go to the file: room for two lines of the longest a reader accepts, and more. */
const STAGE_BYTES = 1 << 18;
/**
 * Spans at least this long (identity's runs of rows) are copied by `Buffer.copy`, shorter ones by a loop:
 * `Buffer.copy` makes a typed-array view of the source per call, which costs more than a loop over a line.
 */
const NATIVE_COPY = 1024;
/** Ranges at least this long are copied within the shared memory by `copyWithin` (a native call, no view). */
const SHARED_COPY = 16;

/**
 * Encode a field's `text` (a user id, a query, a category) into `to` at `at` as UTF-8; returns the end, or -1 if it
 * holds a character a TSV field cannot (then the codec names it). ASCII by a loop: `Buffer.write` is a native call
 * per field.
 */
function putField(text: string, to: Buffer, at: number): number {
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c > 127) {
      for (let j = i; j < n; j++) {
        const d = text.charCodeAt(j);
        if (d === 9 || d === 10 || d === 13 || d === 0) return -1;
      }
      return at - i + to.write(text, at - i);
    }
    if (c === 9 || c === 10 || c === 13 || c === 0) return -1;
    to[at++] = c;
  }
  return at;
}

/** Run `write` (which writes through `out`), then move the file into place; on an error, discard it and rethrow. */
export async function writeThrough(out: RowWriter, write: () => Promise<void> | void): Promise<void> {
  try {
    await write();
    await out.close();
  } catch (e) {
    await out.abort();
    throw e;
  }
}

/**
 * Where the classifier's two columns of the line `b[from, nl)` start: its second tab from the end (the line has
 * them: the raw reader kept it as a classified row).
 */
function columnsAt(b: Uint8Array, from: number, nl: number): number {
  let tabs = 0;
  for (let i = nl - 1; i >= from; i--) if (b[i] === 9 && ++tabs === 2) return i;
  throw new Error("a classified row without the classifier's columns");
}

export interface RowWriterOptions {
  /**
   * The rows released by `releaseLines` carry the classifier's columns and the output (not `classified`) does not:
   * they are cut (swap on a log it classified on the way, written in the input's layout). Only `releaseLines` and
   * `releaseRecord` may be used.
   */
  readonly dropColumns?: boolean;
}

/** Open an atomic writer of raw rows as an AOL log (with the classifier's columns when `classified`). */
export function createRowWriter(path: string, classified: boolean, opts: RowWriterOptions = {}): RowWriter {
  const dropColumns = opts.dropColumns === true;
  if (dropColumns && classified) throw new Error("dropColumns: the output has the classifier's columns");
  const file = new AtomicTextFile(path);
  file.write(`${aolCodec.header(classified)}\n`);
  // The reader's block, then the stage: one memory, so that `copyWithin` copies from one to the other.
  const memory = Buffer.allocUnsafeSlow(BLOCK_BYTES + STAGE_BYTES);
  const readBuffer = memory.subarray(0, BLOCK_BYTES);
  const stage = memory.subarray(BLOCK_BYTES);
  const shared = memory.buffer;
  /** `b[start, end)` into the stage at `at`; returns the end. */
  const put = (b: Uint8Array, start: number, end: number, at: number): number => {
    if (end - start < SHARED_COPY || b.buffer !== shared) return copyBytes(b, start, end, stage, at);
    memory.copyWithin(BLOCK_BYTES + at, b.byteOffset + start, b.byteOffset + end);
    return at + end - start;
  };
  let used = 0;
  let count = 0;
  let behind: Promise<void> | undefined;
  /** The text of the last release time written. */
  const timeText = new Uint8Array(32);
  let timeLength = 0;
  let timeOf = Number.NaN;
  const flush = () => {
    if (used === 0) return;
    const p = file.write(stage.subarray(0, used));
    used = 0;
    if (p) behind = p;
  };
  /** Room for `n` more bytes in the stage. */
  const room = (n: number) => {
    if (used + n > STAGE_BYTES) flush();
  };
  /** `b[start, end)` and a newline, as they are (a span of whole lines may be longer than the stage). */
  const putLines = (b: Uint8Array, start: number, end: number) => {
    while (end - start + 1 > STAGE_BYTES - used) {
      if (used > 0) flush();
      else {
        const cut = start + STAGE_BYTES - 1;
        used = (b as Buffer).copy(stage, 0, start, cut);
        start = cut;
        flush();
      }
    }
    used =
      end - start < NATIVE_COPY
        ? copyBytes(b, start, end, stage, used)
        : used + (b as Buffer).copy(stage, used, start, end);
    stage[used++] = 10;
  };
  /** A record through the codec, as the record writer prints it. */
  const viaCodec = (rec: LogRecord, where: string) => {
    let line: string;
    try {
      line = aolCodec.toLine(rec, classified);
    } catch (e) {
      if (e instanceof UnwritableRecord) {
        throw new UsageError(`${path}: record ${count + 1}${where} cannot be written as aol: ${e.message}`);
      }
      throw e;
    }
    room(line.length * 3 + 1);
    used += stage.write(line, used);
    stage[used++] = 10;
  };
  return {
    copyAll(rows) {
      if (dropColumns) throw new Error("dropColumns: only releaseLines and releaseRecord");
      const { bytes, start, end, rec } = rows;
      // Rows that follow each other in the block, newline to newline, are copied as one span.
      for (let i = 0; i < rows.n; ) {
        const r = rec[i];
        if (r !== undefined) {
          viaCodec(r, ` (from ${rows.file}:${rows.line[i]})`);
          count++;
          i++;
          continue;
        }
        let j = i + 1;
        while (j < rows.n && rec[j] === undefined && start[j] === end[j - 1]! + 1) j++;
        putLines(bytes, start[i]!, end[j - 1]!);
        count += j - i;
        i = j;
      }
    },
    releaseLines(b, start, end, rows, queryStart, queryEnd, user, time) {
      // Offsets in a line of the tab after the user and of the tab after the query.
      const tab1 = queryStart - 1 - start;
      const tab2 = queryEnd - start;
      if (time !== timeOf) {
        timeLength = writeAolTime(time, timeText, 0);
        timeOf = time;
      }
      for (let line = start; rows > 0; rows--) {
        const t1 = line + tab1;
        const t2 = line + tab2;
        const t3 = t2 + 20;
        const nl = rows === 1 ? end : (b as Buffer).indexOf(10, t3);
        const lineEnd = dropColumns ? columnsAt(b, t3, nl) : nl;
        room(user.length * 3 + (t2 - t1) + timeLength + (lineEnd - t3) + 2);
        let at = putField(user, stage, used);
        // A user id with a line break: the codec names what cannot be written.
        if (at < 0) viaCodec({ user, query: "", time }, "");
        if (timeLength === t3 - t2 - 1) {
          // The new time as long as the old (always, but for years past 9999): the line from the tab after the user
          // copied in one piece, then the time written over the old one.
          used = put(b, t1, lineEnd, at);
          at += t2 + 1 - t1;
          for (let i = 0; i < timeLength; i++) stage[at++] = timeText[i]!;
        } else {
          at = put(b, t1, t2 + 1, at);
          for (let i = 0; i < timeLength; i++) stage[at++] = timeText[i]!;
          used = put(b, t3, lineEnd, at);
        }
        stage[used++] = 10;
        count++;
        line = nl + 1;
      }
    },
    releaseRecord(rec, user, time) {
      viaCodec({ ...rec, user, time }, "");
      count++;
    },
    classifiedRow(rows, i, query, dropClick, category, unit) {
      if (dropColumns) throw new Error("dropColumns: only releaseLines and releaseRecord");
      const b = rows.bytes;
      const start = rows.start[i]!;
      const t1 = rows.tab1[i]!;
      const t3 = rows.tab3[i]!;
      const clickEnd = dropClick ? t3 : rows.urlEnd[i]!;
      room(3 * (query.length + category.length + unit.length) + (t1 - start) + (clickEnd - t1) + 24);
      // The user and its tab; the query; the time, its tab and the click (or two empty fields).
      let at = put(b, start, t1 + 1, used);
      at = putField(query, stage, at);
      if (at >= 0) {
        at = put(b, rows.tab2[i]!, clickEnd, at);
        if (dropClick) {
          stage[at++] = 9;
          stage[at++] = 9;
        }
        stage[at++] = 9;
        at = putField(category, stage, at);
      }
      if (at >= 0) {
        stage[at++] = 9;
        at = putField(unit, stage, at);
      }
      if (at < 0) {
        // A character a field cannot hold: the codec names it.
        const { clickUrl, itemRank, ...rec } = rows.record(i);
        const click = dropClick ? {} : { clickUrl, itemRank };
        viaCodec({ ...rec, ...click, query, category, unit }, ` (from ${rows.file}:${rows.line[i]})`);
      } else {
        stage[at++] = 10;
        used = at;
      }
      count++;
    },
    editedRow(rows, i, query, dropClick) {
      if (dropColumns) throw new Error("dropColumns: only releaseLines and releaseRecord");
      const b = rows.bytes;
      const start = rows.start[i]!;
      const t1 = rows.tab1[i]!;
      const t2 = rows.tab2[i]!;
      const end = rows.end[i]!;
      room(3 * (query?.length ?? 0) + (end - start) + 4);
      // The user and its tab; the query; the time and its tab; the click (or two empty fields); the rest.
      let at = put(b, start, t1 + 1, used);
      at = query === undefined ? put(b, t1 + 1, t2, at) : putField(query, stage, at);
      if (at < 0) {
        // A character a field cannot hold: the codec names it.
        const { clickUrl, itemRank, ...rec } = rows.record(i);
        const click = dropClick ? {} : { clickUrl, itemRank };
        viaCodec({ ...rec, ...click, query: query ?? rec.query }, ` (from ${rows.file}:${rows.line[i]})`);
      } else {
        if (dropClick) {
          at = put(b, t2, rows.tab3[i]!, at);
          stage[at++] = 9;
          stage[at++] = 9;
          at = put(b, rows.urlEnd[i]!, end, at);
        } else at = put(b, t2, end, at);
        stage[at++] = 10;
        used = at;
      }
      count++;
    },
    record(rec) {
      viaCodec(rec, "");
      count++;
    },
    backlog() {
      const p = behind;
      behind = undefined;
      return p;
    },
    async close() {
      flush();
      if (behind) await behind;
      await file.commit();
    },
    abort: () => {
      used = 0;
      return file.abort();
    },
    get count() {
      return count;
    },
    readBuffer,
  };
}
