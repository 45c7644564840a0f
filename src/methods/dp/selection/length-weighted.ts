/**
 * Length-weighted Gaussian: Weighted Gaussian set union (Gopi et al., ICML 2020) with a public prior on the
 * weights. Every user spreads a vector of ℓ2 norm exactly 1 over their k ≤ d items, not evenly (1/√k each) but in
 * proportion to a fixed function of each item's own text: 1/(words in the query). Short queries are the shared
 * ones (head queries are one or two words; a query of six words is almost always one person's), so the weight a
 * user would spend on their long, unshared queries goes to the queries others also type. An item is kept when
 * H + N(0, σ²) > ρ.
 *
 * Why it is still (ε, δ)-DP (docs/methods/dp.md, "length-weighted"): a user's weights are a function of their own items
 * and of public constants only (the words of each item), so adding a user moves H by their own vector, ℓ2 norm 1,
 * and changes no one else's — the sensitivity argument of Weighted Gaussian unchanged. What changes is the
 * threshold: the items only the added user holds no longer carry equal weights, and for unequal weights the
 * max-over-t formula of Weighted Gaussian (`setUnionRho`) can be exceeded (one item near 1 beside many tiny ones,
 * at small σ). `anyWeightsRho` bounds the chance that any of them passes for every weight vector of ℓ2 norm ≤ 1
 * on ≤ d items, by a union bound and a concave majorant of the per-item chance (see below).
 *
 * Measured before it became the default (docs/results/dp.md): on generated 100k-user logs (seed 7, not the
 * benchmark's seed 5) the expected number of released queries at ε = 1, δ = 1e-5 rose by 30% over uniform
 * weights; on the shared AOL subset at ε = 3 and 8, by 50–57%. Weighting by the user's own repeat count as well
 * helped on the generated logs and not on AOL, so it is not used.
 */
import { analyticGaussianSigma, normalCdf } from "../gaussian.ts";
import { gaussianNoise } from "../random.ts";
import { setUnionRho } from "./policy-gaussian.ts";
import { type Calibration, collect, type Selection } from "./selection.ts";

export interface LengthWeightedCalibration extends Calibration {
  readonly sigma: number;
  readonly rho: number;
}

/**
 * The public prior of an item: 1/(words in its query), from the item's own text only. A pair's key is
 * `query\turl`: its query's words.
 */
export function lengthPrior(key: string): number {
  const tab = key.indexOf("\t");
  const end = tab < 0 ? key.length : tab;
  let words = 0;
  let inWord = false;
  for (let c = 0; c < end; c++) {
    const space = key.charCodeAt(c) === 32;
    if (!space && !inWord) words++;
    inWord = !space;
  }
  return 1 / Math.max(1, words);
}

/** H: each user adds prior/‖prior over their items‖₂ to each of their items (a vector of ℓ2 norm exactly 1). */
export function lengthWeightedHistogram(
  users: readonly Int32Array[],
  items: number,
  prior: Float64Array,
): Float64Array {
  const h = new Float64Array(items);
  for (const list of users) {
    if (list.length === 0) continue;
    let norm = 0;
    for (const id of list) norm += prior[id]! * prior[id]!;
    const scale = 1 / Math.sqrt(norm);
    for (const id of list) h[id]! += prior[id]! * scale;
  }
  return h;
}

/** Grid of the concave majorant: s = w² in steps of 1/GRID. */
const GRID = 4096;

/**
 * An upper bound, for every weight vector w of ℓ2 norm ≤ 1 with t ≤ d positive entries, on the chance that any
 * w_j + N(0, σ²) exceeds ρ. With g(s) = P(√s + N > ρ) = Φ((√s − ρ)/σ) for s = w_j² ∈ [0, 1]:
 *
 *   P(any passes) ≤ Σ_j g(s_j)                 (union bound)
 *                ≤ Σ_j G(s_j)                 (G ≥ g: the upper concave hull of the step function that takes
 *                                              g's value at the right end of each grid cell; g is increasing)
 *                ≤ t·G((Σ_j s_j)/t) ≤ t·G(1/t)  (Jensen; G is non-decreasing, its maximum being at s = 1)
 *
 * and the bound is the largest t·G(1/t) over t = 1..d. Equal weights 1/√t (Weighted Gaussian's case) are one
 * such vector, so this is never below what `setUnionRho`'s ρ guarantees for them, up to the union bound.
 */
