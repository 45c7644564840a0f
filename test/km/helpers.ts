/** Small hand-built logs and a brute-force (k,m) check for the km tests. */
import fc from "fast-check";
import type { LogRecord, QueryLog } from "../../src/log/record.ts";
import { queryTerms } from "../../src/methods/km/terms.ts";

/** One row per entry: [user, query, clicks (extra click rows of the same event, default 0)]. */
export function logOf(rows: [string, string, number?][]): QueryLog {
  const records: LogRecord[] = [];
  let time = 1_000_000;
  for (const [user, query, clicks = 0] of rows) {
    time += 60;
    if (clicks === 0) records.push({ user, query, time });
    for (let c = 0; c < clicks; c++) records.push({ user, query, time, clickUrl: `http://site${c}.example` });
  }
  return { records, format: "aol" };
}

/** Every combination of 1…m distinct terms of every history, with its support; violations have 0 < s < k. */
export function bruteViolations(records: readonly LogRecord[], k: number, m: number): string[] {
  const hist = new Map<string, Set<string>>();
  for (const r of records) {
    for (const t of queryTerms(r.query)) {
      let s = hist.get(r.user);
      if (!s) {
        s = new Set();
        hist.set(r.user, s);
      }
      s.add(t);
    }
  }
  const support = new Map<string, number>();
  const subsets = (items: string[], size: number): string[][] => {
    if (size === 0) return [[]];
    const out: string[][] = [];
    for (let i = 0; i <= items.length - size; i++) {
      for (const rest of subsets(items.slice(i + 1), size - 1)) out.push([items[i]!, ...rest]);
    }
    return out;
  };
  for (const set of hist.values()) {
    const items = [...set].sort();
    for (let s = 1; s <= Math.min(m, items.length); s++) {
      for (const c of subsets(items, s)) {
        const key = c.join(" ");
        support.set(key, (support.get(key) ?? 0) + 1);
      }
    }
  }
  return [...support].filter(([, s]) => s < k).map(([key]) => key);
}

/** Random small logs: a few users, queries over a small vocabulary (so combinations recur), some clicks. */
export const arbLog: fc.Arbitrary<QueryLog> = fc
  .array(
    fc.tuple(
      fc.integer({ min: 0, max: 7 }),
      fc.array(fc.constantFrom("a", "b", "c", "d", "e", "f", "g", "h"), { minLength: 1, maxLength: 4 }),
      fc.integer({ min: 0, max: 2 }),
    ),
    { minLength: 1, maxLength: 30 },
  )
  .map((rows) => logOf(rows.map(([u, terms, clicks]) => [`u${u}`, terms.join(" "), clicks])));

/**
 * Queries of first names and surnames with rare words between them, and a street: suppressing the rare words
 * leaves texts such as "mary smith" or "12 main street" that the scrubber flags, so rescans suppress words and the
 * greedy runs again, over several rounds.
 */
const FIRST = ["mary", "john", "linda"];
const LAST = ["smith", "jones", "garcia"];
const OTHER = ["12", "main", "street", "virgin", "college", "ohio", "qqq", "zzz", "xyx"];
export const arbFlaggedQuery: fc.Arbitrary<string> = fc.oneof(
  fc
    .tuple(
      fc.constantFrom(...FIRST),
      fc.array(fc.constantFrom(...OTHER), { maxLength: 2 }),
      fc.constantFrom(...LAST),
    )
    .map(([f, mid, l]) => [f, ...mid, l].join(" ")),
  fc
    .array(fc.constantFrom(...FIRST, ...LAST, ...OTHER), { minLength: 1, maxLength: 4 })
    .map((ws) => ws.join(" ")),
);
