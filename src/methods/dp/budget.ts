/**
 * Noise scale and threshold for the Korolova et al. (WWW 2009) release, from (ε, δ, d). See docs/dp.md.
 *
 * A user contributes at most d query events and d clicks after limiting, so one user changes the vector of
 * query counts and the vector of (query, URL) click counts by at most d each in L1 norm.
 * - Counts: Lap(b) on query counts costs d/b, on click counts another d/b; ε = 2d/b, so b = 2d/ε.
 * - Threshold: a query (or pair) present only because of one user has count ≤ d and is released with
 *   probability ½·exp(−(K − d)/b) when K ≥ d; at most d of them, so the failure probability is at most
 *   (d/2)·exp((d − K)/b) — the paper's δ bound. Half of δ goes to queries, half to click pairs:
 *   (d/2)·exp((d − K)/b) ≤ δ/2  ⇔  K ≥ d − b·ln(δ/d).
 */

export interface DpBudget {
  readonly epsilon: number;
  readonly delta: number;
  readonly d: number;
  /** Laplace scale for both query and click counts. */
  readonly b: number;
  /** Release threshold for noisy query counts and noisy click counts. */
  readonly K: number;
}

/** Noise scale b = 2d/ε. */
export function noiseScale(epsilon: number, d: number): number {
  return (2 * d) / epsilon;
}

/** Threshold K = max(d, d − b·ln(δ/d)): each of queries and click pairs gets δ/2. */
export function releaseThreshold(delta: number, d: number, b: number): number {
  return Math.max(d, d - b * Math.log(delta / d));
}

/** The probability bound the threshold achieves for one kind (queries or pairs): (d/2)·exp((d − K)/b). */
export function thresholdFailure(d: number, b: number, K: number): number {
  return (d / 2) * Math.exp((d - K) / b);
}

export function budget(epsilon: number, delta: number, d: number): DpBudget {
  const b = noiseScale(epsilon, d);
  return { epsilon, delta, d, b, K: releaseThreshold(delta, d, b) };
}
