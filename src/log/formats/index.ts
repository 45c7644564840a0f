/** The codec of each log format, and format detection from a file name and its first line. */
import type { LogFormat } from "../record.ts";
import { aolCodec } from "./aol.ts";
import type { LineCodec } from "./codec.ts";
import { exciteCodec } from "./excite.ts";
import { ndjsonCodec } from "./ndjson.ts";

export const codecs: Record<LogFormat, LineCodec> = {
  aol: aolCodec,
  excite: exciteCodec,
  ndjson: ndjsonCodec,
};

const EXCITE_LINE = /^[^\t]+\t\d{12}\t[^\t]*$/;
const AOL_LINE = /^[^\t]+\t[^\t]*\t\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\t[^\t]*\t[^\t]*(\t[^\t]*\t[^\t]*)?)?$/;

/**
 * Guess the format of a file from its name (`.ndjson`, `.jsonl`) or its first non-empty line; undefined when
 * nothing fits (the caller then asks for `--format`).
 */
export function detectFormat(fileName: string, firstLine: string | undefined): LogFormat | undefined {
  const name = fileName.replace(/\.gz$/, "");
  if (/\.(ndjson|jsonl)$/i.test(name)) return "ndjson";
  if (firstLine === undefined) return undefined;
  const line = firstLine.replace(/\r$/, "");
  if (line.startsWith("{")) return "ndjson";
  if (aolCodec.readHeader(line) || AOL_LINE.test(line)) return "aol";
  if (EXCITE_LINE.test(line)) return "excite";
  return undefined;
}

export type { LineCodec };
