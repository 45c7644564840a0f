/**
 * Raw rows: the streaming methods' view of an AOL log, a block at a time, as columns over the bytes that were
 * read. For each line the reader keeps only what a method reads — the user and category (interned strings: the
 * rows of one user share one), the time in seconds, and the byte offsets of the fields — so that the release is
 * written by copying the bytes a method does not change (./row-write.ts) instead of parsing every field into a
 * {@link LogRecord} and printing it back. No object and no string is made per row.
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
import { decodeBlock, MAX_LINE_BYTES, rawText, readByteBlocks } from "./lines.ts";
import type { RejectSink } from "./rejects.ts";
import { RowBlock, type Slicing, textOf } from "./row-block.ts";
import { parseAolTimeBytes } from "./time.ts";

const NL = 10;
const TAB = 9;
const CR = 13;

/** At most this many strings are interned per table; past it the table starts over (memory stays bounded). */
const INTERNED_MAX = 1 << 16;

/**
 * Field texts interned by a hash of their bytes, checked in place, so that a row's user and category cost no
 * string when they were seen before. Interning is only a saving: equal strings compare equal either way.
 */
class Interned {
  private readonly table = new Map<number, string>();

  /** The text of `b[from, to)`, the same string as the last time these bytes were seen. */
  get(b: Uint8Array, from: number, to: number): string {
    let h = to - from;
    for (let i = from; i < to; i++) h = (Math.imul(h, 31) + b[i]!) | 0;
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

/** Offsets of the control bytes (≤ CR: tabs, newlines, carriage returns…) of a block: its structure, found in one pass. */
let controls = new Int32Array(1 << 16);
/** The first 8 tabs of a line. */
const tabs = new Int32Array(8);

/**
 * Write the offsets of the control bytes of `b[0, size)` into `at`; returns how many. A function of its own, the
 * hottest loop of the reader: optimized on its own, it does not wait for (or fall back with) the line logic's.
 * Four bytes at a time: `(x - 0x0e0e0e0e) & ~x & 0x80808080` is non-zero exactly when one of the four bytes of x
 * is below 14 (a borrow can only mark a byte above one that is), and most words of a log line hold none (~25%
 * less CPU than a byte loop on the AOL subset).
 */
export function controlBytes(b: Uint8Array, size: number, at: Int32Array): number {
  let n = 0;
  let i = 0;
  // Byte by byte up to a 4-byte boundary of the memory, by words, then the last bytes.
  const head = Math.min(size, (4 - (b.byteOffset & 3)) & 3);
  for (; i < head; i++) if (b[i]! <= CR) at[n++] = i;
  const count = (size - i) >> 2;
  if (count > 0) {
    const words = new Uint32Array(b.buffer, b.byteOffset + i, count);
    for (let w = 0; w < count; w++) {
      const x = words[w]!;
      if (((x - 0x0e0e0e0e) & ~x & 0x80808080) === 0) continue;
      const o = i + (w << 2);
      if (b[o]! <= CR) at[n++] = o;
      if (b[o + 1]! <= CR) at[n++] = o + 1;
      if (b[o + 2]! <= CR) at[n++] = o + 2;
      if (b[o + 3]! <= CR) at[n++] = o + 3;
    }
  }
  for (i += count << 2; i < size; i++) if (b[i]! <= CR) at[n++] = i;
  return n;
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
    // Every control byte's offset, then the size as the last line's end.
    if (controls.length < size + 1) controls = new Int32Array(Math.max(size + 1, controls.length * 2));
    const at = controls;
    at[controlBytes(b, size, at)] = size;
    const decode = b as unknown as Slicing;
    let start = 0;
    let p = 0;
    let lineNo = firstLine;
    for (; ; lineNo++) {
      // The line's tabs and other control bytes, up to its newline.
      let nTabs = 0;
      let others = 0;
      let other = -1;
      let nl = size;
      for (; ; p++) {
        const x = at[p]!;
        if (x === size) break;
        const c = b[x]!;
        if (c === NL) {
          nl = x;
          p++;
          break;
        }
        if (c === TAB) {
          if (nTabs < 8) tabs[nTabs] = x;
          nTabs++;
        } else {
          others++;
          other = x;
        }
      }
      this.lines++;
      const end = nl > start && b[nl - 1] === CR ? nl - 1 : nl;
      if (nl - start > MAX_LINE_BYTES) {
        this.badLine(lineNo, `line longer than ${MAX_LINE_BYTES} bytes`, rawText(b.subarray(start, nl)));
      } else if (
        lineNo === 1 ||
        this.blanks > 0 ||
        end === start ||
        (others > 0 && (others > 1 || other !== end)) ||
        nTabs !== (this.classified ? 6 : 4) ||
        !this.fast(b, start, end, lineNo, out)
      ) {
        this.slow(ascii ? decode.latin1Slice(start, end) : decode.utf8Slice(start, end), lineNo, out);
      }
      if (nl === size) return lineNo - firstLine + 1;
      start = nl + 1;
    }
  }

  /**
   * The row of the line `b[start, end)` (its tabs in {@link tabs}, as many as its fields need) if it is one the
   * fast path is sure of (see the top of this file); false to leave it to the codec.
   */
  private fast(b: Buffer, start: number, end: number, lineNo: number, out: RowBlock): boolean {
    const t1 = tabs[0]!;
    const t2 = tabs[1]!;
    const t3 = tabs[2]!;
    const t4 = tabs[3]!;
    if (t1 === start || t3 - t2 !== 20) return false; // an empty user, or not a 19-byte time
    const urlEnd = this.classified ? tabs[4]! : end;
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
    out.user[i] = this.users.get(b, start, t1);
    out.category[i] = this.classified ? this.categories.get(b, tabs[4]! + 1, tabs[5]!) : undefined;
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
