/**
 * The privacy accountant of a dp release: every mechanism that reads the data is charged here, and
 * {@link Accountant.total} turns the charges into the release's (ε, δ), user-level (docs/methods/dp.md, "Accounting").
 *
 * Two kinds of release, two ways of composing:
 *
 * - Laplace strategies and korolova: (ε, δ) charges, summed (basic sequential composition, Dwork & Roth 2014,
 *   Theorem 3.16: mechanisms run one after the other, each possibly chosen after seeing the earlier outputs,
 *   compose to (Σε, Σδ)). {@link splitBudget} divides the (ε, δ) a user asks for.
 * - Gaussian strategies (gaussian, policy-gaussian, weighted-gaussian; Gaussian counts): every step is a Gaussian
 *   mechanism on the items that the neighbouring log holds too — ρᵢ-zCDP (Bun & Steinke 2016, Proposition 1.6;
 *   discrete Gaussian: Canonne, Kamath & Steinke 2020, Theorem 14) — plus, for a thresholding, the event that an
 *   item only the added user holds passes the threshold, of probability at most δ_thr,i. zCDP composes
 *   adaptively by adding ρ (Bun & Steinke, Lemma 2.3); ρ-zCDP is (ε, δ_ρ(ε))-DP with CKS 2020's conversion
 *   ({@link zcdpDelta}); the threshold events add Σδ_thr to δ in one direction and shift ε by
 *   η = −Σ ln(1 − δ_thr,i) in the other, so the release is (ε, max(δ_ρ(ε) + Σδ_thr, δ_ρ(ε − η)))-DP.
 *   {@link gaussianPlan} divides (ε, δ) among the steps.
 *
 * The boundary stays {epsilon, delta} (`total()`), whatever the inside composes.
 */

export type Charge =
  /** An (ε, δ)-DP mechanism (basic composition). */
  | { readonly what: string; readonly kind: "dp"; readonly epsilon: number; readonly delta: number }
  /** A ρ-zCDP mechanism on the items both neighbours hold. */
  | { readonly what: string; readonly kind: "zcdp"; readonly rho: number }
  /** A Gaussian mechanism N(0, σ²) of ℓ2 sensitivity Δ on the items both neighbours hold: μ² = (Δ/σ)². */
  | { readonly what: string; readonly kind: "gaussian"; readonly mu2: number }
  /** Discrete Gaussian N_ℤ(0, σ²) on counts a user adds 1 to, on at most `coordinates` of them. */
  | {
      readonly what: string;
      readonly kind: "discrete-gaussian";
      readonly sigma: number;
      readonly coordinates: number;
    }
  /** A thresholding's chance of releasing an item only the added user holds. */
  | { readonly what: string; readonly kind: "threshold"; readonly delta: number };

export class Accountant {
  private readonly list: Charge[] = [];

  /**
   * @param zcdpEpsilon the ε at which the zCDP part (with the threshold events) is converted to (ε, δ); needed
   *   only when zCDP or threshold charges are made.
   */
  constructor(private readonly zcdpEpsilon?: number) {}

  spend(what: string, epsilon: number, delta: number): void {
    if (!(epsilon >= 0 && delta >= 0))
      throw new RangeError(`bad charge for ${what}: ε ${epsilon}, δ ${delta}`);
    this.list.push({ what, kind: "dp", epsilon, delta });
  }

  spendZcdp(what: string, rho: number): void {
    if (!(rho >= 0)) throw new RangeError(`bad charge for ${what}: ρ ${rho}`);
    this.list.push({ what, kind: "zcdp", rho });
  }

  /** A Gaussian mechanism of μ = Δ/σ (μ-GDP, and μ²/2-zCDP). */
  spendGaussian(what: string, mu2: number): void {
    if (!(mu2 >= 0)) throw new RangeError(`bad charge for ${what}: μ² ${mu2}`);
    this.list.push({ what, kind: "gaussian", mu2 });
  }

  /** Discrete Gaussian counts: a user adds 1 to at most `coordinates` of them (n/(2σ²)-zCDP). */
  spendDiscreteGaussian(what: string, sigma: number, coordinates: number): void {
    if (!(sigma > 0 && coordinates >= 1))
      throw new RangeError(`bad charge for ${what}: σ ${sigma}, n ${coordinates}`);
    this.list.push({ what, kind: "discrete-gaussian", sigma, coordinates });
  }

