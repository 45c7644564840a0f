/**
 * Weighted Gaussian: the "Weighted Gaussian" update of S. Gopi, P. Gulhane, J. Kulkarni, J. H. Shen, M. Shokouhi,
 * S. Yekhanin, "Differentially Private Set Union", ICML 2020 — every user adds 1/√k to each of their k ≤ d items,
 * a vector of ℓ2 norm exactly 1, with no cutoff. An item is kept when H + N(0, σ²) > ρ, with
 *
 *   σ = analytic Gaussian σ at (ε, δ/2) for ℓ2 sensitivity 1 (Balle & Wang 2018),
 *   ρ = max over t = 1..d of [ 1/√t + σ·Φ⁻¹((1 − δ/2)^(1/t)) ]   (the same ρ as Policy Gaussian).
 *
 * Proof (docs/methods/dp.md): without a cutoff no user's update depends on anyone else's, so adding a user moves H by
 * their own vector, ℓ2 norm 1: the noisy H of items others hold is (ε, δ/2)-DP; each of the t items only the new
 * user holds has H = 1/√t and passes with probability 1 − (1 − δ/2)^(1/t), all t together with at most δ/2.
 *
 * Against Gaussian thresholding (every user counts 1 on each of ≤ d items, σ·√d) it gives a user with k < d
 * queries weight 1/√k instead of 1/√d; against Policy Gaussian it never moves budget away from an item that is
 * partly filled toward the user's long-tail items (ℓ2 descent toward Γ weighs items by their gap), which on query
 * logs is where the budget is lost (docs/results/dp.md).
 */
import { analyticGaussianSigma } from "../gaussian.ts";
import { gaussianNoise } from "../random.ts";
import { setUnionRho } from "./policy-gaussian.ts";
import { type Calibration, collect, type Selection } from "./selection.ts";

export interface WeightedCalibration extends Calibration {
  readonly sigma: number;
  readonly rho: number;
}

/** H: each user adds 1/√k to each of their k items. */
export function weightedHistogram(users: readonly Int32Array[], items: number): Float64Array {
  const h = new Float64Array(items);
  for (const list of users) {
    if (list.length === 0) continue;
    const w = 1 / Math.sqrt(list.length);
    for (const id of list) h[id]! += w;
  }
  return h;
}

function weightedCalibration(sigma: number, thresholdDelta: number, d: number): WeightedCalibration {
  const rho = setUnionRho(sigma, thresholdDelta, d);
  return { sigma, rho, usersNeeded: rho, facts: { "selection noise σ": sigma, ρ: rho } };
}

export const weightedGaussianSelection: Selection<WeightedCalibration> = {
  name: "weighted-gaussian",
  summary: "DP set union, Weighted Gaussian (Gopi et al. 2020): each user adds 1/√k to each of k ≤ d items",
  defaultD: 20,
  calibrate(epsilon, delta, d) {
    return weightedCalibration(analyticGaussianSigma(epsilon, delta / 2, 1), delta / 2, d);
  },
  gaussian: { sensitivity: () => 1, calibrateNoise: (sigma, thr, d) => weightedCalibration(sigma, thr, d) },
  score: weightedHistogram,
  select(users, items, cal, random) {
    return weightedGaussianSelection.fromSums!(weightedHistogram(users, items), items, cal, random);
  },
  fromSums(h, items, cal, random) {
    const noise = gaussianNoise(random, cal.sigma);
    return collect(items, (i) => h[i]! > 0 && h[i]! + noise() > cal.rho);
  },
};
