/**
 * Policy Laplace: differentially private set union of S. Gopi, P. Gulhane, J. Kulkarni, J. H. Shen, M. Shokouhi,
 * S. Yekhanin, "Differentially Private Set Union", ICML 2020 (arXiv 2002.09745), Algorithm "Policy Laplace".
 * Users, one after the other, each spend a unit ℓ1 budget on a weight histogram H over their (≤ d) items: only
 * items still below the cutoff Γ receive weight, and the budget goes first to the items closest to Γ, raising all
 * of the user's remaining items equally until the smallest gap is filled (water-filling). Then an item is kept
 * when H + Lap(1/ε) > ρ, with
 *
 *   ρ = max over t = 1..d of [ 1/t + (1/ε)·ln(1/(2·(1 − (1 − δ)^(1/t)))) ],   Γ = ρ + α/ε.
 *
 * The paper's Theorem (policy with a cutoff Γ ≥ ρ) shows the release is (ε, δ)-DP for adding or removing one
 * user; users are processed in a uniformly random order, as in the paper, drawn from the same source as the noise.
 */
import { laplaceNoise } from "../random.ts";
import { type Calibration, collect, perItemDelta, type Selection, shuffled } from "./selection.ts";

export interface PolicyCalibration extends Calibration {
  /** Noise scale (Laplace b or Gaussian σ). */
  readonly scale: number;
  readonly rho: number;
  readonly gamma: number;
}

export function policyLaplaceRho(epsilon: number, delta: number, d: number): number {
  let rho = Number.NEGATIVE_INFINITY;
  for (let t = 1; t <= d; t++) {
    rho = Math.max(rho, 1 / t + (1 / epsilon) * Math.log(1 / (2 * perItemDelta(delta, t))));
  }
  return rho;
}

/** One user's ℓ1 water-filling step on H (the items' current weights), cutoff Γ, budget 1. */
export function fillL1(h: Float64Array, items: Int32Array, gamma: number): void {
  const open = Array.from(items).filter((id) => h[id]! < gamma);
  open.sort((a, b) => h[b]! - h[a]!); // smallest gap first
  let budget = 1;
  let raised = 0; // how much every item still open has been raised so far
  for (let i = 0; i < open.length; i++) {
    const gap = gamma - h[open[i]!]! - raised;
    const left = open.length - i;
    if (gap * left < budget) {
      budget -= gap * left;
      raised += gap;
      h[open[i]!] = gamma;
    } else {
      const add = raised + budget / left;
      for (let j = i; j < open.length; j++) h[open[j]!]! += add;
      return;
    }
  }
}

export const policyLaplaceSelection: Selection<PolicyCalibration> = {
  name: "policy-laplace",
  summary: "DP set union, Policy Laplace (Gopi et al. 2020): unit ℓ1 budget per user, cutoff Γ",
  defaultD: 1,
  calibrate(epsilon, delta, d, alpha) {
    const rho = policyLaplaceRho(epsilon, delta, d);
    const scale = 1 / epsilon;
    const gamma = rho + alpha * scale;
    return {
      scale,
      rho,
      gamma,
      usersNeeded: rho,
      facts: { "selection noise b": scale, ρ: rho, "cutoff Γ": gamma },
    };
  },
  select(users, items, cal, random) {
    const h = new Float64Array(items);
    for (const list of shuffled(users, random)) fillL1(h, list, cal.gamma);
    const noise = laplaceNoise(random, cal.scale);
    return collect(items, (i) => h[i]! > 0 && h[i]! + noise() > cal.rho);
  },
};
