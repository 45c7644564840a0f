/**
 * Raw rows: the streaming methods' view of an AOL log, a block at a time, as columns over the bytes that were
 * read. For each line the reader keeps only what a method reads — the user and category (interned strings: the
 * rows of one user share one), the time in seconds, and the byte offsets of the fields — so that the release is
 * written by copying the bytes a method does not change (./row-write.ts) instead of parsing every field into a
 * {@link LogRecord} and printing it back. No object and no string is made per row.
 *
 * Each block's lines, tabs and field hashes come from the WebAssembly line scanner (./line-scan.ts).
 *
 * A {@link RowBlock} (./row-block.ts) is the reader's: its bytes are the reader's one buffer and its columns are reused, so it is
 * valid only until the next block is asked for. A consumer that keeps a row past its block copies its bytes.
 *
 * Only lines the fast path is sure of are kept as bytes: exactly 5 (7 when classified) fields, a time written as
 * `YYYY-MM-DD HH:MM:SS`, an ItemRank without leading zeros, no control character but the tabs (a carriage
 * return only at the end) — the lines whose bytes are the bytes the codec would print for them (the block is
 * valid UTF-8, so any text reads back as it was written). Every other line (3 fields, a `T` in the time, a bad
 * line…) is parsed by the codec as before and carried as its record ({@link RowBlock.rec}); so errors,
 * `--lenient` and the written output are exactly those of the record path.
 */

import { isAscii, isUtf8 } from "node:buffer";
import { InputError } from "../util/errors.ts";
import type { Progress } from "../util/progress.ts";
import { aolCodec } from "./formats/aol.ts";
import {
  END,
  FIRST_HASH,
  LAST_OTHER,
  lineScanner,
  OTHERS,
  RECORD,
  SIXTH_HASH,
  START,
  TAB,
  TABS,
} from "./line-scan.ts";
import { decodeBlock, MAX_LINE_BYTES, rawText, readByteBlocks } from "./lines.ts";
import type { RejectSink } from "./rejects.ts";
import { RowBlock, type Slicing, textOf } from "./row-block.ts";
import { parseAolTimeBytes } from "./time.ts";

const CR = 13;

/** At most this many strings are interned per table; past it the table starts over (memory stays bounded). */
const INTERNED_MAX = 1 << 16;

/**
 * Field texts interned by a hash of their bytes, checked in place, so that a row's user and category cost no
 * string when they were seen before. Interning is only a saving: equal strings compare equal either way.
 */
class Interned {
  private readonly table = new Map<number, string>();

  /**
   * The text of `b[from, to)`, the same string as the last time these bytes were seen; `h` is their hash (the
   * line scanner's, ./line-scan.ts).
   */
  get(b: Uint8Array, from: number, to: number, h: number): string {
    const known = this.table.get(h);
    if (known !== undefined && known.length === to - from) {
      let i = 0;
      for (; i < known.length; i++) if (known.charCodeAt(i) !== b[from + i]) break;
      if (i === known.length) return known;
    }
    // New, a collision, or not ASCII (then the string is shorter than its bytes and never matches).
    const text = textOf(b, from, to);
    if (this.table.size >= INTERNED_MAX) this.table.clear();
    this.table.set(h, text);
    return text;
  }
}

/**
 * Whether `b[from, to)` is an ItemRank the codec prints back the same: empty, or 1–9 digits without a leading
 * zero.
 */
function canonicalRank(b: Uint8Array, from: number, to: number): boolean {
  const n = to - from;
  if (n === 0) return true;
  if (n > 9 || (n > 1 && b[from] === 48)) return false;
  for (let i = from; i < to; i++) {
    const c = b[i]! - 48;
    if (c < 0 || c > 9) return false;
  }
  return true;
}

/** One file's rows: the line rules of the record reader (header, blank lines, bad lines), on bytes. */
class FileRows {
  classified = false;
  private readonly users = new Interned();
  private readonly categories = new Interned();
  lines = 0;
  // Empty lines are held back: at the end of the file they are a harmless end, before a record they are bad.
  private blankFrom = 0;
  private blanks = 0;

  constructor(
    readonly file: string,
    /** Report a bad line (throws in strict mode). */
    readonly badLine: (line: number, reason: string, raw: string) => void,
  ) {}

  /** A line the fast path leaves to the codec (as the record reader reads it). */
  slow(text: string, lineNo: number, out: RowBlock): void {
    if (lineNo === 1) {
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      const header = aolCodec.readHeader(text);
      if (header) {
        this.classified = header.classified;
        return;
      }
    }
    if (text === "") {
      if (this.blanks++ === 0) this.blankFrom = lineNo;
      return;
    }
    for (; this.blanks > 0; this.blanks--) this.badLine(this.blankFrom++, "empty line", "");
    const rec = aolCodec.parse(text, this.classified);
    if (typeof rec === "string") this.badLine(lineNo, rec, text);
    else out.pushRecord(rec, lineNo);
  }