  spendThreshold(what: string, delta: number): void {
    if (!(delta >= 0 && delta < 1)) throw new RangeError(`bad charge for ${what}: δ ${delta}`);
    this.list.push({ what, kind: "threshold", delta });
  }

  get charges(): readonly Charge[] {
    return this.list;
  }

  /**
   * The release's (ε, δ). The Gaussian part is converted at the constructor's ε both ways — in zCDP (ρ summed,
   * {@link composedDelta}) and, when it holds only Gaussian and discrete Gaussian steps of one count σ, by its
   * exact privacy loss distribution ({@link composedPldDelta}) — and the smaller δ is taken: each is a valid bound.
   */
  total(): { epsilon: number; delta: number } {
    let epsilon = 0;
    let delta = 0;
    let rho = 0;
    let mu2 = 0;
    let zcdpOnly = false;
    const counts: { sigma: number; coordinates: number }[] = [];
    const thresholds: number[] = [];
    for (const c of this.list) {
      if (c.kind === "dp") {
        epsilon += c.epsilon;
        delta += c.delta;
      } else if (c.kind === "zcdp") {
        rho += c.rho;
        zcdpOnly = true;
      } else if (c.kind === "gaussian") {
        rho += c.mu2 / 2;
        mu2 += c.mu2;
      } else if (c.kind === "discrete-gaussian") {
        rho += c.coordinates / (2 * c.sigma * c.sigma);
        counts.push(c);
      } else thresholds.push(c.delta);
    }
    if (this.list.every((c) => c.kind === "dp")) return { epsilon, delta };
    const e = this.zcdpEpsilon;
    if (e === undefined || !(e > 0)) throw new RangeError("zCDP charges need the ε to convert them at");
    let gaussianDelta = composedDelta(rho, e, thresholds);
    if (!zcdpOnly) {
      const law = countLaw(counts);
      if (law !== null) gaussianDelta = Math.min(gaussianDelta, composedPldDelta(mu2, law, e, thresholds));
    }
    return { epsilon: epsilon + e, delta: delta + gaussianDelta };
  }
}

/**
 * The law of the counts' summed noise when every count table has the same σ (undefined: no counts); null when
 * the exact PLD is not available (unequal σ, or a support too large) and zCDP alone must do.
 */
function countLaw(counts: readonly { sigma: number; coordinates: number }[]): SumLaw | undefined | null {
  if (counts.length === 0) return undefined;
  const sigma = counts[0]!.sigma;
  if (!counts.every((c) => c.sigma === sigma)) return null;
  return (
    sumLaw(
      sigma,
      counts.reduce((n, c) => n + c.coordinates, 0),
    ) ?? null
  );
}

/**
 * As {@link composedDelta}, with the exact privacy loss distribution of the Gaussian steps (Σμᵢ² = mu2) and the
 * discrete Gaussian counts (`counts`) in place of zCDP's conversion: max(δ(ε) + Σδ_thr,i, δ(ε − η)), δ from
 * {@link pldDelta}.
 */
export function composedPldDelta(
  mu2: number,
  counts: SumLaw | undefined,
  epsilon: number,
  thresholds: readonly number[],
): number {
  return withThresholds((e) => pldDelta(mu2, e, counts), epsilon, thresholds);
}

/**
 * The δ at ε of ρ-zCDP steps whose thresholds each release an item only the added user holds with probability
 * at most δ_thr,i: max(δ_ρ(ε) + Σδ_thr,i, δ_ρ(ε − η)), η = −Σ ln(1 − δ_thr,i) (docs/methods/dp.md, "Accounting").
 */
export function composedDelta(rho: number, epsilon: number, thresholds: readonly number[]): number {
  return withThresholds((e) => zcdpDelta(rho, e), epsilon, thresholds);
}

/**
 * The release's δ at ε from the δ(·) of its Gaussian part and its thresholds' δ_thr,i (docs/methods/dp.md, "Both
 * directions"): max(δ(ε) + Σδ_thr,i, δ(ε − η)), η = −Σ ln(1 − δ_thr,i); δ(ε) alone without thresholds.
 */
function withThresholds(
  delta: (epsilon: number) => number,
  epsilon: number,
  thresholds: readonly number[],
): number {
  let sum = 0;
  let eta = 0;
  for (const t of thresholds) {
    sum += t;
    eta -= Math.log1p(-t);
  }
  if (eta === 0) return delta(epsilon);
  return Math.max(delta(epsilon) + sum, epsilon > eta ? delta(epsilon - eta) : 1);
}

