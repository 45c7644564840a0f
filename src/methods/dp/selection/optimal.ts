/**
 * Optimal partition selection: D. Desfontaines, J. Voss, B. Gipson, C. Mandayam, "Differentially private
 * partition selection", PoPETs 2022(1) (arXiv 2006.03684), Theorem 1. An item held by n distinct users is kept
 * with probability p(n), the largest function with p(0) = 0 that satisfies (ε′, δ′)-DP for adding or removing one
 * user who holds it:
 *
 *   p(n) = min( p(n−1)·e^ε′ + δ′,  1 − e^(−ε′)·(1 − p(n−1) − δ′),  1 ),   ε′ = ε/d,  δ′ = δ/d.
 *
 * A user holds at most d items, so basic composition over their d items gives (ε, δ). The per-item split is the
 * same as Google's `select_partition.go`; that library switches to Gaussian thresholding for d > 3 because the
 * ε/d split makes this strategy lose to √d sensitivity there (see docs/methods/dp.md and docs/results/dp.md).
 */
import { type Calibration, collect, type Selection, userCounts } from "./selection.ts";

export interface OptimalCalibration extends Calibration {
  readonly epsilon: number;
  readonly delta: number;
}

/** p(0..) by the recurrence, up to the first n with p(n) = 1 (or maxN). */
export function keepProbabilities(
  epsilon: number,
  delta: number,
  maxN = Number.MAX_SAFE_INTEGER,
): Float64Array {
  const up = Math.exp(epsilon);
  const down = Math.exp(-epsilon);
  const p: number[] = [0];
  for (let n = 1; n <= maxN && p[n - 1]! < 1; n++) {
    const prev = p[n - 1]!;
    p.push(Math.min(prev * up + delta, 1 - down * (1 - prev - delta), 1));
    if (p.length > 1e8) throw new RangeError(`optimal selection: p(n) does not reach 1 within 1e8 users`);
  }
  return Float64Array.from(p);
}

export const optimalSelection: Selection<OptimalCalibration> = {
  name: "optimal",
  summary: "optimal partition selection, keep with probability p(n) (Desfontaines et al. 2022)",
  defaultD: 1,
  calibrate(epsilon, delta, d) {
    const e = epsilon / d;
    const dd = delta / d;
    const p = keepProbabilities(e, dd);
    const half = p.findIndex((x) => x >= 0.5);
    return {
      epsilon: e,
      delta: dd,
      usersNeeded: half,
      facts: {
        "per-item ε′": e,
        "per-item δ′": dd,
        "users for p ≥ ½": half,
        "users for p = 1": p.length - 1,
      },
    };
  },
  select(users, items, cal, random) {
    return optimalSelection.fromSums!(userCounts(users, items), items, cal, random);
  },
  fromSums(n, items, cal, random) {
    const p = keepProbabilities(cal.epsilon, cal.delta);
    const sure = p.length - 1;
    return collect(items, (i) => n[i]! >= sure || random.uniform() < p[n[i]!]!);
  },
};
