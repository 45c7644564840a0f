/**
 * The exact (ε, δ) of the Gaussian strategies' composition, from its privacy loss distribution (PLD) rather than
 * from zCDP. Every step is one of
 *
 * - a Gaussian mechanism N(0, σ²) on a histogram whose ℓ2 sensitivity is Δ: dominated by the pair N(0, σ²),
 *   N(Δ, σ²) (rotate the shift onto one axis), i.e. μ-GDP with μ = Δ/σ (Dong, Roth, Su, "Gaussian differential
 *   privacy", JRSS-B 2022); its privacy loss is L ~ N(μ²/2, μ²) in both directions;
 * - discrete Gaussian noise N_ℤ(0, σ²) on distinct-user counts, where adding a user adds 1 to at most n of them
 *   (n = d): dominated by the product of n pairs N_ℤ(0, σ²), N_ℤ(1, σ²) (the counts a user does not touch are
 *   the identity, which only helps); one coordinate's loss is (2X + 1)/(2σ²) with X ~ N_ℤ(0, σ²), the same law in
 *   both directions (X is symmetric), so the n of them sum to (2S + n)/(2σ²), S the sum of n independent
 *   N_ℤ(0, σ²).
 *
 * Adaptive composition of mechanisms with fixed dominating pairs is dominated by the product of the pairs (Dong,
 * Roth & Su 2022, Theorem 4 for tradeoff functions), whose privacy loss is the sum of the losses. With L_g the
 * Gaussian steps' total (μ² = Σμᵢ²) and L_c the counts', the release (before its threshold events, which
 * accountant.ts adds) is (ε, δ(ε))-DP with
 *
 *     δ(ε) = E[(1 − e^(ε − L))₊] = Σ_s P(S = s)·δ_G(ε − (2s + n)/(2σ²)),
 *     δ_G(e) = Φ(μ/2 − e/μ) − e^e·Φ(−μ/2 − e/μ)   (the μ-GDP curve; (1 − e^e)₊ when μ = 0),
 *
 * an upper bound that is exact but for S's support, truncated at 10 standard deviations with the mass cut
 * off added to δ in full (δ_G ≤ 1), S read in at most 2,048 bins each charged at its worst point, and floating
 * point. Counts of unequal σ are not combined here: the caller falls back to zCDP.
 */
import { normalCdf } from "./gaussian.ts";

/** The law of S = Σ of n independent discrete Gaussians N_ℤ(0, σ²) on the integers lo, lo + 1, …, with the mass cut. */
export interface SumLaw {
  readonly sigma: number;
  readonly n: number;
  readonly lo: number;
  readonly pmf: Float64Array;
  /** Probability mass outside [lo, lo + pmf.length), an upper bound. */
  readonly cut: number;
}

/** Beyond this many points in S's support the exact PLD is not computed (the accountant uses zCDP). */
export const MAX_SUPPORT = 200_001;

/** S's support is cut at this many standard deviations (the cut mass, ~e^(−50) per product, is added to δ). */
const SDS = 10;
/** S's support is read in at most this many bins, each at its worst point (δ_G rises with s). */
const BINS = 2048;

/** The discrete Gaussian's pmf on −T..T (T = ⌈10σ⌉), normalised over −40σ..40σ, with the mass beyond T. */
function discreteGaussianPmf(sigma: number): { pmf: Float64Array; T: number; cut: number } {
  const T = Math.ceil(SDS * sigma);
  const far = Math.ceil(40 * sigma) + 1;
  const w = (x: number) => Math.exp(-(x * x) / (2 * sigma * sigma));
  let z = w(0);
  for (let x = 1; x <= far; x++) z += 2 * w(x);
  let tail = 0;
  for (let x = T + 1; x <= far; x++) tail += 2 * w(x);
  const pmf = new Float64Array(2 * T + 1);
  for (let x = -T; x <= T; x++) pmf[x + T] = w(x) / z;
  // Beyond 40σ each term is below e^(−800): 2·Σ_{x>far} e^(−x²/2σ²) ≤ 2·e^(−far²/2σ²)/(1 − e^(−far/σ²)), tiny.
  return { pmf, T, cut: tail / z + 1e-300 };
}

function convolve(a: Float64Array, b: Float64Array): Float64Array {
  const out = new Float64Array(a.length + b.length - 1);
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    if (x === 0) continue;
    for (let j = 0; j < b.length; j++) out[i + j]! += x * b[j]!;
  }
  return out;
}

