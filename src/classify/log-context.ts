/**
 * The log context (`querymask classify --context clicks,users`): a second look at the learned layer's
 * branch of each distinct query in the light of the rest of its log. A search engine classifying its own log knows
 * which sites each query's searchers clicked and what else they searched around it; queries whose clicks share a
 * site tend to share a category, and so do a user's neighbouring queries.
 *
 * With p(·|q) the layer's branch probabilities of query q (its text alone) and prior the mean of p over the log's
 * query events, q's branch is the largest of
 *
 *     log p(c|q) + β · log(M(c) / prior(c)) + γ · log(D̃(c) / prior(c))
 *
 * - clicks: each site h (`hostOf` its click URLs) sums, over the log's click rows on it, the p of their query; for q,
 *   D_h is that sum less q's own clicks' share, smoothed (D_h + α_c · prior) / (|D_h| + α_c), and M mixes the
 *   smoothed D_h of q's sites that other queries clicked, by q's clicks on each.
 * - users: D sums p(·|q') over the other query events of every user who typed q that fall within ±`minutes` of one
 *   of that user's events of q (q's own text left out, each event counted once), D̃ = (D + α_u · prior) / (|D| + α_u).
 *
 * In `rounds` passes (default 5): after the first, the neighbours' p are their posteriors of the pass before (p ·
 * e^terms, normalized; q's own log p(c|q) stays its text's; the prior is their mean), so a query hears of a
 * neighbour its own context moved.
 *
 * A query without clicks shared with another query, or without neighbours, keeps what its text says; a few
 * neighbours move it less than many. The answer is still one per query text within a log (a function of the text
 * and of the log), so a release's Category and Unit stay those its original gives the same text. No click, site or
 * user leaves the run: the tables live in memory for the second pass.
 *
 * Measured on the labelled training queries against the AOL subset (5-fold CV, research/classifier-experiments
 * `hostprop`, `userctx`, `logctx`, and through the command `npm run eval:classifier -- --pool --context`;
 * docs/classifier.md).
 */
import { grown } from "../util/arrays.ts";
import type { QueryEvents } from "./query-events.ts";

export type ContextSignal = "clicks" | "users";

export const CONTEXT_SIGNALS: readonly ContextSignal[] = ["clicks", "users"];

export interface LogContextSettings {
  /** The signals used. */
  readonly signals: readonly ContextSignal[];
  /** users: neighbouring events count when at most this many minutes from one of the user's events of q. */
  readonly minutes: number;
  /** The weight of the click term (β) and of the user term (γ) against the query's own log-probabilities. */
  readonly clickWeight: number;
  readonly userWeight: number;
  /** The prior's pseudo-counts in the smoothed site (α_c) and user (α_u) distributions. */
  readonly clickAlpha: number;
  readonly userAlpha: number;
  /**
   * Rounds of the second look. In round r > 1 the neighbours' p are their posteriors of round r − 1 (p · e^terms,
   * normalized), while each query's own term stays its text's p: iterative (collective) classification.
   */
  readonly rounds: number;
}

/** The defaults: the experiments' settings (docs/classifier.md). */
export const LOG_CONTEXT: LogContextSettings = {
  signals: CONTEXT_SIGNALS,
  minutes: 120,
  clickWeight: 1,
  userWeight: 1,
  clickAlpha: 1,
  userAlpha: 5,
  rounds: 5,
};

/**
 * The branch the log context gives each distinct query of `events` (by id), from each query's branch probabilities
 * `probs[id]` (k each; undefined: a query the layer cannot score, which neither moves nor is moved): the argmax of
 * the formula at the top of this file, or -1 for a query without probabilities.
 */