  /** The rows of a block of valid UTF-8 without NUL bytes; returns its number of lines. */
  scan(b: Buffer, ascii: boolean, firstLine: number, out: RowBlock): number {
    const size = b.length;
    const scanner = lineScanner();
    scanner.load(b);
    const r = scanner.records;
    const decode = b as unknown as Slicing;
    let lineNo = firstLine;
    for (let pos = 0; pos <= size; pos = scanner.next) {
      const n = scanner.lines(pos);
      for (let q = 0; q < n * RECORD; q += RECORD, lineNo++) {
        const start = r[q + START]!;
        const nl = r[q + END]!;
        const others = r[q + OTHERS]!;
        this.lines++;
        const end = nl > start && b[nl - 1] === CR ? nl - 1 : nl;
        if (nl - start > MAX_LINE_BYTES) {
          this.badLine(lineNo, `line longer than ${MAX_LINE_BYTES} bytes`, rawText(b.subarray(start, nl)));
        } else if (
          lineNo === 1 ||
          this.blanks > 0 ||
          end === start ||
          (others > 0 && (others > 1 || r[q + LAST_OTHER] !== end)) ||
          r[q + TABS] !== (this.classified ? 6 : 4) ||
          !this.fast(b, r, q, start, end, lineNo, out)
        ) {
          this.slow(ascii ? decode.latin1Slice(start, end) : decode.utf8Slice(start, end), lineNo, out);
        }
      }
    }
    return lineNo - firstLine;
  }

  /**
   * The row of the line `b[start, end)` (its scanner record at `r[q]`, with as many tabs as its fields need) if
   * it is one the fast path is sure of (see the top of this file); false to leave it to the codec.
   */
  private fast(
    b: Buffer,
    r: Int32Array,
    q: number,
    start: number,
    end: number,
    lineNo: number,
    out: RowBlock,
  ): boolean {
    const t1 = r[q + TAB]!;
    const t2 = r[q + TAB + 1]!;
    const t3 = r[q + TAB + 2]!;
    const t4 = r[q + TAB + 3]!;
    if (t1 === start || t3 - t2 !== 20) return false; // an empty user, or not a 19-byte time
    const urlEnd = this.classified ? r[q + TAB + 4]! : end;
    // A rank with leading zeros, a rank without a URL: the codec's.
    if (!canonicalRank(b, t3 + 1, t4) || (t4 > t3 + 1 && urlEnd === t4 + 1)) return false;
    const time = parseAolTimeBytes(b, t2 + 1);
    if (Number.isNaN(time)) return false;
    const i = out.next();
    out.start[i] = start;
    out.tab1[i] = t1;
    out.tab2[i] = t2;
    out.tab3[i] = t3;
    out.tab4[i] = t4;
    out.urlEnd[i] = urlEnd;
    out.end[i] = end;
    out.line[i] = lineNo;
    out.time[i] = time;
    out.user[i] = this.users.get(b, start, t1, r[q + FIRST_HASH]!);
    out.category[i] = this.classified
      ? this.categories.get(b, urlEnd + 1, r[q + TAB + 5]!, r[q + SIXTH_HASH]!)
      : undefined;
    out.rec[i] = undefined;
    out.n = i + 1;
    return true;
  }
}

/**
 * Stream the rows of AOL logs, one {@link RowBlock} per block of the file (the same object each time, valid until
 * the next is asked for); `classified` as the header says.
 */
export async function* readRows(
  files: readonly string[],
  lenient: boolean,
  rejects: RejectSink,
  progress?: Progress,
  /** The buffer to read into (the row writer's `readBuffer`, ./row-write.ts); one of its own otherwise. */
  buffer?: Buffer,
): AsyncGenerator<RowBlock> {
  const out = new RowBlock();
  for (const file of files) {
    const reader = new FileRows(file, (line, reason, raw) => {
      if (!lenient) throw new InputError(file, line, reason);
      rejects.add({ file, line, reason, raw });
    });
    for await (const block of readByteBlocks(file, reader.badLine, buffer)) {
      const b = block.bytes;
      out.reset(b, file);
      const ascii = isAscii(b);
      if (b.indexOf(0) >= 0 || !(ascii || isUtf8(b))) {
        // NUL bytes or invalid UTF-8 somewhere in the block: the line reader finds and reports the culprits.
        const texts = decodeBlock(b, block.firstLine, reader.badLine);
        block.lines = texts.length;
        for (let i = 0; i < texts.length; i++) {
          reader.lines++;
          const text = texts[i];
          if (text !== undefined) reader.slow(text, block.firstLine + i, out);
        }
      } else {
        block.lines = reader.scan(b, ascii, block.firstLine, out);
      }
      if (out.n > 0) {
        progress?.tick(out.n);
        yield out;
      }
      // Back-pressure from the reject file (lenient runs with millions of bad lines).
      const behind = rejects.backlog();
      if (behind) await behind;
    }
    if (reader.lines === 0) reader.badLine(0, "empty file", "");
  }
}
