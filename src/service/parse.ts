/**
 * One ingest request body → records, all or nothing: NDJSON (one JSON record per line, the `ndjson` log layout) or,
 * with `Content-Type: text/tab-separated-values`, AOL TSV lines (a header line is optional; 7 fields = classified).
 * The first bad line makes the whole request fail with its 1-based line number and reason.
 */
import { aolCodec } from "../log/formats/aol.ts";
import { ndjsonCodec } from "../log/formats/ndjson.ts";
import type { LogRecord } from "../log/record.ts";

export type Parsed = { ok: true; records: LogRecord[] } | { ok: false; line: number; reason: string };

export function parseBody(body: string, contentType: string | undefined): Parsed {
  const tsv = (contentType ?? "").toLowerCase().startsWith("text/tab-separated-values");
  const lines = body.split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop(); // the final newline
  const records: LogRecord[] = [];
  let classified: boolean | undefined;
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!;
    if (line.endsWith("\r")) line = line.slice(0, -1);
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
