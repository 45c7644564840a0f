/**
 * Reading query logs: one file, several files or glob patterns (e.g. the ten AOL collection files), plain or
 * gzip, in the AOL, Excite or NDJSON layout (detected, or forced with `format`). Records stream out in batches
 * with memory constant in the file size.
 *
 * Strict mode (default) stops at the first bad line with `file:line: reason` ({@link InputError}, exit 2).
 * Lenient mode sets bad lines aside in a {@link RejectSink} and counts them.
 */
import { createReadStream } from "node:fs";
import { createGunzip } from "node:zlib";
import { InputError, UsageError } from "../util/errors.ts";
import type { Progress } from "../util/progress.ts";
import { codecs, detectFormat } from "./formats/index.ts";
import { checkFile, readLineBlocks } from "./lines.ts";
import type { LogFormat, LogRecord, QueryLog } from "./record.ts";
import { RejectSink } from "./rejects.ts";
import { StringTable } from "./strings.ts";

export interface ReadOptions {
  /** Force a layout; default "auto" (by file name, then by the first line). */
  format?: LogFormat | "auto";
  /** Set bad lines aside instead of stopping. */
  lenient?: boolean;
  /** Lenient mode: where to write rejected lines (otherwise they are only counted). */
  rejectsPath?: string;
  /** Or a sink shared with other readers. */
  rejects?: RejectSink;
  progress?: Progress;
  /** Records per batch (default 256: a small batch dies young, so the garbage collector never copies or promotes it). */
  batchSize?: number;
  /** Attach `source` (file, line) to each record (default true). */
  keepSource?: boolean;
  /**
   * {@link loadLog}: the table its records take their texts from (default: one of its own). Logs loaded together
   * (an original and its release) share one, so a text both hold is held once.
   */
  strings?: StringTable;
  /**
   * Read only the lines of the users this takes: in a layout whose user is the first field (AOL, Excite) other
   * users' lines are skipped unparsed, so a shard's worker does not parse the whole log; bad lines among them are
   * then not seen (a cluster run's coordinator checks the whole input before its workers read it).
   */
  keepUser?: (user: string) => boolean;
  /** {@link loadLog}: stop with `refuse(records read)` once the log has more records than `most`. */
  limit?: LoadLimit;
}

/** The most records a load may hold, and the error refusing a log of `records` records or more. */
export interface LoadLimit {
  readonly most: number;
  refuse(records: number): Error;
}

/** An opened log: its layout is known before the first record is read, so output can mirror it. */
export interface OpenedLog {
  readonly files: readonly string[];
  readonly format: LogFormat;
  /** Whether the (first) file declares the classifier columns. */
  readonly classified: boolean;
  readonly rejects: RejectSink;
  batches(): AsyncGenerator<LogRecord[]>;
}

const GLOB_CHARS = /[*?[\]{}]/;

/** Expand glob patterns; plain paths are kept as given (so a missing file is reported by name). */
export async function expandInputs(patterns: readonly string[]): Promise<string[]> {
  if (patterns.length === 0) throw new UsageError("no input log given");
  const out: string[] = [];
  for (const p of patterns) {
    if (!GLOB_CHARS.test(p)) {
      out.push(p);
      continue;
    }
    const { glob } = await import("tinyglobby"); // loaded only when a pattern is given
    const found = (await glob(p, { onlyFiles: true, expandDirectories: false })).sort();
    if (found.length === 0) throw new InputError(p, undefined, "no file matches this pattern");
    out.push(...found);
  }
  return out;
}

/** Files exported on Windows often start with a UTF-8 byte-order mark: it is not part of the first line. */
function stripBom(s: string): string {
  return s.charCodeAt(0) === 0xfeff ? s.slice(1) : s;
}

/** The first line of a file (gunzipped if needed), or undefined if it has none. */
async function firstLine(file: string): Promise<string | undefined> {
  const raw = createReadStream(file, { start: 0, highWaterMark: 1 << 16 });
  const head = await new Promise<Buffer>((resolve, reject) => {
    raw.once("data", (b) => resolve(b as Buffer));
    raw.once("error", reject);
    raw.once("end", () => resolve(Buffer.alloc(0)));
  });
  raw.destroy();
  let text: Buffer = head;
  if (head[0] === 0x1f && head[1] === 0x8b) {
    const gz = createReadStream(file).pipe(createGunzip());
    text = await new Promise<Buffer>((resolve, reject) => {
      gz.once("data", (b) => resolve(b as Buffer));
      // Not gzip after all, or cut before its first line: say so, not "cannot tell the log format".
      gz.once("error", () => reject(new InputError(file, undefined, "corrupt or truncated gzip data")));
      gz.once("end", () => resolve(Buffer.alloc(0)));
    });
    gz.destroy();
  }
  const s = stripBom(text.toString("utf8"));
  const nl = s.indexOf("\n");
  const line = nl < 0 ? s : s.slice(0, nl);
  return line === "" ? undefined : line;
}