export function contextBranches(
  events: QueryEvents,
  probs: readonly (Float64Array | undefined)[],
  k: number,
  settings: LogContextSettings = LOG_CONTEXT,
): Int32Array {
  const nq = events.texts.length;
  const { terms, prior, reached } = roundsTerms(events, flat(probs, k), k, settings);
  const out = new Int32Array(nq).fill(-1);
  for (let q = 0; q < nq; q++) {
    // A query the layer cannot score stands on its context alone, the prior in place of its text's p.
    const p = probs[q] ?? (reached[q] === 1 ? prior : undefined);
    if (p === undefined) continue;
    let best = -1;
    let bestScore = Number.NEGATIVE_INFINITY;
    for (let c = 0; c < k; c++) {
      // log p + terms, compared as p · e^terms: a query without context (terms 0) keeps exactly p's argmax, where
      // the logs of two probabilities a few ulps apart can round to a tie.
      const score = p[c]! * Math.exp(terms[q * k + c]!);
      if (score > bestScore) {
        bestScore = score;
        best = c;
      }
    }
    out[q] = best;
  }
  return out;
}

/**
 * Each query's branch probabilities in the light of its log: p · e^terms, normalized (undefined where p is). For
 * uses beyond the branch (e.g. as training labels); {@link contextBranches} is their argmax.
 */
export function contextPosteriors(
  events: QueryEvents,
  probs: readonly (Float64Array | undefined)[],
  k: number,
  settings: LogContextSettings = LOG_CONTEXT,
): (Float64Array | undefined)[] {
  const p = flat(probs, k);
  const post = posteriors(p, roundsTerms(events, p, k, settings).terms, k, new Float64Array(p.values.length));
  return probs.map((x, q) => (x === undefined ? undefined : post.values.slice(q * k, q * k + k)));
}

/** Each query's k probabilities, one after another, and whether it has them (the others' are 0). */
interface Probs {
  readonly values: Float64Array;
  readonly has: Uint8Array;
}

function flat(probs: readonly (Float64Array | undefined)[], k: number): Probs {
  const values = new Float64Array(probs.length * k);
  const has = new Uint8Array(probs.length);
  probs.forEach((p, q) => {
    if (p === undefined) return;
    values.set(p.subarray(0, k), q * k);
    has[q] = 1;
  });
  return { values, has };
}

/** The terms of the last of `settings.rounds` rounds, that round's prior, and which queries a signal reached. */
function roundsTerms(events: QueryEvents, probs: Probs, k: number, settings: LogContextSettings): Scratch {
  const orders = eventOrders(events, probs, settings);
  const size = probs.values.length;
  const scratch: Scratch = {
    terms: new Float64Array(size),
    prior: new Float64Array(k),
    reached: new Uint8Array(events.texts.length),
    sums: new Float64Array(size),
    site: new Float64Array(events.sites * k),
    siteClicks: new Float64Array(events.sites),
  };
  contextTerms(events, orders, probs, k, settings, scratch);
  // Each round's posteriors are the text's p moved by the last round's terms, which the next round overwrites.
  const next = settings.rounds > 1 ? new Float64Array(size) : undefined;
  for (let round = 2; round <= settings.rounds; round++)
    contextTerms(events, orders, posteriors(probs, scratch.terms, k, next!), k, settings, scratch);
  return scratch;
}

/**
 * The arrays a round fills, allocated once: the terms, the prior, whether a signal of non-zero weight reached each
 * query (a site another query clicked, a neighbouring event), and the users' and sites' sums of p.
 */
interface Scratch {
  readonly terms: Float64Array;
  readonly prior: Float64Array;
  readonly reached: Uint8Array;
  readonly sums: Float64Array;
  readonly site: Float64Array;
  readonly siteClicks: Float64Array;
}

/** What the terms walk the log by, found once for every round. */
interface EventOrders {
  /** The click rows by query, then site. */
  readonly clicks: Int32Array;
  readonly neighbours: UserNeighbours;
}

/** See {@link userNeighbours}. */
interface UserNeighbours {
  readonly owner: Int32Array;
  readonly neighbour: Int32Array;
  readonly mass: Float64Array;
}

