/**
 * One ingest request body → records, all or nothing: NDJSON (one JSON record per line, the `ndjson` log layout) or,
 * with `Content-Type: text/tab-separated-values`, AOL TSV lines (a header line is optional; 7 fields = classified).
 * The first bad line makes the whole request fail with its 1-based line number and reason.
 *
 * Lines are checked as the file reader checks them — the same code: invalid UTF-8, a NUL byte, a line over the
 * length limit, a byte-order mark, CRLF, then the layout's codec (a time no log can hold, a bad rank…) — so the
 * service accepts exactly what `querymask` accepts from a file, and what it releases reads back.
 */
import { aolCodec } from "../log/formats/aol.ts";
import { ndjsonCodec } from "../log/formats/ndjson.ts";
import { decodeBlock } from "../log/lines.ts";
import type { LogRecord } from "../log/record.ts";

export type Parsed = { ok: true; records: LogRecord[] } | { ok: false; line: number; reason: string };

export function parseBody(body: Buffer | string, contentType: string | undefined): Parsed {
  const tsv = (contentType ?? "").toLowerCase().startsWith("text/tab-separated-values");
  let bytes = typeof body === "string" ? Buffer.from(body) : body;
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    bytes = bytes.subarray(3);
  if (bytes.length > 0 && bytes[bytes.length - 1] === 10) bytes = bytes.subarray(0, -1); // the final newline
  if (bytes.length === 0) return { ok: true, records: [] };
  let bad: { line: number; reason: string } | undefined;
  const lines = decodeBlock(bytes, 1, (line, reason) => {
    bad ??= { line, reason };
  });
  if (bad !== undefined) return { ok: false, ...bad };
  const records: LogRecord[] = [];
  let classified: boolean | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === "") return { ok: false, line: i + 1, reason: "empty line" };
    let r: LogRecord | string;
    if (tsv) {
      const header = aolCodec.readHeader(line);
      if (header !== undefined) {
        if (i !== 0) return { ok: false, line: i + 1, reason: "header line after the first line" };
        classified = header.classified;
        continue;
      }
      classified ??= line.split("\t").length === 7;
      r = aolCodec.parse(line, classified);
    } else {
      r = ndjsonCodec.parse(line, false);
    }
    if (typeof r === "string") return { ok: false, line: i + 1, reason: r };
    records.push(r);
  }
  return { ok: true, records };
}
