/**
 * Selection in rounds: the machinery of `dp-sips.ts` and `targeted.ts`. The selection's Gaussian budget is split
 * among R rounds; in round r every user puts a vector of ℓ2 norm 1 (in proportion to the items' prior, or evenly)
 * on d_r of their candidates that are not yet released — and, for a targeted design, whose noisy weight in round
 * r − 1 reached a set fraction of round r's threshold — the first d_r in the bound's ranking, or those of highest
 * noisy weight in round r − 1; an item is released in round r when its weight plus N(0, σ_r²) passes ρ_r.
 *
 * Why it is (ε, δ)-DP (docs/methods/dp.md, "Rounds"). Call an item u-only when only the added user u holds it. Take the
 * noisy weights of round r on the items others hold as that round's output (the released items are a function
 * of them). Given the earlier rounds' outputs, every other user's round-r vector is a function of their own
 * history and those outputs, so it is the same in both logs, and u adds one vector of ℓ2 norm ≤ 1 (whatever
 * u's own earlier noise was: a mixture of such shifts is dominated by one, by joint convexity of the hockey-stick
 * divergence). Round r is then a Gaussian mechanism of sensitivity 1, μ_r = 1/σ_r, and adaptive composition
 * gives μ² = Σ μ_r² = 1/σ² for the σ the plan sets for the whole selection (σ_r = σ/√f_r, Σ f_r = 1): the same
 * charge as one round. Each round's u-only items pass with probability ≤ its share of the threshold δ (any
 * weights of ℓ2 norm ≤ 1 on ≤ d_r items, `anyWeightsRho`), and the shares sum to the one threshold charge.
 */
import { analyticGaussianSigma } from "../gaussian.ts";
import { gaussianNoise, type Randomness } from "../random.ts";
import { anyWeightsRho } from "./length-weighted.ts";
import type { Calibration, Selection, UserItems } from "./selection.ts";

export interface RoundsDesign {
  /** Each round's share of the selection's ρ (they sum to 1). */
  readonly rho: readonly number[];
  /** Each round's share of the selection's threshold δ (they sum to 1). */
  readonly threshold: readonly number[];
  /** Round 1's bound for the strategy's d. */
  readonly firstD: (d: number) => number;
  /** Each later round's bound for the strategy's d (absent: d in every later round). */
  readonly laterD?: readonly ((d: number) => number)[];
  /**
   * After round 1, a user's open candidates are taken highest noisy weight of the round before first (the ones
   * nearest to passing), rather than in the bound's order.
   */
  readonly byNoisy?: boolean;
  /**
   * For each round after the first: a candidate is kept only if its noisy weight in the round before reached
   * this fraction of the round's threshold ρ_r (−∞: no filter, the released items are only removed).
   */
  readonly keep: readonly number[];
}

export interface RoundsCalibration extends Calibration {
  readonly rounds: readonly { readonly sigma: number; readonly rho: number; readonly d: number }[];
}

/** Per-round σ and ρ from the σ of the whole selection and its threshold δ. */
export function roundsCalibration(
  design: RoundsDesign,
  sigma: number,
  thresholdDelta: number,
  d: number,
): RoundsCalibration {
  if (!(sigma > 0) || !Number.isFinite(sigma)) throw new RangeError(`selection noise σ = ${sigma}`);
  const rounds = design.rho.map((f, r) => {
    const s = sigma / Math.sqrt(f);
    const dr = r === 0 ? design.firstD(d) : (design.laterD?.[r - 1]?.(d) ?? d);
    return { sigma: s, rho: anyWeightsRho(s, design.threshold[r]! * thresholdDelta, dr), d: dr };
  });
  const facts: Record<string, number> = {};
  rounds.forEach((x, r) => {
    facts[`round ${r + 1} selection noise σ`] = x.sigma;
    facts[`round ${r + 1} ρ`] = x.rho;
  });
  return { rounds, facts, usersNeeded: Math.min(...rounds.map((x) => x.rho)) };
}

/**
 * One user's weights in a round: their first `d` open candidates of `list` — in the bound's order, or (`by`) highest
 * `by` first — get a vector of ℓ2 norm 1 (∝ prior, or even), handed to `add`. The single machine and a cluster
 * worker (`../sharded-rounds.ts`, on the user's own items) both weigh a user with this, so the weights are the same.
 */
export function userRoundWeights(
  list: ArrayLike<number>,
  d: number,
  open: (id: number) => boolean,
  prior: ArrayLike<number> | undefined,
  by: ArrayLike<number> | undefined,
  mine: number[],
  add: (id: number, weight: number) => void,
): void {
  mine.length = 0;
  for (let i = 0; i < list.length; i++) {
    const id = list[i]!;
    if (by === undefined && mine.length === d) break;
    if (open(id)) mine.push(id);
  }
  if (by !== undefined && mine.length > d) {
    // Stable: equal weights keep the bound's order.
    mine.sort((a, b) => by[b]! - by[a]!);
    mine.length = d;
  }
  if (mine.length === 0) return;
  let norm = 0;
  for (const id of mine) norm += prior ? prior[id]! * prior[id]! : 1;
  const scale = 1 / Math.sqrt(norm);
  for (const id of mine) add(id, (prior ? prior[id]! : 1) * scale);
}

