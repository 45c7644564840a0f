/**
 * Policy Gaussian: differentially private set union of Gopi, Gulhane, Kulkarni, Shen, Shokouhi, Yekhanin (ICML
 * 2020), Algorithm "Policy Gaussian". Users, one after the other, each add to the weight histogram H a vector of
 * ℓ2 norm at most 1 over their (≤ d) items still below the cutoff Γ, pointing at Γ: with g the items' gaps to Γ,
 * H += min(1, ‖g‖₂)·g/‖g‖₂. Then an item is kept when H + N(0, σ²) > ρ, with
 *
 *   σ = analytic Gaussian σ at (ε, δ/2) for ℓ2 sensitivity 1 (Balle & Wang 2018),
 *   ρ = max over t = 1..d of [ 1/√t + σ·Φ⁻¹((1 − δ/2)^(1/t)) ],   Γ = ρ + α·σ.
 *
 * The paper's Theorem shows the release is (ε, δ)-DP for adding or removing one user; users are processed in a
 * uniformly random order, as in the paper, drawn from the same source as the noise. Inside a release the
 * accountant gives it a σ and a threshold δ of its own (`gaussian.calibrateNoise`): the ℓ2 descent moves the
 * histogram of the items both neighbours hold by at most 1 (the paper's contraction lemma), so the noisy
 * histogram is 1/(2σ²)-zCDP there (docs/methods/dp.md, "Accounting").
 *
 * Checked against the paper (docs/results/dp.md): on generated query logs a smaller α releases less, not more
 * (the ℓ2 step weighs a user's items by their gap to Γ, so the budget goes to their untouched long-tail queries
 * rather than to a mid-tail query already part-way up); Weighted Gaussian beats it at every d and α tried.
 */
import { analyticGaussianSigma, upperNormalQuantile } from "../gaussian.ts";
import { gaussianNoise } from "../random.ts";
import type { PolicyCalibration } from "./policy-laplace.ts";
import { collect, perItemDelta, type Selection, shuffled } from "./selection.ts";

/**
 * The set-union threshold for noise σ: ρ = max over t = 1..d of [1/√t + σ·Φ⁻¹((1 − δ_thr)^(1/t))], so that the
 * items a user holds alone — t ≤ d of them, carrying weights of ℓ2 norm at most 1, the worst case being 1/√t each
 * (Gopi et al. 2020) — pass ρ, any of them, with probability at most δ_thr. Standalone (ε, δ): δ_thr = δ/2.
 */
export function setUnionRho(sigma: number, thresholdDelta: number, d: number): number {
  let rho = Number.NEGATIVE_INFINITY;
  for (let t = 1; t <= d; t++) {
    rho = Math.max(rho, 1 / Math.sqrt(t) + sigma * upperNormalQuantile(perItemDelta(thresholdDelta, t)));
  }
  return rho;
}

function policyCalibration(
  sigma: number,
  thresholdDelta: number,
  d: number,
  alpha: number,
): PolicyCalibration {
  return withCutoff(sigma, setUnionRho(sigma, thresholdDelta, d), alpha);
}

/** A Gaussian policy's calibration: noise σ, threshold ρ and the cutoff Γ = ρ + α·σ. */
export function withCutoff(sigma: number, rho: number, alpha: number): PolicyCalibration {
  const gamma = rho + alpha * sigma;
  return {
    scale: sigma,
    rho,
    gamma,
    usersNeeded: rho,
    facts: { "selection noise σ": sigma, ρ: rho, "cutoff Γ": gamma },
  };
}

/** One user's ℓ2 step on H toward the cutoff Γ, norm at most 1. */
export function fillL2(h: Float64Array, items: Int32Array, gamma: number): void {
  let norm2 = 0;
  for (const id of items) {
    const gap = gamma - h[id]!;
    if (gap > 0) norm2 += gap * gap;
  }
  if (norm2 === 0) return;
  const norm = Math.sqrt(norm2);
  const scale = Math.min(1, norm) / norm;
  for (const id of items) {
    const gap = gamma - h[id]!;
    if (gap > 0) h[id]! += scale * gap;
  }
}

export const policyGaussianSelection: Selection<PolicyCalibration> = {
  name: "policy-gaussian",
  summary: "DP set union, Policy Gaussian (Gopi et al. 2020): unit ℓ2 budget per user, cutoff Γ",
  defaultD: 20,
  calibrate(epsilon, delta, d, alpha) {
    return policyCalibration(analyticGaussianSigma(epsilon, delta / 2, 1), delta / 2, d, alpha);
  },
  gaussian: { sensitivity: () => 1, calibrateNoise: policyCalibration },
  select(users, items, cal, random) {
    const h = new Float64Array(items);
    for (const list of shuffled(users, random)) fillL2(h, list, cal.gamma);
    const noise = gaussianNoise(random, cal.scale);
    return collect(items, (i) => h[i]! > 0 && h[i]! + noise() > cal.rho);
  },
};
