/**
 * "km": (k,m)-anonymity of a search log by term suppression (paper 003). A user's history is the set of terms
 * (whitespace tokens) of the user's queries; the log is (k,m)-anonymous when every combination of at most m terms
 * out of a history is held by at least k histories. The greedy heuristic (greedy.ts, Algorithms 1–2) suppresses
 * terms from individual histories, choosing among the terms of each violating combination by a target function
 * (targets.ts), until no combination violates; the released log is the input with those terms removed from the
 * user's queries (release.ts). See docs/methods/km.md.
 */
import { groupEvents } from "../../log/events.ts";
import type { LogRecord } from "../../log/record.ts";
import type { AllowList } from "../../scrub/allow-list.ts";
import { createScrubber } from "../../scrub/scrubber.ts";
import type { Progress } from "../../util/progress.ts";
import type { Rng } from "../../util/random.ts";
import type { Method, Release } from "../method.ts";
import { type BidTable, bidVector, readBids } from "./bids.ts";
import { greedySuppress } from "./greedy.ts";
import { indexLog } from "./histories.ts";
import type { Retained } from "./measures.ts";
import { type KmParams, kmDeclaration } from "./meta.ts";
import { rewriteLog, suppressFlagged } from "./release.ts";
import { historyTotals, retainedBetween } from "./retained.ts";
import { targetFunction } from "./targets.ts";
import { queryTerms } from "./terms.ts";

export { type BidTable, readBids } from "./bids.ts";
export { adValueRetained, type Retained } from "./measures.ts";

/** The result of {@link kmRecords}: the released records, their origins, and what was done. */
export interface KmResult {
  readonly records: LogRecord[];
  readonly origin: Int32Array;
  readonly counts: Record<string, number>;
  /** Paper 003's measures (percentages kept). */
  readonly retained: Retained;
}

/**
 * Anonymize records in memory (the method without file I/O); `bids` is required for the bid/revenue targets;
 * `allow`: phrases that are not identifiers (`--allow-list`), left in the texts it rescans.
 */
export function kmRecords(
  input: readonly LogRecord[],
  params: Omit<KmParams, "bid">,
  rng: Rng,
  bids?: BidTable,
  progress?: Progress,
  allow?: AllowList,
): KmResult {
  const events = groupEvents(input);
  const index = indexLog(input, events);
  const h = index.histories;
  const pairsBefore = h.items.length;
  let usersWithTerms = 0;
  for (let u = 0; u < h.users; u++) if (h.len[u]! > 0) usersWithTerms++;
  const bid = bids ? bidVector(bids, index.vocab) : undefined;
  const before = historyTotals(h, index.stats, bid);
  const choose = targetFunction(params.target, index.stats, bid);
  const g = greedySuppress(h, params.k, params.m, choose, rng, progress);
  const scrubber = createScrubber({ allow });
  // Each round rescans every shortened text, and texts repeat across users: scrub each distinct one once.
  const flaggedWords = new Map<string, string[]>();
  const flag = (text: string): string[] => {
    let words = flaggedWords.get(text);
    if (words === undefined) {
      words = scrubber.scrub(text).spans.flatMap((span) => queryTerms(span.value));
      flaggedWords.set(text, words);
    }
    return words;
  };
  let flagged = 0;
  for (
    let more = suppressFlagged(events, index, flag);
    more > 0;
    more = suppressFlagged(events, index, flag)
  ) {
    flagged += more;
    const again = greedySuppress(h, params.k, params.m, choose, rng, progress);
    g.suppressed += again.suppressed;
    g.scans += again.scans;
  }
  const out = rewriteLog(input, events, index);
  let usersKept = 0;
  let pairsKept = 0;
  for (let u = 0; u < h.users; u++) {
    pairsKept += h.len[u]!;
    if (h.len[u]! > 0) usersKept++;
  }
  return {
    records: out.records,
    origin: out.origin,
    retained: retainedBetween(before, historyTotals(h, index.stats, bid), bid !== undefined),
    counts: {
      records: input.length,
      released: out.records.length,
      events: events.length,
      "events dropped": out.eventsDropped,
      "events shortened": out.eventsShortened,
      users: usersWithTerms,
      "users kept": usersKept,
      "distinct terms": index.vocab.length,
      "user-term pairs": pairsBefore,
      "terms suppressed": g.suppressed + flagged,
      "terms suppressed as identifying once shortened": flagged,
      "user-term pairs kept": pairsKept,
      "occurrences removed": out.occurrencesRemoved,
      scans: g.scans,
    },
  };
}

export const km: Method<KmParams> = {
  ...kmDeclaration,
  parse: (raw) => kmDeclaration.params.parse(raw),

  async anonymize(input, params, ctx): Promise<Release> {
    const bids = params.bid === undefined ? undefined : await readBids(params.bid);
    const r = kmRecords(input.records, params, ctx.rng, bids, ctx.progress, ctx.knowledge?.allow);
    const log = { records: r.records, format: input.format, classified: input.classified };
    const kept = r.retained;
    const counts: Record<string, number> = { ...r.counts };
    const measures: [string, number | null][] = [
      ["% log size", kept.logSize],
      ["% users", kept.users],
      ["% clicks", kept.clicks],
      ["% impressions", kept.impressions],
      ["% bid", kept.bid],
      ["% revenue", kept.revenue],
    ];
    for (const [name, value] of measures) if (value !== null) counts[name] = value;
    return { log, origin: r.origin, counts, guarantee: { model: "km-anonymity", k: params.k, m: params.m } };
  },
};
