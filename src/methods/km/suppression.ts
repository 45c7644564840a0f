import type { AllowList } from "../../scrub/allow-list.ts";
import { createScrubber } from "../../scrub/scrubber.ts";
import type { Progress } from "../../util/progress.ts";
import type { Rng } from "../../util/random.ts";
import { type BidTable, bidVector } from "./bids.ts";
import { type GreedyStats, greedySuppress } from "./greedy.ts";
import type { KmIndex } from "./histories.ts";
import type { Retained } from "./measures.ts";
import type { KmParams } from "./meta.ts";
import { type HistoryTotals, historyTotals, retainedBetween } from "./retained.ts";
import { type TargetFn, targetFunction } from "./targets.ts";
import { queryTerms } from "./terms.ts";

/** Distinct shortened texts {@link Suppression.flag} remembers (about 100 MiB). */
const FLAG_MEMO = 1 << 20;

/**
 * The words of a shortened text that make it an identifier, as the scrubber finds them (`allow`: phrases that are
 * not). A text repeated is scrubbed once; the memo is emptied when full, since a large log's distinct shortened
 * texts would outgrow the histories.
 */
export function flagger(allow?: AllowList): (text: string) => readonly string[] {
  const scrubber = createScrubber({ allow });
  const memo = new Map<string, string[]>();
  return (text) => {
    let words = memo.get(text);
    if (words === undefined) {
      if (memo.size >= FLAG_MEMO) memo.clear();
      words = scrubber.scrub(text).spans.flatMap((span) => queryTerms(span.value));
      memo.set(text, words);
    }
    return words;
  };
}

/**
 * The greedy on an index, with the rescans of shortened texts (release.ts) in between: the caller rescans the log's
 * events with {@link flag} (one pass) and hands {@link rescanned} how many (user, term) pairs that suppressed; the
 * greedy runs again after each rescan that suppressed any, until one suppresses none.
 */
export class Suppression {
  private readonly pairsBefore: number;
  private readonly usersWithTerms: number;
  private readonly bid: Float64Array | undefined;
  private readonly before: HistoryTotals;
  private readonly choose: TargetFn;
  private readonly greedy: GreedyStats;
  private flagged = 0;

  constructor(
    private readonly index: KmIndex,
    private readonly params: Omit<KmParams, "bid">,
    private readonly rng: Rng,
    bids?: BidTable,
    private readonly progress?: Progress,
    allow?: AllowList,
  ) {
    const h = index.histories;
    this.pairsBefore = h.items.length;
    let users = 0;
    for (let u = 0; u < h.users; u++) if (h.len[u]! > 0) users++;
    this.usersWithTerms = users;
    this.bid = bids ? bidVector(bids, index.vocab) : undefined;
    this.before = historyTotals(h, index.stats, this.bid);
    this.choose = targetFunction(params.target, index.stats, this.bid);
    this.greedy = greedySuppress(h, params.k, params.m, this.choose, rng, progress);
    this.flag = flagger(allow);
  }

  /** The words of a shortened text that make it an identifier ({@link flagger}). */
  readonly flag: (text: string) => readonly string[];

  /** A rescan suppressed `more` pairs: the greedy runs again if any; whether another rescan is needed. */
  rescanned(more: number): boolean {
    if (more === 0) return false;
    this.flagged += more;
    const again = greedySuppress(
      this.index.histories,
      this.params.k,
      this.params.m,
      this.choose,
      this.rng,
      this.progress,
    );
    this.greedy.suppressed += again.suppressed;
    this.greedy.scans += again.scans;
    return true;
  }

  /** Paper 003's measures and the summary's counts, given the record totals and the rewrite's counts. */
  result(
    totals: { records: number; released: number; events: number },
    out: { eventsDropped: number; eventsShortened: number; occurrencesRemoved: number },
  ): { retained: Retained; counts: Record<string, number> } {
    const h = this.index.histories;
    let usersKept = 0;
    let pairsKept = 0;
    for (let u = 0; u < h.users; u++) {
      pairsKept += h.len[u]!;
      if (h.len[u]! > 0) usersKept++;
    }
    return {
      retained: retainedBetween(
        this.before,
        historyTotals(h, this.index.stats, this.bid),
        this.bid !== undefined,
      ),
      counts: {
        records: totals.records,
        released: totals.released,
        events: totals.events,
        "events dropped": out.eventsDropped,
        "events shortened": out.eventsShortened,
        users: this.usersWithTerms,
        "users kept": usersKept,
        "distinct terms": this.index.vocab.length,
        "user-term pairs": this.pairsBefore,
        "terms suppressed": this.greedy.suppressed + this.flagged,
        "terms suppressed as identifying once shortened": this.flagged,
        "user-term pairs kept": pairsKept,
        "occurrences removed": out.occurrencesRemoved,
        scans: this.greedy.scans,
      },
    };
  }
}
