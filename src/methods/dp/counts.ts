/**
 * Fresh noisy counts for the released items: the number of distinct users holding each item (after the
 * contribution bound: at most once per item, at most d items per user) plus exact discrete noise (`discrete.ts`).
 *
 * - Discrete Laplace, scale d/ε: ℓ1 sensitivity d, ε-DP (pure; no δ).
 * - Discrete Gaussian, σ = √(d/(2ρ)) for the count's share ρ of the Gaussian plan: ℓ2 sensitivity √d, so ρ-zCDP
 *   (Canonne, Kamath & Steinke 2020, Theorem 14), composed with the other steps by the accountant.
 *
 * Counts are integers; a negative one is written as 0 (post-processing, free in privacy).
 */
import { discreteGaussian, discreteLaplace } from "./discrete.ts";
import type { Randomness } from "./random.ts";
import { type UserItems, userCounts } from "./selection/selection.ts";

export interface CountNoise {
  readonly kind: "discrete Laplace" | "discrete Gaussian";
  /** Laplace scale or Gaussian σ. */
  readonly scale: number;
}

/** Discrete Gaussian noise for ρ-zCDP counts of users who each count at most once on at most d items. */
export function gaussianCountNoise(rho: number, d: number): CountNoise {
  return { kind: "discrete Gaussian", scale: Math.sqrt(d / (2 * rho)) };
}

/** Discrete Laplace noise for ε-DP counts of users who each count at most once on at most d items. */
export function laplaceCountNoise(epsilon: number, d: number): CountNoise {
  return { kind: "discrete Laplace", scale: d / epsilon };
}

/** Noisy distinct-user counts of the selected items, in the order of `selected`. */
export function noisyCounts(
  users: UserItems,
  items: number,
  selected: Int32Array,
  noise: CountNoise,
  random: Randomness,
): number[] {
  return noisyCountsOf(userCounts(users, items), selected, noise, random);
}

/** Noisy counts of the selected items from their distinct-user counts `n` (by id), in the order of `selected`. */
export function noisyCountsOf(
  n: ArrayLike<number>,
  selected: Int32Array,
  noise: CountNoise,
  random: Randomness,
): number[] {
  const sample =
    noise.kind === "discrete Gaussian"
      ? discreteGaussian(random, noise.scale)
      : discreteLaplace(random, noise.scale);
  return Array.from(selected, (id) => Math.max(0, n[id]! + sample()));
}