function eventOrders(events: QueryEvents, probs: Probs, settings: LogContextSettings): EventOrders {
  const { clickQuery, clickHost, clicks, user, time, n } = events;
  const byUser = Int32Array.from({ length: n }, (_, e) => e).sort(
    (a, b) => user[a]! - user[b]! || time[a]! - time[b]! || a - b,
  );
  return {
    clicks: Int32Array.from({ length: clicks }, (_, i) => i).sort(
      (a, b) => clickQuery[a]! - clickQuery[b]! || clickHost[a]! - clickHost[b]!,
    ),
    neighbours: settings.signals.includes("users")
      ? userNeighbours(events, byUser, probs.has, settings.minutes * 60)
      : { owner: new Int32Array(0), neighbour: new Int32Array(0), mass: new Float64Array(0) },
  };
}

/**
 * The users signal's neighbours: for each query q, the other query events of every user who typed q within `window`
 * seconds of one of that user's events of q (q's own text and queries without p left out, each event once), as (q,
 * the neighbour's query) pairs, and their number per query.
 */
function userNeighbours(
  { texts, n, user, query, time }: QueryEvents,
  order: Int32Array,
  has: Uint8Array,
  window: number,
): UserNeighbours {
  const mass = new Float64Array(texts.length);
  let owner = new Int32Array(1024);
  let neighbour = new Int32Array(1024);
  let pairs = 0;
  for (let from = 0; from < n; ) {
    let to = from + 1;
    while (to < n && user[order[to]!] === user[order[from]!]) to++;
    // This user's events are order[from, to), by time. Each of their distinct queries, with its positions.
    const at = new Map<number, number[]>();
    for (let i = from; i < to; i++) {
      const q = query[order[i]!]!;
      const list = at.get(q);
      if (list === undefined) at.set(q, [i]);
      else list.push(i);
    }
    for (const [q, positions] of at) {
      // The union of the windows around q's events, position by position (positions are in time order).
      let lo = from;
      let covered = from; // positions before this one are counted already
      for (const i of positions) {
        const t = time[order[i]!]!;
        while (lo < i && time[order[lo]!]! < t - window) lo++;
        let hi = i;
        while (hi + 1 < to && time[order[hi + 1]!]! <= t + window) hi++;
        for (let j = Math.max(lo, covered); j <= hi; j++) {
          const q2 = query[order[j]!]!;
          if (q2 === q || has[q2] === 0) continue;
          if (pairs === owner.length) {
            owner = grown(owner, 2 * pairs);
            neighbour = grown(neighbour, 2 * pairs);
          }
          owner[pairs] = q;
          neighbour[pairs] = q2;
          pairs++;
          mass[q]!++;
        }
        covered = Math.max(covered, hi + 1);
      }
    }
    from = to;
  }
  return { owner: owner.subarray(0, pairs), neighbour: neighbour.subarray(0, pairs), mass };
}

/** The context's log-ratio terms of each query (k per query), summed over the signals, from the neighbours' p. */
function contextTerms(
  events: QueryEvents,
  orders: EventOrders,
  probs: Probs,
  k: number,
  settings: LogContextSettings,
  scratch: Scratch,
): void {
  const prior = eventPrior(events, probs, k, scratch.prior);
  scratch.terms.fill(0);
  const inputs = { events, orders, probs, k, prior, settings, scratch };
  if (settings.signals.includes("clicks")) clickTerms(inputs);
  if (settings.signals.includes("users")) userTerms(inputs);
}

/** Each query's p · e^terms, normalized, into `into` (the probabilities of the next round). */
function posteriors({ values, has }: Probs, terms: Float64Array, k: number, into: Float64Array): Probs {
  for (let q = 0; q < has.length; q++) {
    if (has[q] === 0) continue;
    const at = q * k;
    let sum = 0;
    for (let c = 0; c < k; c++) {
      into[at + c] = values[at + c]! * Math.exp(terms[at + c]!);
      sum += into[at + c]!;
    }
    for (let c = 0; c < k; c++) into[at + c]! /= sum;
  }
  return { values: into, has };
}

