/**
 * Laplace thresholding on distinct-user counts, as Google's differential-privacy library does it
 * (LaplacePartitionSelection): each user counts at most once per item and for at most d items, so the count
 * vector has ℓ1 sensitivity d and ℓ∞ sensitivity 1. Noise Lap(d/ε); an item is kept when n + Lap(d/ε) > T with
 *
 *   δ′ = 1 − (1 − δ)^(1/d),   T = 1 − (d/ε)·ln(2δ′),
 *
 * so that an item held by one user alone (n = 1) is kept with probability ½·exp((1 − T)/(d/ε)) = δ′, and the
 * user's d such items with probability 1 − (1 − δ′)^d = δ. Derivation: docs/methods/dp.md.
 */
import { laplaceNoise } from "../random.ts";
import { type Calibration, collect, perItemDelta, type Selection, userCounts } from "./selection.ts";

export interface LaplaceCalibration extends Calibration {
  readonly b: number;
  readonly T: number;
}

export function laplaceThreshold(epsilon: number, delta: number, d: number): { b: number; T: number } {
  const b = d / epsilon;
  return { b, T: 1 - b * Math.log(2 * perItemDelta(delta, d)) };
}

export const laplaceSelection: Selection<LaplaceCalibration> = {
  name: "laplace",
  summary: "Laplace thresholding of distinct-user counts (Google's LaplacePartitionSelection)",
  defaultD: 1,
  calibrate(epsilon, delta, d) {
    const { b, T } = laplaceThreshold(epsilon, delta, d);
    return { b, T, usersNeeded: T, facts: { "selection noise b": b, "selection threshold T": T } };
  },
  fromSums(n, items, cal, random) {
    const noise = laplaceNoise(random, cal.b);
    return collect(items, (i) => n[i]! + noise() > cal.T);
  },
  select(users, items, cal, random) {
    return laplaceSelection.fromSums!(userCounts(users, items), items, cal, random);
  },
};
