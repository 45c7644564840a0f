/**
 * Exact samplers of the discrete Laplace and discrete Gaussian distributions on the integers, after C. Canonne,
 * G. Kamath, T. Steinke, "The Discrete Gaussian for Differential Privacy", NeurIPS 2020 (arXiv 2004.00010),
 * Algorithms 1–3. They use only uniform random integers and exact rational arithmetic (bigint), so the output
 * distribution is exactly the stated one: no floating-point gaps for an attacker to read (Mironov, CCS 2012).
 *
 *   discrete Laplace, scale t:  P(x) ∝ exp(−|x|/t)        (ε = Δ/t for integer counts of ℓ1 sensitivity Δ)
 *   discrete Gaussian, σ:       P(x) ∝ exp(−x²/(2σ²))     (Δ²/(2σ²)-zCDP for ℓ2 sensitivity Δ; CKS Thm 14)
 *
 * A scale given as a double is used at its exact value (a double is a dyadic rational).
 */
import type { Randomness } from "./random.ts";

interface Rational {
  readonly num: bigint;
  readonly den: bigint;
}

/** The exact value of a finite positive double as num/den. */
export function exactRational(x: number): Rational {
  if (!(x > 0) || !Number.isFinite(x)) throw new RangeError(`expected a finite positive number, got ${x}`);
  let den = 1n;
  let m = x;
  while (!Number.isInteger(m)) {
    m *= 2;
    den *= 2n;
  }
  return { num: BigInt(m), den };
}

const TWO32 = 4294967296;

/** A uniform integer in [0, n), n ≥ 1, by rejection over 32-bit words. */
function below(r: Randomness, n: bigint): bigint {
  if (n <= BigInt(TWO32)) {
    const m = Number(n);
    const limit = TWO32 - (TWO32 % m);
    for (;;) {
      const x = r.uint32();
      if (x < limit) return BigInt(x % m);
    }
  }
  const bits = n.toString(2).length;
  const words = Math.ceil(bits / 32);
  const mask = (1n << BigInt(bits)) - 1n;
  for (;;) {
    let x = 0n;
    for (let i = 0; i < words; i++) x = (x << 32n) | BigInt(r.uint32());
    x &= mask;
    if (x < n) return x;
  }
}

/** Bernoulli(num/den), 0 ≤ num ≤ den. */
function bernoulli(r: Randomness, num: bigint, den: bigint): boolean {
  return below(r, den) < num;
}

/** Bernoulli(exp(−num/den)) for num/den ≥ 0 (CKS Algorithm 1). */
export function bernoulliExp(r: Randomness, num: bigint, den: bigint): boolean {
  if (num > den) {
    for (let i = num / den; i > 0n; i--) if (!bernoulliExp(r, 1n, 1n)) return false;
    return bernoulliExp(r, num % den, den);
  }
  let k = 1n;
  while (bernoulli(r, num, den * k)) k++;
  return k % 2n === 1n;
}

/** Discrete Laplace with scale t/s for positive integers s, t (CKS Algorithm 2): P(x) ∝ exp(−|x|·s/t). */
function laplaceInt(r: Randomness, s: bigint, t: bigint): bigint {
  for (;;) {
    const u = below(r, t);
    if (!bernoulliExp(r, u, t)) continue;
    let v = 0n;
    while (bernoulliExp(r, 1n, 1n)) v++;
    const y = (u + t * v) / s;
    const negative = bernoulli(r, 1n, 2n);
    if (negative && y === 0n) continue;
    return negative ? -y : y;
  }
}

/** A sampler of the discrete Laplace distribution P(x) ∝ exp(−|x|/scale). */
export function discreteLaplace(r: Randomness, scale: number): () => number {
  const q = exactRational(scale); // scale = num/den = t/s
  return () => Number(laplaceInt(r, q.den, q.num));
}

/** A sampler of the discrete Gaussian P(x) ∝ exp(−x²/(2σ²)) (CKS Algorithm 3). */
export function discreteGaussian(r: Randomness, sigma: number): () => number {
  const v = exactRational(sigma * sigma); // σ² = a/b, as used; the summary reports σ = √(a/b)
  const a = v.num;
  const b = v.den;
  const t = BigInt(Math.floor(sigma) + 1);
  // accept Y ~ DLap(t) with probability exp(−(|Y| − σ²/t)²/(2σ²)) = exp(−(|Y|·b·t − a)² / (2·a·b·t²))
  const den = 2n * a * b * t * t;
  return () => {
    for (;;) {
      const y = laplaceInt(r, 1n, t);
      const abs = y < 0n ? -y : y;
      const diff = abs * b * t - a;
      if (bernoulliExp(r, diff * diff, den)) return Number(y);
    }
  };
}