/** The mean of p over the log's query events that have one (uniform when none has). */
function eventPrior(
  events: QueryEvents,
  { values, has }: Probs,
  k: number,
  prior: Float64Array,
): Float64Array {
  prior.fill(0);
  let scored = 0;
  for (let e = 0; e < events.n; e++) {
    const q = events.query[e]!;
    if (has[q] === 0) continue;
    scored++;
    for (let c = 0; c < k; c++) prior[c]! += values[q * k + c]!;
  }
  for (let c = 0; c < k; c++) prior[c] = scored === 0 ? 1 / k : Math.max(prior[c]! / scored, 1e-12);
  return prior;
}

/** What a signal's terms are computed from, and `terms`, the k per query they are added to. */
interface TermInputs {
  readonly events: QueryEvents;
  readonly orders: EventOrders;
  readonly probs: Probs;
  readonly k: number;
  readonly prior: Float64Array;
  readonly settings: LogContextSettings;
  readonly scratch: Scratch;
}

/** Adds β · log(M(c) / prior(c)) to each query's `terms` (see the top of this file). */
function clickTerms({ events, orders, probs, k, prior, settings, scratch }: TermInputs): void {
  const { clickQuery, clickHost, clicks } = events;
  const { terms, site, siteClicks, reached } = scratch;
  // Each site's sum of p over its click rows, and its scored click rows.
  site.fill(0);
  siteClicks.fill(0);
  // Each query's clicks by site.
  const order = orders.clicks;
  const { values, has } = probs;
  for (let i = 0; i < clicks; i++) {
    const q = clickQuery[i]!;
    if (has[q] === 0) continue;
    const h = clickHost[i]!;
    siteClicks[h]!++;
    for (let c = 0; c < k; c++) site[h * k + c]! += values[q * k + c]!;
  }
  const { clickWeight: beta, clickAlpha: alpha } = settings;
  const mix = new Float64Array(k);
  for (let from = 0; from < clicks; ) {
    const q = clickQuery[order[from]!]!;
    let to = from + 1;
    while (to < clicks && clickQuery[order[to]!] === q) to++;
    mix.fill(0);
    let weight = 0;
    for (let i = from; i < to; ) {
      const h = clickHost[order[i]!]!;
      let j = i + 1;
      while (j < to && clickHost[order[j]!] === h) j++;
      const own = j - i; // q's clicks on h
      const others = siteClicks[h]! - own * has[q]!; // a query without p is not in the site's sums
      if (others > 0) {
        for (let c = 0; c < k; c++) {
          const d = Math.max(site[h * k + c]! - own * values[q * k + c]!, 0);
          mix[c]! += (own * (d + alpha * prior[c]!)) / (others + alpha);
        }
        weight += own;
      }
      i = j;
    }
    if (weight > 0) {
      for (let c = 0; c < k; c++) terms[q * k + c]! += beta * Math.log(mix[c]! / weight / prior[c]!);
      if (beta !== 0) reached[q] = 1;
    }
    from = to;
  }
}

/** Adds γ · log(D̃(c) / prior(c)) to each query's `terms` (see the top of this file). */
function userTerms({ events, orders, probs, k, prior, settings, scratch }: TermInputs): void {
  const nq = events.texts.length;
  const { terms, sums: d, reached } = scratch;
  d.fill(0);
  const { owner, neighbour, mass } = orders.neighbours;
  const { values } = probs;
  for (let e = 0; e < owner.length; e++) {
    const from = neighbour[e]! * k;
    const at = owner[e]! * k;
    for (let c = 0; c < k; c++) d[at + c]! += values[from + c]!;
  }
  const { userWeight: gamma, userAlpha: alpha } = settings;
  for (let q = 0; q < nq; q++) {
    if (mass[q] === 0) continue;
    for (let c = 0; c < k; c++) {
      const smooth = (d[q * k + c]! + alpha * prior[c]!) / (mass[q]! + alpha);
      terms[q * k + c]! += gamma * Math.log(smooth / prior[c]!);
    }
    if (gamma !== 0) reached[q] = 1;
  }
}