/** One round's weights: every user's (`userRoundWeights`), summed per item. */
function roundWeights(
  users: UserItems,
  items: number,
  d: number,
  open: (id: number) => boolean,
  prior: Float64Array | undefined,
  by?: Float64Array,
): Float64Array {
  const h = new Float64Array(items);
  const mine: number[] = [];
  const add = (id: number, w: number) => {
    h[id]! += w;
  };
  for (const list of users) userRoundWeights(list, d, open, prior, by, mine, add);
  return h;
}

/**
 * Whether item `id` is open in round `r` (0-based): not released yet and, after round 1, its noisy weight in the
 * round before (`before`, −∞ where it had none) reached the round's floor.
 */
export function openIn(
  design: RoundsDesign,
  cal: RoundsCalibration,
  r: number,
  released: Uint8Array,
  before: Float64Array | undefined,
): (id: number) => boolean {
  const floor = r === 0 ? Number.NEGATIVE_INFINITY : design.keep[r - 1]! * cal.rounds[r]!.rho;
  return (id) => released[id] === 0 && (before === undefined || before[id]! >= floor);
}

/**
 * Round `r`'s noise on its weights `h`: each item with a weight gets N(0, σ_r²), in id order, and is released
 * (`released`) when its noisy weight passes ρ_r. Returns the noisy weights (−∞ where there was no weight).
 */
export function noisyRound(
  h: Float64Array,
  cal: RoundsCalibration,
  r: number,
  random: Randomness,
  released: Uint8Array,
): Float64Array {
  const round = cal.rounds[r]!;
  const noise = gaussianNoise(random, round.sigma);
  const next = new Float64Array(h.length).fill(Number.NEGATIVE_INFINITY);
  for (let i = 0; i < h.length; i++) {
    if (h[i]! <= 0) continue;
    next[i] = h[i]! + noise();
    if (next[i]! > round.rho) released[i] = 1;
  }
  return next;
}

/** The ids marked in `released`, ascending. */
export function releasedIds(released: Uint8Array): Int32Array {
  const out: number[] = [];
  for (let i = 0; i < released.length; i++) if (released[i]) out.push(i);
  return Int32Array.from(out);
}

/** The rounds: the ids released in any of them, ascending. */
export function roundsSelect(
  design: RoundsDesign,
  users: UserItems,
  items: number,
  cal: RoundsCalibration,
  random: Randomness,
  prior: Float64Array | undefined,
): Int32Array {
  const released = new Uint8Array(items);
  // The previous round's noisy weights (−∞ where the item had no weight there).
  let noisy: Float64Array | undefined;
  cal.rounds.forEach((round, r) => {
    const before = noisy;
    const open = openIn(design, cal, r, released, before);
    const h = roundWeights(users, items, round.d, open, prior, design.byNoisy ? before : undefined);
    noisy = noisyRound(h, cal, r, random, released);
  });
  return releasedIds(released);
}

/** Round 1's weights (before noise): for the "nothing released" diagnostics. */
export function firstRoundWeights(
  design: RoundsDesign,
  users: UserItems,
  items: number,
  d: number,
  prior: Float64Array | undefined,
): Float64Array {
  return roundWeights(users, items, design.firstD(d), () => true, prior);
}

/**
 * A round strategy: its design, how many ranked candidates per user it reads (≥ round 1's d), and a public prior
 * to weigh by (absent: even weights).
 */
export function roundsStrategy(
  design: RoundsDesign,
  info: { name: string; summary: string; defaultD: number; candidates: (d: number) => number },
  prior?: (key: string) => number,
): Selection<RoundsCalibration> {
  const weights = (p: Float64Array | undefined): Float64Array | undefined => {
    if (prior && !p) throw new Error(`${info.name} selection needs the items' prior (Selection.prior)`);
    return prior ? p : undefined;
  };
  return {
    ...info,
    ...(prior ? { prior } : {}),
    rounds: design,
    calibrate: (epsilon, delta, d) =>
      roundsCalibration(design, analyticGaussianSigma(epsilon, delta / 2, 1), delta / 2, d),
    gaussian: {
      sensitivity: () => 1,
      calibrateNoise: (sigma, thr, d) => roundsCalibration(design, sigma, thr, d),
    },
    score: (users, items, p, d) => firstRoundWeights(design, users, items, d, weights(p)),
    select: (users, items, cal, random, p) => roundsSelect(design, users, items, cal, random, weights(p)),
  };
}
