/**
 * Facts the audit reads off a log with its own code (it shares nothing with the methods): query events, users'
 * histories of terms, a record's printable form.
 */
import type { LogRecord } from "../log/record.ts";

/** A query event: consecutive rows with the same user, query and time (an AOL search and its clicks). */
export interface AuditEvent {
  readonly user: string;
  readonly query: string;
  readonly time: number;
  /** Index of its first row, and its rows' count. */
  readonly first: number;
  readonly rows: number;
}

export function eventsOf(records: readonly LogRecord[]): AuditEvent[] {
  const out: AuditEvent[] = [];
  for (let i = 0; i < records.length; ) {
    const r = records[i]!;
    let j = i + 1;
    while (j < records.length) {
      const s = records[j]!;
      if (s.user !== r.user || s.query !== r.query || s.time !== r.time) break;
      j++;
    }
    out.push({ user: r.user, query: r.query, time: r.time, first: i, rows: j - i });
    i = j;
  }
  return out;
}

/** The top-level category of an ODP path (`Top/Arts/Music` → `Top/Arts`); "" stays "". */
export function topLevel(category: string): string {
  const second = category.indexOf("/", category.startsWith("Top/") ? 4 : 0);
  return second < 0 ? category : category.slice(0, second);
}

/** The whitespace-separated terms of a query (paper 003's terms). */
export function termsOf(query: string): string[] {
  return query.split(/\s+/).filter((t) => t !== "");
}

/** A record as one line for a violation list. */
export function show(r: LogRecord): string {
  const click = r.clickUrl ? `  click ${r.itemRank ?? ""} ${r.clickUrl}` : "";
  const cols = r.category !== undefined || r.unit ? `  [${r.category ?? ""} | ${r.unit ?? ""}]` : "";
  return `user ${r.user}  ${JSON.stringify(r.query)}  ${new Date(r.time * 1000).toISOString().slice(0, 19)}${click}${cols}`;
}

/** Add 1 to `key`'s count. */
export function bump<K>(m: Map<K, number>, key: K, by = 1): void {
  m.set(key, (m.get(key) ?? 0) + by);
}
