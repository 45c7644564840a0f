/**
 * Counting helpers shared by the utility yardsticks. Released logs may come out in any order (swap moves
 * records between users), so records are put in (user, time) order before grouping them into query events.
 */
import { groupEvents, type QueryEvent } from "../log/events.ts";
import type { LogRecord } from "../log/record.ts";

/** Query events of `records`, grouped after a stable sort by user then time; `first` indexes `records`. */
export function eventsOf(records: readonly LogRecord[]): QueryEvent[] {
  let hit = eventMemo.get(records);
  if (!hit) {
    hit = groupSorted(records);
    eventMemo.set(records, hit);
  }
  return hit;
}

/** Memo per records array: the original log is measured against every release of an experiment. */
const eventMemo = new WeakMap<readonly LogRecord[], QueryEvent[]>();
const freqMemo = new WeakMap<readonly LogRecord[], Map<string, number>>();

function groupSorted(records: readonly LogRecord[]): QueryEvent[] {
  let sorted = true;
  for (let i = 1; i < records.length && sorted; i++) {
    const a = records[i - 1]!;
    const b = records[i]!;
    if (a.user > b.user || (a.user === b.user && a.time > b.time)) sorted = false;
  }
  if (sorted) return groupEvents(records);
  const order = records.map((_, i) => i);
  order.sort((x, y) => {
    const a = records[x]!;
    const b = records[y]!;
    return a.user < b.user ? -1 : a.user > b.user ? 1 : a.time - b.time || x - y;
  });
  return groupEvents(order.map((i) => records[i]!)).map((e) => ({ ...e, first: order[e.first]! }));
}

/** How often each non-empty query was issued (events, next-page requests not counted). */
export function queryFrequencies(records: readonly LogRecord[]): ReadonlyMap<string, number> {
  const hit = freqMemo.get(records);
  if (hit) return hit;
  const freq = new Map<string, number>();
  freqMemo.set(records, freq);
  for (const e of eventsOf(records)) {
    if (e.query === "" || e.nextPage) continue;
    freq.set(e.query, (freq.get(e.query) ?? 0) + 1);
  }
  return freq;
}

/** The `k` most frequent queries, ties broken by query text so the choice is reproducible. */
export function topQueries(freq: ReadonlyMap<string, number>, k: number): string[] {
  return [...freq]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, k)
    .map(([q]) => q);
}
