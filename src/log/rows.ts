/**
 * Raw rows: the streaming methods' view of an AOL log line that keeps the line's bytes and decodes only what a
 * method reads (user, time, category; the query only when asked for, and compared by its bytes), so that the
 * release is written by copying the bytes it does not change (./row-write.ts) instead of parsing every field into a
 * {@link LogRecord} and printing it back. Users and categories are interned: the rows of one user share a string.
 *
 * A row's bytes are first a view of the reader's one buffer, valid until the next block is read: a consumer that
 * keeps a row past the batch it came in (or will ask for its query later) calls {@link RawRow.detach} (a copy of
 * its bytes) before asking for more.
 *
 * Only lines the fast path is sure of are kept as bytes: exactly 5 (7 when classified) fields, a time written as
 * `YYYY-MM-DD HH:MM:SS`, an ItemRank without leading zeros, no carriage return inside — the lines whose bytes
 * are the bytes the codec would print for them. Every other line (3 fields, a `T` in the time, a bad line…) is
 * parsed by the codec as before and carried as its record ({@link RawRow.rec}); so errors, `--lenient` and the
 * written output are exactly those of the record path.
 */
import { isAscii, isUtf8 } from "node:buffer";
import { InputError } from "../util/errors.ts";
import type { Progress } from "../util/progress.ts";
import { aolCodec } from "./formats/aol.ts";
import { decodeBlock, MAX_LINE_BYTES, rawText, readByteBlocks } from "./lines.ts";
import type { LogRecord, SourcePos } from "./record.ts";
import type { RejectSink } from "./rejects.ts";
import { copyBytes } from "./row-write.ts";
import { parseAolTimeIn } from "./time.ts";

const NL = 10;
const CR = 13;
const NO_BYTES = Buffer.alloc(0);

export class RawRow {
  /** Set by the consumer once the row is written out: it need not be detached. */
  done = false;
  /** The query text, decoded from the bytes when first asked for. */
  private text: string | undefined;

  constructor(
    /** The line's bytes live in `bytes[start, end)` (no newline, no trailing CR); empty for a record row. */
    public bytes: Buffer,
    public start: number,
    /** Offsets of the tab before the query, the tab before the time and the tab after the time. */
    public tab1: number,
    public tab2: number,
    public tab3: number,
    public end: number,
    /** Interned by the reader: rows of one user share one string (see {@link Interned}). */
    readonly user: string,
    readonly time: number,
    /** The category column of a classified log (undefined otherwise), interned like the user. */
    readonly category: string | undefined,
    readonly file: string,
    readonly line: number,
    /** The parsed record, for a line the fast path left to the codec (then `bytes` is empty). */
    readonly rec: LogRecord | undefined,
  ) {}

  /**
   * The query text. Not cut out when the row is read: the streaming methods compare queries by their bytes
   * ({@link sameQuery}) and need the text only rarely. Valid while the bytes are (see {@link detach}).
   */
  get query(): string {
    if (this.rec !== undefined) return this.rec.query;
    this.text ??= (this.bytes as unknown as Slicing).latin1Slice(this.tab1 + 1, this.tab2);
    return this.text;
  }

  /** Where the row was read, as records carry it. */
  get source(): SourcePos {
    return { file: this.file, line: this.line };
  }

  /** Copy the row's bytes out of the reader's buffer (to keep it past the current batch). */
  detach(): void {
    if (this.rec !== undefined) return;
    const n = this.end - this.start;
    const own = Buffer.allocUnsafe(n);
    copyBytes(this.bytes, this.start, this.end, own, 0);
    const shift = this.start;
    this.bytes = own;
    this.start = 0;
    this.tab1 -= shift;
    this.tab2 -= shift;
    this.tab3 -= shift;
    this.end = n;
  }

  /** A row from a record the codec parsed. */
  static of(rec: LogRecord, file: string, line: number): RawRow {
    return new RawRow(NO_BYTES, 0, 0, 0, 0, 0, rec.user, rec.time, rec.category, file, line, rec);
  }
}

/** Whether two rows hold the same query text: their bytes compared where they have them (no string is made). */
export function sameQuery(a: RawRow, b: RawRow): boolean {
  if (a.rec !== undefined || b.rec !== undefined) return a.query === b.query;
  const n = a.tab2 - a.tab1;
  if (b.tab2 - b.tab1 !== n) return false;
  const x = a.bytes;
  const y = b.bytes;
  for (let i = a.tab1 + 1, j = b.tab1 + 1, end = a.tab2; i < end; i++, j++) if (x[i] !== y[j]) return false;
  return true;
}

/** Whether two rows belong to one query event: the same user, time and query (./events' rule, on bytes). */
export function sameRawEvent(a: RawRow, b: RawRow): boolean {
  return a.user === b.user && a.time === b.time && sameQuery(a, b);
}

/** At most this many strings are interned per table; past it the table starts over (memory stays bounded). */
const INTERNED_MAX = 1 << 16;

/**
 * Field texts interned by a hash of their characters, checked in place (`startsWith` at the field's offset), so
 * that a row's user and category cost no string when they were seen before. Interning is only a saving: equal
 * strings compare equal either way.
 */
class Interned {
  private readonly table = new Map<number, string>();