/**
 * The δ at ε of a ρ-zCDP mechanism: Canonne, Kamath & Steinke, "The Discrete Gaussian for Differential Privacy"
 * (NeurIPS 2020), Corollary 13: for every α > 1 it is (ε, δ)-DP with
 *
 *     δ = exp((α − 1)(αρ − ε)) / (α − 1) · (1 − 1/α)^α,
 *
 * minimised here over α by a ternary search on ln(α − 1) (the logarithm of δ is convex in α — its second
 * derivative is 2ρ + 1/(α(α − 1)) > 0 — so unimodal in ln(α − 1)); any α the search stops at still gives a valid
 * δ. Tighter than Bun & Steinke's δ = exp(−(ε − ρ)²/(4ρ)).
 * ρ = 0 is pure 0-DP (δ = 0).
 */
export function zcdpDelta(rho: number, epsilon: number): number {
  if (rho === 0) return 0;
  // x = ln(α − 1)
  const logDelta = (x: number) => {
    const a1 = Math.exp(x);
    const a = 1 + a1;
    return a1 * (a * rho - epsilon) - x + a * Math.log1p(-1 / a);
  };
  let lo = -40;
  let hi = Math.log(Math.abs(epsilon) / rho + 10) + 2;
  for (let i = 0; i < 300 && hi - lo > 1e-13; i++) {
    const m1 = lo + (hi - lo) / 3;
    const m2 = hi - (hi - lo) / 3;
    if (logDelta(m1) <= logDelta(m2)) hi = m2;
    else lo = m1;
  }
  return Math.min(1, Math.exp(logDelta((lo + hi) / 2)));
}

/**
 * The largest ρ (to a relative 1e-12, rounded down) with composedDelta(ρ, ε, thresholds) ≤ δ; without thresholds,
 * the ρ whose zCDP is (ε, δ)-DP.
 */
export function zcdpBudget(epsilon: number, delta: number, thresholds: readonly number[] = []): number {
  const fits = (rho: number) => composedDelta(rho, epsilon, thresholds) <= delta;
  const none = () =>
    new RangeError(`no zCDP budget fits ε = ${epsilon}, δ = ${delta} beside the thresholds' δ`);
  if (!(epsilon > 0 && delta > 0 && delta < 1)) throw none();
  let lo = 0;
  let hi = epsilon;
  while (fits(hi)) hi *= 2;
  while (hi - lo > 1e-12 * hi) {
    const mid = (lo + hi) / 2;
    if (fits(mid)) lo = mid;
    else hi = mid;
    if (hi < 1e-300) throw none();
  }
  return lo;
}

import { pldDelta, type SumLaw, sumLaw } from "./pld.ts";

export interface Share {
  readonly epsilon: number;
  readonly delta: number;
}

export interface BudgetSplit {
  readonly querySelection: Share;
  readonly queryCounts: Share;
  /** Absent when clicks are not released. */
  readonly pairSelection?: Share;
  readonly pairCounts?: Share;
}

/**
 * How (ε, δ) is divided for the Laplace strategies (basic composition). Selection decides what is released at
 * all and gets most of it; counts need less (their error is relative to counts that selection already made large);
 * click pairs, the smaller product, get a quarter. With clicks: query selection 0.6ε, query counts 0.15ε, pair
 * selection 0.15ε, pair counts 0.1ε; without: 0.8ε and 0.2ε. All of δ goes to the selections (queries ¾, pairs ¼
 * with clicks): Laplace counts are pure ε-DP.
 */
export function splitBudget(epsilon: number, delta: number, clicks: boolean): BudgetSplit {
  if (!clicks) {
    return {
      querySelection: { epsilon: 0.8 * epsilon, delta },
      queryCounts: { epsilon: 0.2 * epsilon, delta: 0 },
    };
  }
  return {
    querySelection: { epsilon: 0.6 * epsilon, delta: 0.75 * delta },
    queryCounts: { epsilon: 0.15 * epsilon, delta: 0 },
    pairSelection: { epsilon: 0.15 * epsilon, delta: 0.25 * delta },
    pairCounts: { epsilon: 0.1 * epsilon, delta: 0 },
  };
}

/** One Gaussian step's part of the budget: its ρ, and for a selection its threshold's δ. */
export interface GaussianShare {
  readonly rho: number;
  readonly thresholdDelta: number;
}

