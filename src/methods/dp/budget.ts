/**
 * Noise scale and threshold for the Korolova et al. (WWW 2009) release, from (ε, δ, d). See docs/methods/dp.md.
 *
 * The paper's theorem for the query release (keep each user's first d queries, release q when
 * M(q) + Lap(b) > K): it is (ε, δ)-probabilistically differentially private when
 *
 *     ε ≥ d/b   and   δ ≥ (d/2)·exp((d − K)/b),
 *
 * so for given (ε, δ, d) the smallest noise and threshold are b = d/ε and K = d·(1 − ln(2δ/d)/ε). Why d/2: a user
 * whose d queries are all distinct and seen nowhere else makes d queries that exist only because of them, each
 * released with probability ½·exp((c − K)/b) for its count c ≤ d; the union bound over at most d of them gives
 * (d/2)·exp((d − K)/b). (½·exp((d − K)/b) alone bounds only the case of one query repeated d times.)
 *
 * With clicks (the default), the released noisy click counts of (query, URL) pairs cost another d/b (a user has
 * at most d clicks after limiting), and since a log has no public top-10 result list, each pair must also pass
 * the threshold K, a second δ event. One noise scale and one threshold serve both:
 *
 *     b = 2d/ε,   K = d − b·ln(δ/d) = d·(1 − 2·ln(δ/d)/ε)   ((d/2)·exp((d − K)/b) = δ/2 for each kind).
 *
 * Without clicks (`--clicks false`) the parameters are exactly the paper's: b = d/ε, K = d·(1 − ln(2δ/d)/ε).
 *
 * The noise is the discrete Laplace distribution (P(x) ∝ exp(−|x|/b) on the integers: same ε = d/b for integer
 * counts), whose tail P(X ≥ k) = q^k/(1 + q), q = e^(−1/b), exceeds the continuous ½·q^k by up to a factor
 * 2/(1 + q). Releasing when the noisy count exceeds K + 1 instead of K restores the bound:
 * P(c + X > K + 1) ≤ q^(K − c + 1)/(1 + q) ≤ ½·q^(K − c) since 2q ≤ 1 + q.
 */

export interface DpBudget {
  readonly epsilon: number;
  readonly delta: number;
  readonly d: number;
  /** Whether click counts are released too (ε and δ split in two). */
  readonly clicks: boolean;
  /** Laplace scale for query (and click) counts. */
  readonly b: number;
  /** The paper's release threshold K for noisy query counts (and noisy click counts). */
  readonly K: number;
  /** What a discrete noisy count must exceed: K + 1 (see above). */
  readonly cutoff: number;
}

/** Noise scale: b = d/ε for queries only, 2d/ε with clicks. */
export function noiseScale(epsilon: number, d: number, clicks = true): number {
  return ((clicks ? 2 : 1) * d) / epsilon;
}

/**
 * Threshold K solving (d/2)·exp((d − K)/b) = δ/parts (parts = 2 with clicks, 1 without):
 * K = d − b·ln(2δ/(parts·d)), and never below d (the bound ½·exp((c − K)/b) on releasing a count c needs
 * K ≥ c; only a meaningless δ ≥ d/2 would ask for less).
 */
export function releaseThreshold(delta: number, d: number, b: number, clicks = true): number {
  const parts = clicks ? 2 : 1;
  return Math.max(d, d - b * Math.log((2 * delta) / (parts * d)));
}

/** The paper's δ bound for one kind (queries, or click pairs) at scale b and threshold K: (d/2)·exp((d − K)/b). */
export function thresholdFailure(d: number, b: number, K: number): number {
  return (d / 2) * Math.exp((d - K) / b);
}

export function budget(epsilon: number, delta: number, d: number, clicks = true): DpBudget {
  const b = noiseScale(epsilon, d, clicks);
  const K = releaseThreshold(delta, d, b, clicks);
  return { epsilon, delta, d, clicks, b, K, cutoff: K + 1 };
}
