/**
 * A query-click {@link CountTable} (the DP release) as TSV, written atomically, gzip when the name ends in
 * `.gz`. Layout: a header `kind TAB query TAB url TAB count`, then one `query` row per released query (url
 * empty) and one `click` row per released (query, URL) pair. Tabs, newlines and backslashes inside text are
 * escaped as `\t`, `\n`, `\r`, `\\`. Counts are written exactly (shortest round-trip decimal), so a table
 * reads back equal.
 */
import { readFile } from "node:fs/promises";
import { gunzipSync } from "node:zlib";
import { InputError } from "../util/errors.ts";
import { AtomicTextFile } from "./atomic.ts";

/** A query-click count table: the output of the DP release (not per-user logs). */
export interface CountTable {
  readonly queries: { query: string; count: number }[];
  readonly clicks: { query: string; url: string; count: number }[];
}

export const COUNT_TABLE_HEADER = "kind\tquery\turl\tcount";

const ESC: Record<string, string> = { "\t": "\\t", "\n": "\\n", "\r": "\\r", "\\": "\\\\" };
const UNESC: Record<string, string> = { t: "\t", n: "\n", r: "\r", "\\": "\\" };

/** Escape a text field for the TSV. */
export function escapeField(s: string): string {
  return s.replace(/[\t\n\r\\]/g, (c) => ESC[c]!);
}

/** Undo {@link escapeField}; undefined for a dangling or unknown escape. */
export function unescapeField(s: string): string | undefined {
  if (!s.includes("\\")) return s;
  let bad = false;
  const out = s.replace(/\\(.?)/g, (_, c: string) => {
    const r = UNESC[c];
    if (r === undefined) bad = true;
    return r ?? "";
  });
  return bad ? undefined : out;
}

/** The table as TSV text. */
export function formatCountTable(table: CountTable): string {
  const lines = [COUNT_TABLE_HEADER];
  for (const q of table.queries) lines.push(`query\t${escapeField(q.query)}\t\t${q.count}`);
  for (const c of table.clicks)
    lines.push(`click\t${escapeField(c.query)}\t${escapeField(c.url)}\t${c.count}`);
  return `${lines.join("\n")}\n`;
}

/** Parse TSV text written by {@link formatCountTable}; `file` names the source in errors. */
export function parseCountTable(text: string, file = "<table>"): CountTable {
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  if (lines[0]?.replace(/\r$/, "") !== COUNT_TABLE_HEADER) {
    throw new InputError(file, 1, `not a count table: expected header ${JSON.stringify(COUNT_TABLE_HEADER)}`);
  }
  const queries: CountTable["queries"] = [];
  const clicks: CountTable["clicks"] = [];
  for (let i = 1; i < lines.length; i++) {
    const f = lines[i]!.replace(/\r$/, "").split("\t");
    const line = i + 1;
    if (f.length !== 4) throw new InputError(file, line, `expected 4 tab-separated fields, got ${f.length}`);
    const [kind, rawQuery, rawUrl, rawCount] = f as [string, string, string, string];
    const query = unescapeField(rawQuery);
    const url = unescapeField(rawUrl);
    if (query === undefined || url === undefined) throw new InputError(file, line, "bad backslash escape");
    const count = Number(rawCount);
    if (rawCount.trim() === "" || !Number.isFinite(count)) {
      throw new InputError(file, line, `count is not a number: ${JSON.stringify(rawCount)}`);
    }
    if (kind === "query") {
      if (url !== "") throw new InputError(file, line, "a query row must have an empty url field");
      queries.push({ query, count });
    } else if (kind === "click") {
      clicks.push({ query, url, count });
    } else {
      throw new InputError(file, line, `kind must be "query" or "click", got ${JSON.stringify(kind)}`);
    }
  }
  return { queries, clicks };
}

/** Write `table` to `path` atomically (gzip when it ends in `.gz`). */
export async function writeCountTable(path: string, table: CountTable): Promise<void> {
  const out = new AtomicTextFile(path);
  try {
    await out.write(formatCountTable(table));
    await out.commit();
  } catch (e) {
    await out.abort();
    throw e;
  }
}

/** Read a count table written by {@link writeCountTable} (plain or gzip, detected by magic bytes). */
export async function readCountTable(path: string): Promise<CountTable> {
  let buf: Buffer;
  try {
    buf = await readFile(path);
  } catch (e) {
    throw new InputError(path, undefined, `cannot read: ${(e as Error).message}`);
  }
  if (buf[0] === 0x1f && buf[1] === 0x8b) buf = gunzipSync(buf);
  return parseCountTable(buf.toString("utf8"), path);
}
