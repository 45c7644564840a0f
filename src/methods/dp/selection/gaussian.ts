/**
 * Gaussian thresholding on distinct-user counts (Google's GaussianPartitionSelection; the "count Gaussian"
 * baseline of Gopi et al. 2020): each user counts at most once per item and for at most d items, so the count
 * vector has ℓ2 sensitivity √d. Half of δ pays for the noise, half for the threshold:
 *
 *   σ = analytic Gaussian σ at (ε, δ/2) for sensitivity √d (Balle & Wang 2018),
 *   T = 1 + σ·Φ⁻¹((1 − δ/2)^(1/d)),
 *
 * so that each of a user's d own items (n = 1) passes with probability 1 − (1 − δ/2)^(1/d), all d together with
 * probability δ/2. Derivation: docs/methods/dp.md.
 */
import { analyticGaussianSigma, upperNormalQuantile } from "../gaussian.ts";
import { gaussianNoise } from "../random.ts";
import { type Calibration, collect, perItemDelta, type Selection, userCounts } from "./selection.ts";

export interface GaussianCalibration extends Calibration {
  readonly sigma: number;
  readonly T: number;
}

export function gaussianThreshold(epsilon: number, delta: number, d: number): { sigma: number; T: number } {
  const sigma = analyticGaussianSigma(epsilon, delta / 2, Math.sqrt(d));
  return { sigma, T: thresholdFor(sigma, delta / 2, d) };
}

/** T for noise σ such that a user's d items held by them alone pass with probability δ_thr in all. */
const thresholdFor = (sigma: number, thresholdDelta: number, d: number): number =>
  1 + sigma * upperNormalQuantile(perItemDelta(thresholdDelta, d));

const calibration = (sigma: number, T: number): GaussianCalibration => ({
  sigma,
  T,
  usersNeeded: T,
  facts: { "selection noise σ": sigma, "selection threshold T": T },
});

export const gaussianSelection: Selection<GaussianCalibration> = {
  name: "gaussian",
  summary: "Gaussian thresholding of distinct-user counts, analytic Gaussian σ (Balle & Wang 2018)",
  defaultD: 10,
  calibrate(epsilon, delta, d) {
    const { sigma, T } = gaussianThreshold(epsilon, delta, d);
    return calibration(sigma, T);
  },
  gaussian: {
    sensitivity: (d) => Math.sqrt(d),
    calibrateNoise: (sigma, thr, d) => calibration(sigma, thresholdFor(sigma, thr, d)),
  },
  fromSums(n, items, cal, random) {
    const noise = gaussianNoise(random, cal.sigma);
    return collect(items, (i) => n[i]! + noise() > cal.T);
  },
  select(users, items, cal, random) {
    return gaussianSelection.fromSums!(userCounts(users, items), items, cal, random);
  },
};