/** Open one or more logs (or glob patterns) for streaming. */
export async function openLog(inputs: readonly string[], opts: ReadOptions = {}): Promise<OpenedLog> {
  const files = await expandInputs(inputs);
  const lenient = opts.lenient ?? false;
  const rejects = opts.rejects ?? new RejectSink(lenient ? opts.rejectsPath : undefined);
  const usable: string[] = [];
  for (const f of files) {
    try {
      await checkFile(f);
      usable.push(f);
    } catch (e) {
      // A missing file or a directory is always an error; an empty file is a bad input lenient mode can skip.
      if (!(lenient && e instanceof InputError && e.reason === "empty file")) throw e;
      rejects.add({ file: f, line: 0, reason: "empty file", raw: "" });
    }
  }
  if (usable.length === 0 && (!opts.format || opts.format === "auto")) {
    // Lenient mode skipped every input as empty: say that, not "cannot tell the format".
    const what =
      files.length === 1 ? "empty file" : `empty file, and so are the other ${files.length - 1} inputs`;
    throw new InputError(files[0]!, undefined, what);
  }
  const head = usable[0] === undefined ? undefined : (await firstLine(usable[0]))?.replace(/\r$/, "");
  let format: LogFormat;
  if (opts.format && opts.format !== "auto") {
    format = opts.format;
  } else {
    const found = usable[0] === undefined ? undefined : detectFormat(usable[0], head);
    if (!found) {
      throw new InputError(
        usable[0] ?? files[0]!,
        1,
        "cannot tell the log format; give --format aol|excite|ndjson",
      );
    }
    format = found;
  }
  const classified = head !== undefined && codecs[format].readHeader(head)?.classified === true;
  return {
    files: usable,
    format,
    classified,
    rejects,
    batches: () => readRecords(usable, format, lenient, rejects, opts),
  };
}

async function* readRecords(
  files: readonly string[],
  format: LogFormat,
  lenient: boolean,
  rejects: RejectSink,
  opts: ReadOptions,
): AsyncGenerator<LogRecord[]> {
  const codec = codecs[format];
  const size = opts.batchSize ?? 256;
  const keepSource = opts.keepSource ?? true;
  const keepUser = opts.keepUser;
  const userOf = keepUser === undefined ? undefined : codec.userOf;
  let batch: LogRecord[] = [];
  for (const file of files) {
    const bad = (line: number, reason: string, raw: string) => {
      if (!lenient) throw new InputError(file, line, reason);
      rejects.add({ file, line, reason, raw });
    };
    let classified = false;
    let lines = 0;
    // Empty lines are held back: at the end of the file they are a harmless end, before a record they are bad.
    let blankFrom = 0;
    let blanks = 0;
    for await (const block of readLineBlocks(file, bad)) {
      for (let i = 0; i < block.lines.length; i++) {
        let text = block.lines[i];
        const lineNo = block.firstLine + i;
        lines++;
        if (text === undefined) continue;
        if (lineNo === 1) {
          text = stripBom(text);
          const header = codec.readHeader(text);
          if (header) {
            classified = header.classified;
            continue;
          }
        }
        if (text === "") {
          if (blanks++ === 0) blankFrom = lineNo;
          continue;
        }
        for (; blanks > 0; blanks--) bad(blankFrom++, "empty line", "");
        if (userOf !== undefined) {
          const user = userOf(text);
          if (user !== undefined && !keepUser!(user)) continue;
        }
        const rec = codec.parse(text, classified);
        if (keepUser !== undefined && typeof rec !== "string" && !keepUser(rec.user)) continue;
        if (typeof rec === "string") {
          bad(lineNo, rec, text);
          continue;
        }
        if (keepSource) rec.source = { file, line: lineNo };
        batch.push(rec);
        if (batch.length >= size) {
          opts.progress?.tick(batch.length);
          yield batch;
          batch = [];
        }
      }
      // Back-pressure from the reject file (lenient runs with millions of bad lines).
      const behind = rejects.backlog();
      if (behind) await behind;
    }
    if (lines === 0) bad(0, "empty file", "");
  }
  if (batch.length > 0) {
    opts.progress?.tick(batch.length);
    yield batch;
  }
}

/** Stream the records of one or more logs in batches (see {@link openLog} to learn the format first). */
export async function* readBatches(
  inputs: readonly string[],
  opts: ReadOptions = {},
): AsyncGenerator<LogRecord[]> {
  const log = await openLog(inputs, opts);
  yield* log.batches();
}

/** Read whole logs into memory (for the batch methods), one string per distinct text (./strings.ts). */
export async function loadLog(
  inputs: readonly string[],
  opts: ReadOptions = {},
): Promise<QueryLog & { rejected: number; rejects: RejectSink }> {
  const log = await openLog(inputs, opts);
  const strings = opts.strings ?? new StringTable();
  const records: LogRecord[] = [];
  const most = opts.limit?.most ?? Number.POSITIVE_INFINITY;
  for await (const batch of log.batches()) {
    for (const r of batch) records.push(strings.record(r));
    if (records.length > most) {
      if (!opts.rejects) await log.rejects.abort();
      throw opts.limit!.refuse(records.length);
    }
  }
  if (!opts.rejects) await log.rejects.close();
  return {
    records,
    format: log.format,
    classified: log.classified,
    rejected: log.rejects.count,
    rejects: log.rejects,
  };
}
