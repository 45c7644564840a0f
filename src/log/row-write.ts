/**
 * Writes raw rows (./rows.ts) back as AOL lines, atomically: the bytes a method does not change are copied from
 * the row, and only the fields it rewrites are encoded — a released row is its new user, the bytes from the tab
 * before its query to the tab after it, its new time, and the bytes from the tab after the old time to the end
 * (ItemRank, ClickURL, and the classifier's columns). A row the reader left to the codec is printed by the codec.
 * The bytes are those {@link createLogWriter} writes for the same records, and its errors are the same.
 */
import { UsageError } from "../util/errors.ts";
import { AtomicTextFile } from "./atomic.ts";
import { aolCodec } from "./formats/aol.ts";
import { UnwritableRecord } from "./formats/codec.ts";
import type { LogRecord } from "./record.ts";
import type { RawRow } from "./rows.ts";
import { writeAolTime } from "./time.ts";

export interface RowWriter {
  /** Write `row` released under `user` at `time`; its other fields as read. */
  release(row: RawRow, user: string, time: number): void;
  /** Write `row` as read. */
  copy(row: RawRow): void;
  /** The file is behind: await this (when it is a promise) before reading more. */
  backlog(): undefined | Promise<void>;
  /** Flush and move the file into place. */
  close(): Promise<void>;
  /** Discard everything written; the target is left untouched. */
  abort(): Promise<void>;
  /** Rows written so far. */
  readonly count: number;
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
/** A character a TSV field cannot hold. */
const NOT_IN_FIELD = /[\t\n\r\0]/;

/**
 * Encode `text` into `to` at `at` as UTF-8; returns the end. ASCII (user ids, times) by a loop: `Buffer.write`
 * is a native call per field.
 */
function putText(text: string, to: Buffer, at: number): number {
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c > 127) return at - i + to.write(text, at - i);
    to[at++] = c;
  }
  return at;
}

/** Open an atomic writer of raw rows as an AOL log (with the classifier's columns when `classified`). */
export function createRowWriter(path: string, classified: boolean): RowWriter {
  const file = new AtomicTextFile(path);
  file.write(`${aolCodec.header(classified)}\n`);
  const stage = Buffer.allocUnsafeSlow(STAGE_BYTES);
  let used = 0;
  let count = 0;
  let behind: Promise<void> | undefined;
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
    release(row, user, time) {
      if (row.rec !== undefined || NOT_IN_FIELD.test(user)) {
        // The codec prints it, or names what cannot be written (a user id with a line break).
        viaCodec({ ...(row.rec ?? { query: row.query, time: row.time }), user, time }, "");
      } else {
        const b = row.bytes;
        room(user.length * 3 + (row.tab2 - row.tab1) + 20 + (row.end - row.tab3) + 1);
        used = putText(user, stage, used);
        used = copyBytes(b, row.tab1, row.tab2 + 1, stage, used);
        used = writeAolTime(time, stage, used);
        used = copyBytes(b, row.tab3, row.end, stage, used);
        stage[used++] = 10;
      }
      count++;
    },
    copy(row) {
      if (row.rec !== undefined) viaCodec(row.rec, ` (from ${row.file}:${row.line})`);
      else {
        room(row.end - row.start + 1);
        used = copyBytes(row.bytes, row.start, row.end, stage, used);
        stage[used++] = 10;
      }
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
  };
}