  /** `line[from, to)`, the same string as the last time these characters were seen. */
  get(line: string, from: number, to: number): string {
    let h = to - from;
    for (let i = from; i < to; i++) h = (Math.imul(h, 31) + line.charCodeAt(i)) | 0;
    const known = this.table.get(h);
    if (known !== undefined && known.length === to - from && line.startsWith(known, from)) return known;
    const text = line.slice(from, to);
    if (this.table.size >= INTERNED_MAX) this.table.clear();
    this.table.set(h, text);
    return text;
  }
}

/**
 * Whether `line[from, to)` is an ItemRank the codec prints back the same: empty, or 1–9 digits without a leading
 * zero.
 */
function canonicalRank(line: string, from: number, to: number): boolean {
  const n = to - from;
  if (n === 0) return true;
  if (n > 9 || (n > 1 && line.charCodeAt(from) === 48)) return false;
  for (let i = from; i < to; i++) {
    const c = line.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return false;
  }
  return true;
}

/** Node's own decoders of a buffer range (what `toString(encoding, start, end)` calls after checking its arguments). */
interface Slicing {
  latin1Slice(start: number, end: number): string;
  utf8Slice(start: number, end: number): string;
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
  slow(text: string, lineNo: number, out: RawRow[]): void {
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
    else out.push(RawRow.of(rec, this.file, lineNo));
  }

  /** The rows of a block of valid UTF-8 without NUL bytes; returns its number of lines. */
  scan(b: Buffer, ascii: boolean, firstLine: number, out: RawRow[]): number {
    const text = b as unknown as Slicing;
    const size = b.length;
    let start = 0;
    let lineNo = firstLine;
    for (; ; lineNo++) {
      let nl = b.indexOf(NL, start);
      if (nl < 0) nl = size;
      this.lines++;
      const end = nl > start && b[nl - 1] === CR ? nl - 1 : nl;
      if (nl - start > MAX_LINE_BYTES) {
        this.badLine(lineNo, `line longer than ${MAX_LINE_BYTES} bytes`, rawText(b.subarray(start, nl)));
      } else {
        // Decoded once, then cut with the string builtins (no warm-up, unlike a loop over bytes). Its offsets are
        // the bytes' when it is ASCII.
        const line = ascii ? text.latin1Slice(start, end) : text.utf8Slice(start, end);
        if (
          lineNo === 1 ||
          this.blanks > 0 ||
          line.length !== end - start ||
          !this.fast(line, b, start, end, lineNo, out)
        )
          this.slow(line, lineNo, out);
      }
      if (nl === size) return lineNo - firstLine + 1;
      start = nl + 1;
    }
  }

  /**
   * The row of `line` (ASCII, read from `b[start, end)`) if it is one the fast path is sure of (see the top of
   * this file); false to leave it to the codec.
   */
  private fast(line: string, b: Buffer, start: number, end: number, lineNo: number, out: RawRow[]): boolean {
    const t1 = line.indexOf("\t");
    if (t1 <= 0) return false; // no tab, or an empty user
    const t2 = line.indexOf("\t", t1 + 1);
    const t3 = t2 < 0 ? -1 : line.indexOf("\t", t2 + 1);
    const t4 = t3 < 0 ? -1 : line.indexOf("\t", t3 + 1);
    if (t4 < 0) return false;
    const t5 = line.indexOf("\t", t4 + 1);
    let t6 = -1;
    if (this.classified) {
      t6 = t5 < 0 ? -1 : line.indexOf("\t", t5 + 1);
      if (t6 < 0 || line.indexOf("\t", t6 + 1) >= 0) return false;
    } else if (t5 >= 0) return false;
    // A time with a `T`, a rank with leading zeros, a rank without a URL, a carriage return inside: the codec's.
    const urlEnd = t5 < 0 ? line.length : t5;
    if (
      line.charCodeAt(t2 + 11) !== 32 ||
      !canonicalRank(line, t3 + 1, t4) ||
      (t4 > t3 + 1 && urlEnd === t4 + 1) ||
      line.indexOf("\r") >= 0
    )
      return false;
    const time = parseAolTimeIn(line, t2 + 1, t3);
    if (Number.isNaN(time)) return false;
    out.push(
      new RawRow(
        b,
        start,
        start + t1,
        start + t2,
        start + t3,
        end,
        this.users.get(line, 0, t1),
        time,
        t6 < 0 ? undefined : this.categories.get(line, t5 + 1, t6),
        this.file,
        lineNo,
        undefined,
      ),
    );
    return true;
  }
}

/** Stream the rows of AOL logs in batches (one batch per block of the file); `classified` as the header says. */
export async function* readRows(
  files: readonly string[],
  lenient: boolean,
  rejects: RejectSink,
  progress?: Progress,
): AsyncGenerator<RawRow[]> {
  for (const file of files) {
    const reader = new FileRows(file, (line, reason, raw) => {
      if (!lenient) throw new InputError(file, line, reason);
      rejects.add({ file, line, reason, raw });
    });
    for await (const block of readByteBlocks(file, reader.badLine)) {
      const b = block.bytes;
      const out: RawRow[] = [];
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
      if (out.length > 0) {
        progress?.tick(out.length);
        yield out;
      }
      // Back-pressure from the reject file (lenient runs with millions of bad lines).
      const behind = rejects.backlog();
      if (behind) await behind;
    }
    if (reader.lines === 0) reader.badLine(0, "empty file", "");
  }
}
