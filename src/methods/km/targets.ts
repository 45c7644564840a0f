/**
 * Target functions (paper 003, §2.2 and Algorithm 2): given a combination of terms that breaks (k,m)-anonymity
 * in one user's history, pick the term to suppress — the one with the smallest utility under the target, ties
 * broken uniformly at random. "random" picks uniformly among all terms of the combination (the paper's
 * reference point).
 *
 * Utilities (all measured on the input log, except bid which the user supplies):
 * - logsize: occurrences of the term over the whole log (frequent terms weigh more in the log size; scoring the
 *   term's occurrences in the one user's queries instead was measured to keep *less* of the log, since it
 *   suppresses widely shared terms and keeps the user's rare ones, which then break further combinations);
 * - users: number of users whose history holds the term (widely shared terms rarely need suppressing later,
 *   so keeping them keeps histories non-empty);
 * - clicks: click rows of query events whose query contains the term;
 * - impressions: query events whose query contains the term;
 * - bid: the term's value in the bid table (0 when absent);
 * - revenue: clicks × bid.
 */
import type { Rng } from "../../util/random.ts";
import type { TermStats } from "./histories.ts";

export const TARGETS = ["random", "logsize", "users", "clicks", "impressions", "bid", "revenue"] as const;
export type Target = (typeof TARGETS)[number];

/** Targets that need a bid table. */
export const BID_TARGETS: readonly Target[] = ["bid", "revenue"];

/** Chooses the term of `terms` to suppress from user `u`. */
export type TargetFn = (u: number, terms: ArrayLike<number>, rng: Rng) => number;

/** The per-term utility vector of a target (undefined for random). `bid` is indexed by term id. */
export function termUtility(target: Target, stats: TermStats, bid?: Float64Array): Float64Array | undefined {
  switch (target) {
    case "logsize":
      return stats.occurrences;
    case "users":
      return stats.users;
    case "clicks":
      return stats.clicks;
    case "impressions":
      return stats.impressions;
    case "bid":
      return requireBid(target, bid);
    case "revenue": {
      const b = requireBid(target, bid);
      return stats.clicks.map((c, t) => c * b[t]!);
    }
    default:
      return undefined;
  }
}

function requireBid(target: Target, bid: Float64Array | undefined): Float64Array {
  if (!bid) throw new Error(`target ${target} needs a bid table`);
  return bid;
}

/** Build Algorithm 2's target_fct for `target`. */
export function targetFunction(target: Target, stats: TermStats, bid?: Float64Array): TargetFn {
  if (target === "random") return (_u, terms, rng) => terms[rng.int(terms.length)]!;
  const utility = termUtility(target, stats, bid)!;
  return (_u, terms, rng) => argmin(terms, rng, (t) => utility[t]!);
}

/** The term of smallest utility; among equals, one chosen uniformly (reservoir sampling). */
function argmin(terms: ArrayLike<number>, rng: Rng, utility: (t: number) => number): number {
  let best = terms[0]!;
  let bestU = utility(best);
  let ties = 1;
  for (let i = 1; i < terms.length; i++) {
    const t = terms[i]!;
    const v = utility(t);
    if (v < bestU) {
      best = t;
      bestU = v;
      ties = 1;
    } else if (v === bestU) {
      ties++;
      if (rng.int(ties) === 0) best = t;
    }
  }
  return best;
}
