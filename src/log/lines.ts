/**
 * Reads a log file as blocks of text lines with constant memory: plain or gzip (detected by its magic bytes),
 * UTF-8 checked, NUL bytes and absurdly long lines caught. Each bad line is reported to `onBad` with its line
 * number and reason, and comes out as `undefined` so numbering stays right; `onBad` may throw to stop (strict).
 *
 * The fast path checks a whole block at once (one UTF-8 validation per ~1 MB) and decodes it line by line; only a
 * block that holds a NUL byte or invalid UTF-8 goes through the slow path that finds the culprit.
 */
import { isUtf8 } from "node:buffer";
import { createReadStream } from "node:fs";
import { open, stat } from "node:fs/promises";
import { createGunzip } from "node:zlib";
import { InputError } from "../util/errors.ts";

/** Lines longer than this many bytes are rejected (a sign of a binary or corrupt file). */
export const MAX_LINE_BYTES = 64 * 1024;

export interface LineBlock {
  /** The lines of the block; `undefined` where a line was bad (already reported). */
  readonly lines: (string | undefined)[];
  /** 1-based number of `lines[0]` in the file. */
  readonly firstLine: number;
}

export type BadLineHandler = (line: number, reason: string, raw: string) => void;

const NL = 10;
const fatal = new TextDecoder("utf-8", { fatal: true });
const lossy = new TextDecoder("utf-8");

/** Check that `file` is a readable, non-empty regular file; throws {@link InputError} otherwise. */
export async function checkFile(file: string): Promise<void> {
  let st: Awaited<ReturnType<typeof stat>>;
  try {
    st = await stat(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new InputError(file, undefined, code === "ENOENT" ? "no such file" : `cannot read (${code})`);
  }
  if (st.isDirectory()) throw new InputError(file, undefined, "is a directory, expected a log file");
  if (!st.isFile()) throw new InputError(file, undefined, "is not a regular file");
  if (st.size === 0) throw new InputError(file, undefined, "empty file");
}

async function isGzip(file: string): Promise<boolean> {
  const fh = await open(file, "r");
  try {
    const b = Buffer.alloc(2);
    const { bytesRead } = await fh.read(b, 0, 2, 0);
    return bytesRead === 2 && b[0] === 0x1f && b[1] === 0x8b;
  } finally {
    await fh.close();
  }
}

/** Text of a raw line for a reject file: invalid bytes shown as U+FFFD, capped in length. */
function rawText(buf: Uint8Array): string {
  const text = lossy.decode(buf.subarray(0, 2000));
  return buf.length > 2000 ? `${text}…` : text;
}

function stripCr(s: string): string {
  return s.length > 0 && s.charCodeAt(s.length - 1) === 13 ? s.slice(0, -1) : s;
}

/** Decode one block of complete lines (no trailing newline). */
function decodeBlock(block: Buffer, firstLine: number, onBad: BadLineHandler): (string | undefined)[] {
  if (block.indexOf(0) < 0 && isUtf8(block)) {
    // Each line is decoded on its own (not split from one decoded block): a record's fields are slices of
    // its line, and a slice keeps its whole parent string alive — a record held by a method would otherwise
    // hold a megabyte of text.
    const lines: (string | undefined)[] = [];
    let start = 0;
    for (let n = firstLine; ; n++) {
      let end = block.indexOf(NL, start);
      const last = end < 0;
      if (last) end = block.length;
      const stop = end > start && block[end - 1] === 13 ? end - 1 : end;
      if (end - start > MAX_LINE_BYTES) {
        onBad(n, `line longer than ${MAX_LINE_BYTES} bytes`, rawText(block.subarray(start, end)));
        lines.push(undefined);
      } else {
        lines.push(block.toString("utf8", start, stop));
      }
      if (last) return lines;
      start = end + 1;
    }
  }
  const out: (string | undefined)[] = [];
  let start = 0;
  for (let n = firstLine; start <= block.length; n++) {
    let end = block.indexOf(NL, start);
    if (end < 0) end = block.length;
    const bytes = block.subarray(start, end);
    start = end + 1;
    if (bytes.indexOf(0) >= 0) {
      onBad(n, "NUL byte in line (binary data?)", rawText(bytes));
      out.push(undefined);
      continue;
    }
    if (bytes.length > MAX_LINE_BYTES) {
      onBad(n, `line longer than ${MAX_LINE_BYTES} bytes`, rawText(bytes));
      out.push(undefined);
      continue;
    }
    try {
      out.push(stripCr(fatal.decode(bytes)));
    } catch {
      onBad(n, "invalid UTF-8", rawText(bytes));
      out.push(undefined);
    }
  }
  return out;
}

/** Stream `file` as blocks of lines. Call {@link checkFile} first for clean errors on missing files. */
export async function* readLineBlocks(file: string, onBad: BadLineHandler): AsyncGenerator<LineBlock> {
  const raw = createReadStream(file, { highWaterMark: 1 << 18 });
  const source = (await isGzip(file)) ? raw.pipe(createGunzip()) : raw;
  raw.on("error", (e) => source.destroy(e));
  let carry: Buffer | undefined;
  let lineNo = 1;
  /** Inside an over-long line: bytes are skipped until its newline. */
  let skipping = false;
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      let buf: Buffer = carry ? Buffer.concat([carry, chunk]) : chunk;
      carry = undefined;
      if (skipping) {
        const nl = buf.indexOf(NL);
        if (nl < 0) continue;
        skipping = false;
        lineNo++;
        buf = buf.subarray(nl + 1);
      }
      const last = buf.lastIndexOf(NL);
      if (last < 0) {
        if (buf.length > MAX_LINE_BYTES) {
          onBad(lineNo, `line longer than ${MAX_LINE_BYTES} bytes`, rawText(buf));
          skipping = true;
        } else {
          carry = Buffer.from(buf);
        }
        continue;
      }
      const lines = decodeBlock(buf.subarray(0, last), lineNo, onBad);
      yield { lines, firstLine: lineNo };
      lineNo += lines.length;
      if (last + 1 < buf.length) carry = Buffer.from(buf.subarray(last + 1));
    }
  } catch (e) {
    if (e instanceof InputError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    const reason =
      code === "Z_DATA_ERROR" || code === "Z_BUF_ERROR" ? "corrupt or truncated gzip data" : String(e);
    throw new InputError(file, lineNo, reason);
  }
  if (carry && carry.length > 0) {
    yield { lines: decodeBlock(carry, lineNo, onBad), firstLine: lineNo };
  }
}
