/**
 * The interface of a partition-selection strategy: which queries (or query-click pairs) may appear in a
 * differentially private release at all. Each user contributes a set of at most d distinct items (the
 * contribution bound, applied by `../contributions.ts` before a strategy sees the data); a strategy
 * calibrates its noise and threshold from (ε, δ, d) and selects items. Everything a strategy returns is a
 * function of the items' ids and the noise: it never sees user ids or text.
 */
import type { Randomness } from "../random.ts";
import type { RoundsDesign } from "./rounds.ts";

/** Each user's distinct item ids (at most d), users in a fixed order that does not depend on the data of others. */
export type UserItems = readonly Int32Array[];

export interface Calibration {
  /** The numbers a reader needs to check the threshold (noise scale, threshold, …), for the summary. */
  readonly facts: Readonly<Record<string, number>>;
  /**
   * About how many distinct users (each giving the item their whole contribution) an item needs to be released
   * with probability ½: for the "nothing released" advice.
   */
  readonly usersNeeded: number;
}

export interface Selection<C extends Calibration = Calibration> {
  readonly name: string;
  readonly summary: string;
  /**
   * The contribution bound d when `--d` is not given: the d at which this strategy released most on generated
   * 100k-user logs at ε = 1, δ = 1e-5 with clicks (docs/methods/dp.md, "Parameters and defaults").
   */
  readonly defaultD: number;
  /**
   * How many of each user's ranked items the strategy reads (default d), for strategies that choose each user's
   * ≤ d items round by round among more candidates (`rounds.ts`). The ranking is the bound's (prior, then
   * frequency); counts are then taken over each user's first d candidates among the released items.
   */
  readonly candidates?: (d: number) => number;
  /** The default α of a strategy with a cutoff Γ = ρ + α·(noise scale), when not 5. */
  readonly defaultAlpha?: number;
  /** Noise and threshold at (ε, δ) for contributions of at most d distinct items; throws RangeError if unusable. */
  calibrate(epsilon: number, delta: number, d: number, alpha: number): C;
  /**
   * What the threshold is compared with before noise, per item, when that is not the distinct-user count (the
   * weighted histogram): the "nothing released" advice compares its largest value with `usersNeeded`.
   */
  readonly score?: (
    users: UserItems,
    items: number,
    prior: Float64Array | undefined,
    d: number,
  ) => Float64Array;
  /**
   * Strategies that weigh items by a public prior: a positive number per item from its key alone (its text, never
   * who holds it). The contribution bound then keeps each user's d items of highest prior (ties: most often
   * first), and the caller hands the items' priors to `score` and `select`. A function of public constants, so it
   * changes no one else's set or weights.
   */
  readonly prior?: (key: string) => number;
  /**
   * Strategies that add Gaussian noise: the ℓ2 sensitivity of their histogram on the items both neighbours hold,
   * and the calibration for a given noise σ and a given chance `thresholdDelta` that any item only the added user
   * holds passes the threshold. The accountant composes such strategies in zCDP (`../accountant.ts`).
   */
  readonly gaussian?: {
    sensitivity(d: number): number;
    calibrateNoise(sigma: number, thresholdDelta: number, d: number, alpha: number): C;
  };
  /**
   * Strategies whose selection reads the users only through one sum over users — each user's `score` vector, or 1
   * on each of their items when there is no `score` (the distinct-user counts) — select from that sum here, and
   * `select` is this of the sum over `users`. A cluster sums the vectors across shards and selects with it.
   */
  readonly fromSums?: (sums: ArrayLike<number>, items: number, cal: C, random: Randomness) => Int32Array;
  /**
   * Strategies that select in rounds (`rounds.ts`): their design, which a cluster runs a pass per round with, each
   * round's open items and their noisy weights handed to the workers.
   */
  readonly rounds?: RoundsDesign;
  /** The ids of the selected items, ascending. */
  select(users: UserItems, items: number, cal: C, random: Randomness, prior?: Float64Array): Int32Array;
}

/** How many distinct users hold each item. */
export function userCounts(users: UserItems, items: number): Int32Array {
  const n = new Int32Array(items);
  for (const list of users) for (const id of list) n[id]!++;
  return n;
}

/** −expm1(log1p(−x)/t) = 1 − (1 − x)^(1/t), accurate for tiny x. */
export function perItemDelta(x: number, t: number): number {
  return -Math.expm1(Math.log1p(-x) / t);
}

/**
 * The users in a uniformly random order (Fisher–Yates on `random`'s bits, rejection sampling so each index is
 * exactly uniform). The DP set union policies process users in random order (as Gopi et al. 2020 do), so
 * that no one's place in the log decides whose budget fills the cutoff first.
 */
export function shuffled(users: UserItems, random: Randomness): UserItems {
  const out = users.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = uniformBelow(random, i + 1);
    const t = out[i]!;
    out[i] = out[j]!;
    out[j] = t;
  }
  return out;
}

/** A uniform integer in [0, n), n ≤ 2³², from 32-bit words without modulo bias. */
export function uniformBelow(random: Randomness, n: number): number {
  const limit = 0x100000000 - (0x100000000 % n);
  for (;;) {
    const x = random.uint32();
    if (x < limit) return x % n;
  }
}

/** The ids i with keep(i) true, ascending. */
export function collect(items: number, keep: (id: number) => boolean): Int32Array {
  const out: number[] = [];
  for (let i = 0; i < items; i++) if (keep(i)) out.push(i);
  return Int32Array.from(out);
}