/** Keep S's law within SDS·σ·√k of 0 (k summands); the mass cut is returned with it. */
function trim(law: { lo: number; pmf: Float64Array }, sigma: number, k: number) {
  const half = Math.ceil(SDS * sigma * Math.sqrt(k));
  const from = Math.max(law.lo, -half);
  const to = Math.min(law.lo + law.pmf.length - 1, half);
  let cut = 0;
  for (let s = law.lo; s < from; s++) cut += law.pmf[s - law.lo]!;
  for (let s = to + 1; s < law.lo + law.pmf.length; s++) cut += law.pmf[s - law.lo]!;
  return { lo: from, pmf: law.pmf.slice(from - law.lo, to - law.lo + 1), cut };
}

const laws = new Map<string, SumLaw | undefined>();

/**
 * S's law by binary powering of the one-coordinate pmf, trimmed after each product; undefined when its support
 * would pass {@link MAX_SUPPORT} points (huge σ: the caller uses zCDP). Memoised per (σ, n).
 */
export function sumLaw(sigma: number, n: number): SumLaw | undefined {
  const key = `${sigma} ${n}`;
  if (laws.has(key)) return laws.get(key);
  let result: SumLaw | undefined;
  if (n >= 1 && 2 * Math.ceil(SDS * sigma * Math.sqrt(n)) + 1 <= MAX_SUPPORT) {
    const one = discreteGaussianPmf(sigma);
    let base = { lo: -one.T, pmf: one.pmf, k: 1 };
    let acc: { lo: number; pmf: Float64Array; k: number } | undefined;
    let cut = 0;
    let m = n;
    let baseCut = one.cut;
    for (;;) {
      if (m & 1) {
        if (acc) {
          const t = trim({ lo: acc.lo + base.lo, pmf: convolve(acc.pmf, base.pmf) }, sigma, acc.k + base.k);
          acc = { lo: t.lo, pmf: t.pmf, k: acc.k + base.k };
          cut += t.cut + baseCut;
        } else {
          acc = base;
          cut += baseCut;
        }
      }
      m >>= 1;
      if (m === 0) break;
      const t = trim({ lo: 2 * base.lo, pmf: convolve(base.pmf, base.pmf) }, sigma, 2 * base.k);
      baseCut = 2 * baseCut + t.cut;
      base = { lo: t.lo, pmf: t.pmf, k: 2 * base.k };
    }
    result = { sigma, n, lo: acc!.lo, pmf: acc!.pmf, cut };
  }
  laws.set(key, result);
  return result;
}

/** δ_G(e) of μ-GDP: Φ(μ/2 − e/μ) − e^e·Φ(−μ/2 − e/μ); (1 − e^e)₊ for μ = 0. */
export function gdpDelta(mu: number, e: number): number {
  if (mu === 0) return e < 0 ? -Math.expm1(e) : 0;
  const first = normalCdf(mu / 2 - e / mu);
  const second = Math.exp(e) * normalCdf(-mu / 2 - e / mu);
  // Past e ≈ 709, e^e overflows (∞·0 = NaN): the second term, never negative, is left out — a larger δ.
  const d = Number.isFinite(second) ? first - second : first;
  return Math.min(1, Math.max(0, d));
}

/**
 * δ(ε) of Gaussian steps with Σμᵢ² = mu2 composed with discrete Gaussian counts of law `counts` (none: the
 * Gaussian steps alone): Σ_s P(S = s)·δ_G(ε − (2s + n)/(2σ²)) plus the mass cut from S's support.
 */
export function pldDelta(mu2: number, epsilon: number, counts?: SumLaw): number {
  const mu = Math.sqrt(mu2);
  if (!counts) return gdpDelta(mu, epsilon);
  const { pmf, lo, n, sigma, cut } = counts;
  const scale = 1 / (2 * sigma * sigma);
  const width = Math.ceil(pmf.length / BINS);
  let delta = cut;
  for (let start = 0; start < pmf.length; start += width) {
    const end = Math.min(pmf.length, start + width);
    let mass = 0;
    for (let i = start; i < end; i++) mass += pmf[i]!;
    if (mass === 0) continue;
    // δ_G(ε − (2s + n)/(2σ²)) rises with s: the bin's largest s bounds every term of the bin.
    delta += mass * gdpDelta(mu, epsilon - (2 * (lo + end - 1) + n) * scale);
  }
  return Math.min(1, delta);
}
