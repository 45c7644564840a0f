/**
 * Paper 003's measures of what an anonymized log keeps (§3, Table 1), as percentages of the original:
 *
 * - logSize: term occurrences over all query events (the Altavista log's "occurrences of terms");
 * - users: users with a non-empty history;
 * - bid, clicks, impressions, revenue: U_ta(S) = Σ over users Σ over the distinct terms t of the user's history
 *   of value_ta(t) — "the sum of the individual utilities of the terms of all histories". The per-term values are
 *   measured on the *original* log (clicks: click rows of query events containing t; impressions: query events
 *   containing t), bid comes from the bid table and revenue(t) = clicks(t) × bid(t).
 *
 * Both logs are read afresh (nothing is taken from the method), so this also measures any other method's output.
 */
import { groupEvents } from "../../log/events.ts";
import type { QueryLog } from "../../log/record.ts";
import type { BidTable } from "./bids.ts";
import { queryTerms } from "./terms.ts";

/**
 * Percentages retained. A measure is null when it does not apply: bid and revenue without a bid table, and any
 * measure whose original total is 0 (e.g. clicks of a log without click rows).
 */
export interface Retained {
  readonly logSize: number | null;
  readonly users: number | null;
  readonly clicks: number | null;
  readonly impressions: number | null;
  readonly bid: number | null;
  readonly revenue: number | null;
}

interface Totals {
  logSize: number;
  users: number;
  clicks: number;
  impressions: number;
  bid: number;
  revenue: number;
}

interface TermValue {
  clicks: number;
  impressions: number;
}

/** Per-term clicks and impressions measured on a log. */
function termValues(log: QueryLog): Map<string, TermValue> {
  const values = new Map<string, TermValue>();
  for (const ev of groupEvents(log.records)) {
    for (const term of new Set(queryTerms(ev.query))) {
      let v = values.get(term);
      if (!v) {
        v = { clicks: 0, impressions: 0 };
        values.set(term, v);
      }
      v.impressions++;
      v.clicks += ev.clicks;
    }
  }
  return values;
}

function totals(log: QueryLog, values: Map<string, TermValue>, bids?: BidTable): Totals {
  const t: Totals = { logSize: 0, users: 0, clicks: 0, impressions: 0, bid: 0, revenue: 0 };
  const histories = new Map<string, Set<string>>();
  for (const ev of groupEvents(log.records)) {
    const terms = queryTerms(ev.query);
    if (terms.length === 0) continue;
    t.logSize += terms.length;
    let h = histories.get(ev.user);
    if (!h) {
      h = new Set();
      histories.set(ev.user, h);
    }
    for (const term of terms) h.add(term);
  }
  t.users = histories.size;
  for (const h of histories.values()) {
    for (const term of h) {
      const v = values.get(term);
      const b = bids?.get(term) ?? 0;
      if (v) {
        t.clicks += v.clicks;
        t.impressions += v.impressions;
        t.revenue += v.clicks * b;
      }
      t.bid += b;
    }
  }
  return t;
}

const pct = (kept: number, all: number): number | null => (all === 0 ? null : (100 * kept) / all);

/**
 * What `released` keeps of `original` by paper 003's measures (percentages). Term values are taken from
 * `original`; pass `bids` to get bid and revenue.
 */
export function adValueRetained(original: QueryLog, released: QueryLog, bids?: BidTable): Retained {
  const values = termValues(original);
  const a = totals(original, values, bids);
  const b = totals(released, values, bids);
  return {
    logSize: pct(b.logSize, a.logSize),
    users: pct(b.users, a.users),
    clicks: pct(b.clicks, a.clicks),
    impressions: pct(b.impressions, a.impressions),
    bid: bids ? pct(b.bid, a.bid) : null,
    revenue: bids ? pct(b.revenue, a.revenue) : null,
  };
}