export function anyWeightsPassBound(sigma: number, rho: number, d: number): number {
  const g = (s: number): number => normalCdf((Math.sqrt(s) - rho) / sigma);
  // Upper hull of the points (k/GRID, g((k+1)/GRID)) for k < GRID and (1, g(1)), left to right.
  const xs: number[] = [];
  const ys: number[] = [];
  for (let k = 0; k <= GRID; k++) {
    const x = k / GRID;
    const y = g(Math.min(GRID, k + 1) / GRID);
    while (xs.length >= 2) {
      const n = xs.length;
      const cross =
        (xs[n - 1]! - xs[n - 2]!) * (y - ys[n - 2]!) - (ys[n - 1]! - ys[n - 2]!) * (x - xs[n - 2]!);
      if (cross < 0) break; // a right turn: the middle point stays on the upper hull
      xs.pop();
      ys.pop();
    }
    xs.push(x);
    ys.push(y);
  }
  const hull = (s: number): number => {
    let i = 1;
    while (i < xs.length - 1 && xs[i]! < s) i++;
    const x0 = xs[i - 1]!;
    const x1 = xs[i]!;
    return ys[i - 1]! + ((ys[i]! - ys[i - 1]!) * (s - x0)) / (x1 - x0);
  };
  let worst = 0;
  for (let t = 1; t <= d; t++) worst = Math.max(worst, t * hull(1 / t));
  return worst;
}

/**
 * The smallest ρ (to 1e-9 relative) at which `anyWeightsPassBound` is at most δ_thr: bisection, the bound
 * falling as ρ rises. Starts from Weighted Gaussian's ρ, which holds for equal weights only.
 */
export function anyWeightsRho(sigma: number, thresholdDelta: number, d: number): number {
  const key = `${sigma} ${thresholdDelta} ${d}`;
  let rho = rhos.get(key);
  if (rho === undefined) {
    rho = bisectRho(sigma, thresholdDelta, d);
    if (rhos.size > 1000) rhos.clear();
    rhos.set(key, rho);
  }
  return rho;
}

/** anyWeightsRho's values: a pure function, asked again for every release with the same parameters. */
const rhos = new Map<string, number>();

function bisectRho(sigma: number, thresholdDelta: number, d: number): number {
  let lo = setUnionRho(sigma, thresholdDelta, d) - sigma;
  let hi = lo + sigma;
  while (anyWeightsPassBound(sigma, hi, d) > thresholdDelta) hi += sigma;
  while (hi - lo > 1e-9 * hi) {
    const mid = (lo + hi) / 2;
    if (anyWeightsPassBound(sigma, mid, d) > thresholdDelta) lo = mid;
    else hi = mid;
  }
  return hi;
}

function required(prior: Float64Array | undefined): Float64Array {
  if (!prior) throw new Error("length-weighted selection needs the items' prior (Selection.prior)");
  return prior;
}

function calibration(sigma: number, thresholdDelta: number, d: number): LengthWeightedCalibration {
  if (!(sigma > 0) || !Number.isFinite(sigma)) throw new RangeError(`selection noise σ = ${sigma}`);
  const rho = anyWeightsRho(sigma, thresholdDelta, d);
  return { sigma, rho, usersNeeded: rho, facts: { "selection noise σ": sigma, ρ: rho } };
}

export const lengthWeightedSelection: Selection<LengthWeightedCalibration> = {
  name: "length-weighted",
  summary:
    "Weighted Gaussian set union with a public prior: each user spreads a unit ℓ2 weight over their ≤ d queries in proportion to 1/(words in the query)",
  defaultD: 10,
  prior: lengthPrior,
  calibrate(epsilon, delta, d) {
    // Standalone (no accountant): the analytic Gaussian σ at (ε, δ/2), the other δ/2 for the threshold.
    return calibration(analyticGaussianSigma(epsilon, delta / 2, 1), delta / 2, d);
  },
  gaussian: { sensitivity: () => 1, calibrateNoise: (sigma, thr, d) => calibration(sigma, thr, d) },
  score: (users, items, prior) => lengthWeightedHistogram(users, items, required(prior)),
  select(users, items, cal, random, prior) {
    return lengthWeightedSelection.fromSums!(
      lengthWeightedHistogram(users, items, required(prior)),
      items,
      cal,
      random,
    );
  },
  fromSums(h, items, cal, random) {
    const noise = gaussianNoise(random, cal.sigma);
    return collect(items, (i) => h[i]! > 0 && h[i]! + noise() > cal.rho);
  },
};
