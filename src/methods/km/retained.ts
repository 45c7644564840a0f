/**
 * Paper 003's retained-% measures computed from the method's own structures, before and after suppression —
 * the fast path for the method's summary. It gives the same figures as {@link adValueRetained} (measures.ts),
 * which recomputes them from the two logs; a test checks that they agree.
 */
import type { TermHistories, TermStats } from "./histories.ts";
import type { Retained } from "./measures.ts";

/** Sums over current histories of each measure's term values. */
export interface HistoryTotals {
  readonly logSize: number;
  readonly users: number;
  readonly clicks: number;
  readonly impressions: number;
  readonly bid: number;
  readonly revenue: number;
}

/** Totals over the histories as they are now; log size = Σ occurrences of each (user, term). */
export function historyTotals(h: TermHistories, stats: TermStats, bid?: Float64Array): HistoryTotals {
  let logSize = 0;
  let users = 0;
  let clicks = 0;
  let impressions = 0;
  let bids = 0;
  let revenue = 0;
  for (let u = 0; u < h.users; u++) {
    const b = h.start[u]!;
    const e = b + h.len[u]!;
    if (e > b) users++;
    for (let i = b; i < e; i++) {
      const t = h.items[i]!;
      logSize += h.weight[i]!;
      clicks += stats.clicks[t]!;
      impressions += stats.impressions[t]!;
      if (bid) {
        bids += bid[t]!;
        revenue += stats.clicks[t]! * bid[t]!;
      }
    }
  }
  return { logSize, users, clicks, impressions, bid: bids, revenue };
}

const pct = (kept: number, all: number): number | null => (all === 0 ? null : (100 * kept) / all);

/** Percentages of `before` kept in `after`; bid and revenue are null without bids. */
export function retainedBetween(before: HistoryTotals, after: HistoryTotals, withBids: boolean): Retained {
  return {
    logSize: pct(after.logSize, before.logSize),
    users: pct(after.users, before.users),
    clicks: pct(after.clicks, before.clicks),
    impressions: pct(after.impressions, before.impressions),
    bid: withBids ? pct(after.bid, before.bid) : null,
    revenue: withBids ? pct(after.revenue, before.revenue) : null,
  };
}
