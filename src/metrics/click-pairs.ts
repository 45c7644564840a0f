/**
 * Query-click pairs retained: the share of the original's distinct (query, clicked URL) pairs that
 * the release still holds, and the share of click volume (per pair, min(original, released) clicks). n/a for
 * a log without clicks (Excite).
 */
import type { LogRecord } from "../log/record.ts";
import { percent, type Yardstick } from "./yardstick.ts";

function clickCounts(records: readonly LogRecord[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of records) {
    if (r.clickUrl === undefined || r.clickUrl === "") continue;
    const key = `${r.query}\u0000${r.clickUrl}`;
    out.set(key, (out.get(key) ?? 0) + 1);
  }
  return out;
}

export const clickPairs: Yardstick = {
  name: "clicks",
  kind: "utility",
  title: "Query-click pairs retained",
  source: "querymask's own: the pairs the query-click graph method of Poblete et al. 2010 protects",
  guidance:
    "Whether the release can still teach which results answer which queries (ranking, click models). " +
    "100% means every (query, clicked site) pair survives; n/a means the original log has no clicks.",
  columns: () => [
    { key: "pairs", label: "% query-click pairs kept", unit: "%", better: "higher" },
    { key: "volume", label: "% click volume kept", unit: "%", better: "higher" },
  ],
  measure({ original, release }) {
    const before = clickCounts(original.records);
    if (before.size === 0) return { pairs: null, volume: null };
    let after: Map<string, number>;
    if (release.log) after = clickCounts(release.log.records);
    else if (release.table) {
      after = new Map();
      for (const c of release.table.clicks) {
        const key = `${c.query}\u0000${c.url}`;
        after.set(key, (after.get(key) ?? 0) + c.count);
      }
    } else return { pairs: null, volume: null };
    let pairs = 0;
    let kept = 0;
    let total = 0;
    for (const [key, n] of before) {
      const m = Math.max(0, after.get(key) ?? 0);
      if (m > 0) pairs++;
      kept += Math.min(n, m);
      total += n;
    }
    return { pairs: percent(pairs, before.size), volume: percent(kept, total) };
  },
};