export interface GaussianPlan {
  /** The ε at which the composed ρ is converted (the ε asked for). */
  readonly epsilon: number;
  /** The whole ρ of the zCDP split: the largest with composedDelta(ρ, ε, the thresholds' δ) ≤ δ. */
  readonly rho: number;
  /**
   * The factor the selections' ρ was raised by once the exact PLD showed room left (≥ 1; 1 when the PLD is not
   * available): the counts keep their zCDP-split noise and the selections take the rest.
   */
  readonly boost: number;
  readonly querySelection: GaussianShare;
  readonly queryCounts: GaussianShare;
  readonly pairSelection?: GaussianShare;
  readonly pairCounts?: GaussianShare;
}

const plans = new Map<string, GaussianPlan>();

/**
 * The split of the Gaussian strategies' budget (docs/methods/dp.md, "Accounting"). Half of δ pays for the thresholds
 * (queries ¾, click pairs ¼ with clicks), the rest for converting the composition to (ε, δ).
 *
 * 1. zCDP split: ρ is the largest with {@link composedDelta} ≤ δ. Of ρ, query selection takes
 *    {@link QUERY_SELECTION_RHO} (0.9 with clicks, 0.95 without), click-pair selection half the rest, each count
 *    table a quarter of it (all the rest without clicks). This fixes the counts' discrete Gaussian σ = √(d/(2ρ_c)).
 * 2. Exact PLD: with the counts' σ fixed, the selections' ρ is raised by the largest factor κ at which
 *    {@link composedPldDelta} still gives ≤ δ (the zCDP conversion is loose for Gaussians: at ε = 1, δ = 1e-5,
 *    d = 10, κ ≈ 1.18, query selection σ 4.42 → 4.08). The accountant's `total()` recomputes the same δ.
 *
 * A selection's share is in ρ units: its noise is σ = Δ/√(2ρ) for ℓ2 sensitivity Δ. Memoised per arguments.
 */
export function gaussianPlan(epsilon: number, delta: number, clicks: boolean, d: number): GaussianPlan {
  const key = `${epsilon} ${delta} ${clicks} ${d}`;
  const known = plans.get(key);
  if (known) return known;
  const thresholds = delta / 2;
  const qThr = clicks ? 0.75 * thresholds : thresholds;
  const pThr = clicks ? 0.25 * thresholds : 0;
  const thrs = clicks ? [qThr, pThr] : [qThr];
  const rho = zcdpBudget(epsilon, delta, thrs);
  const share = clicks ? QUERY_SELECTION_RHO.clicks : QUERY_SELECTION_RHO.noClicks;
  const rest = clicks ? (1 - share) / 4 : 1 - share;
  const selectionRho = clicks ? share * rho + 2 * rest * rho : share * rho;
  const countSigma = Math.sqrt(d / (2 * rest * rho));
  const law = sumLaw(countSigma, clicks ? 2 * d : d);
  let boost = 1;
  if (law) {
    const fits = (k: number) => composedPldDelta(2 * k * selectionRho, law, epsilon, thrs) <= delta;
    if (fits(1)) {
      let lo = 1;
      let hi = 2;
      while (fits(hi) && hi < 1e6) {
        lo = hi;
        hi *= 2;
      }
      while (hi - lo > 1e-6 * lo) {
        const mid = (lo + hi) / 2;
        if (fits(mid)) lo = mid;
        else hi = mid;
      }
      boost = lo;
    }
  }
  const plan: GaussianPlan = clicks
    ? {
        epsilon,
        rho,
        boost,
        querySelection: { rho: boost * share * rho, thresholdDelta: qThr },
        queryCounts: { rho: rest * rho, thresholdDelta: 0 },
        pairSelection: { rho: boost * 2 * rest * rho, thresholdDelta: pThr },
        pairCounts: { rho: rest * rho, thresholdDelta: 0 },
      }
    : {
        epsilon,
        rho,
        boost,
        querySelection: { rho: boost * share * rho, thresholdDelta: qThr },
        queryCounts: { rho: rest * rho, thresholdDelta: 0 },
      };
  plans.set(key, plan);
  return plan;
}

/** Query selection's share of ρ in {@link gaussianPlan}; the rest: click pairs' selection 2/4, each count table 1/4. */
export const QUERY_SELECTION_RHO = { clicks: 0.9, noClicks: 0.95 } as const;
