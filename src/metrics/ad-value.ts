/**
 * Ad value retained (paper 003, §3, Table 1) as a yardstick; the measures themselves are the km method's
 * (src/methods/km/measures.ts, through km's public surface, index.ts): % of term occurrences (log size), users, estimated ad clicks, impressions, and —
 * with a bid table (`options.bids` in the config) — bid and revenue. n/a for a count table, for bid/revenue
 * without a bid table, and for clicks on a log without clicks.
 */
import { adValueRetained, type BidTable, readBids } from "../methods/km/index.ts";
import type { Column, Yardstick } from "./yardstick.ts";

const KEYS = ["logSize", "users", "clicks", "impressions", "bid", "revenue"] as const;
const LABELS: Record<(typeof KEYS)[number], string> = {
  logSize: "% term occurrences kept",
  users: "% users with terms kept",
  clicks: "% est. ad clicks kept",
  impressions: "% est. ad impressions kept",
  bid: "% bid value kept",
  revenue: "% est. revenue kept",
};

const bidCache = new Map<string, Promise<BidTable>>();

export const adValue: Yardstick = {
  name: "ads",
  kind: "utility",
  title: "Ad value retained (the measures of Burghardt et al. 2010)",
  source: "Burghardt et al. 2010, §3",
  guidance:
    "What an advertiser could still do with the release: the share of search terms kept, of users who still have " +
    "terms, and of the ad clicks, impressions, bids and revenue those terms brought in the original. 100% = as " +
    "valuable as the original for ad placement. Bid and revenue need a bid table (config options.bids); clicks " +
    "need a log with clicks.",
  columns: (): Column[] => KEYS.map((k) => ({ key: k, label: LABELS[k], unit: "%", better: "higher" })),
  async measure({ original, release }, ctx) {
    if (!release.log) return Object.fromEntries(KEYS.map((k) => [k, null]));
    const path = ctx.options.bids;
    let bids: BidTable | undefined;
    if (path) {
      if (!bidCache.has(path)) bidCache.set(path, readBids(path));
      bids = await bidCache.get(path);
    }
    const r = adValueRetained(original, release.log, bids);
    return { ...r };
  },
};
