/**
 * Policy Gaussian: differentially private set union of Gopi, Gulhane, Kulkarni, Shen, Shokouhi, Yekhanin (ICML
 * 2020), Algorithm "Policy Gaussian". Users, one after the other, each add to the weight histogram H a vector of
 * ℓ2 norm at most 1 over their (≤ d) items still below the cutoff Γ, pointing at Γ: with g the items' gaps to Γ,
 * H += min(1, ‖g‖₂)·g/‖g‖₂. Then an item is kept when H + N(0, σ²) > ρ, with
 *
 *   σ = analytic Gaussian σ at (ε, δ/2) for ℓ2 sensitivity 1 (Balle & Wang 2018),
 *   ρ = max over t = 1..d of [ 1/√t + σ·Φ⁻¹((1 − δ/2)^(1/t)) ],   Γ = ρ + α·σ.
 *
 * The paper's Theorem shows the release is (ε, δ)-DP for adding or removing one user; users are processed in a uniformly random
 * order, as in the paper, drawn from the same source as the noise.
 */
import { analyticGaussianSigma, upperNormalQuantile } from "../gaussian.ts";
import { gaussianNoise } from "../random.ts";
import type { PolicyCalibration } from "./policy-laplace.ts";
import { collect, perItemDelta, type Selection, shuffled } from "./selection.ts";

export function policyGaussianRho(sigma: number, delta: number, d: number): number {
  let rho = Number.NEGATIVE_INFINITY;
  for (let t = 1; t <= d; t++) {
    rho = Math.max(rho, 1 / Math.sqrt(t) + sigma * upperNormalQuantile(perItemDelta(delta / 2, t)));
  }
  return rho;
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
    const scale = analyticGaussianSigma(epsilon, delta / 2, 1);
    const rho = policyGaussianRho(scale, delta, d);
    const gamma = rho + alpha * scale;
    return {
      scale,
      rho,
      gamma,
      usersNeeded: rho,
      facts: { "selection noise σ": scale, ρ: rho, "cutoff Γ": gamma },
    };
  },
  select(users, items, cal, random) {
    const h = new Float64Array(items);
    for (const list of shuffled(users, random)) fillL2(h, list, cal.gamma);
    const noise = gaussianNoise(random, cal.scale);
    return collect(items, (i) => h[i]! > 0 && h[i]! + noise() > cal.rho);
  },
};
