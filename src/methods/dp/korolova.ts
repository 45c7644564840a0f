/**
 * `--selection korolova`, the 2009 baseline. The release algorithm of Korolova, Kenthapadi, Mishra, Ntoulas (WWW 2009), on query events:
 * 1. keep each user's first d query events (by time) and, among their rows, the user's first d clicks;
 * 2. for each query q, noisy count M(q) + DLap(b) (discrete Laplace); release q with that noisy count when it
 *    exceeds K + 1 (`budget.ts`: the discrete tail needs the + 1);
 * 3. (unless clicks are off) for each released q and each URL u clicked for it, noisy count c(q, u) + DLap(b);
 *    release the pair when it exceeds K + 1 (the paper draws URLs from the engine's public top-10 for q; a log has
 *    none, so the pair's existence is itself protected by the threshold — see docs/methods/dp.md).
 * Queries and pairs are visited in sorted order, so the output depends only on the log's content and the seed.
 */

import type { CountTable } from "../../log/count-table.ts";
import type { QueryEvent } from "../../log/events.ts";
import type { LogRecord } from "../../log/record.ts";
import type { DpBudget } from "./budget.ts";
import { histories } from "./contributions.ts";

export interface LimitedCounts {
  /** Query → occurrences among the kept events. */
  readonly queries: Map<string, number>;
  /** Query → URL → kept clicks. */
  readonly clicks: Map<string, Map<string, number>>;
  readonly users: number;
  readonly eventsKept: number;
  readonly eventsDropped: number;
  readonly clicksKept: number;
  readonly clicksDropped: number;
}

/**
 * Step 1, one user at a time: keep the user's first `d` events and first `d` clicks, and count what is left. The
 * choice reads only the user's own history, so the log can be read by user (`by-user.ts`).
 */
export class EventLimiter implements LimitedCounts {
  readonly queries = new Map<string, number>();
  readonly clicks = new Map<string, Map<string, number>>();
  users = 0;
  eventsKept = 0;
  eventsDropped = 0;
  clicksKept = 0;
  clicksDropped = 0;

  constructor(private readonly d: number) {}

  /** One user's non-empty query events by time (`histories`), indexing `records`. */
  add(records: readonly LogRecord[], list: readonly QueryEvent[]): void {
    const d = this.d;
    this.users++;
    let userClicks = 0;
    for (let i = 0; i < list.length; i++) {
      const e = list[i]!;
      if (i >= d) {
        this.eventsDropped++;
        this.clicksDropped += e.clicks;
        continue;
      }
      this.eventsKept++;
      this.queries.set(e.query, (this.queries.get(e.query) ?? 0) + 1);
      for (let r = e.first; r < e.first + e.rows; r++) {
        const url = records[r]!.clickUrl;
        if (!url) continue;
        if (userClicks >= d) {
          this.clicksDropped++;
          continue;
        }
        userClicks++;
        this.clicksKept++;
        let urls = this.clicks.get(e.query);
        if (!urls) {
          urls = new Map();
          this.clicks.set(e.query, urls);
        }
        urls.set(url, (urls.get(url) ?? 0) + 1);
      }
    }
  }
}

/** Step 1 over the whole log: each user limited to their first `d` events and first `d` clicks. */
export function limitAndCount(
  records: readonly LogRecord[],
  events: readonly QueryEvent[],
  d: number,
): LimitedCounts {
  const limiter = new EventLimiter(d);
  for (const list of histories(events)) limiter.add(records, list);
  return limiter;
}

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Steps 2–3: noisy, thresholded query and click counts. */
export function noisyRelease(counts: LimitedCounts, budget: DpBudget, noise: () => number): CountTable {
  const queries: CountTable["queries"] = [];
  const clicks: CountTable["clicks"] = [];
  const released: string[] = [];
  for (const query of [...counts.queries.keys()].sort(byText)) {
    const noisy = counts.queries.get(query)! + noise();
    if (noisy > budget.cutoff) {
      queries.push({ query, count: noisy });
      released.push(query);
    }
  }
  for (const query of budget.clicks ? released : []) {
    const urls = counts.clicks.get(query);
    if (!urls) continue;
    for (const url of [...urls.keys()].sort(byText)) {
      const noisy = urls.get(url)! + noise();
      if (noisy > budget.cutoff) clicks.push({ query, url, count: noisy });
    }
  }
  queries.sort((a, b) => b.count - a.count || byText(a.query, b.query));
  clicks.sort((a, b) => byText(a.query, b.query) || b.count - a.count || byText(a.url, b.url));
  return { queries, clicks };
}
