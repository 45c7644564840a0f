import assert from "node:assert/strict";
import { test } from "node:test";
import {
  bernoulliExp,
  discreteGaussian,
  discreteLaplace,
  exactRational,
} from "../../src/methods/dp/discrete.ts";
import { cryptoRandomness, seededRandomness } from "../../src/methods/dp/random.ts";
import { Rng } from "../../src/util/random.ts";

const N = 60_000;

function histogram(sample: () => number, n = N): Map<number, number> {
  const h = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const x = sample();
    assert.ok(Number.isInteger(x), `${x} is not an integer`);
    h.set(x, (h.get(x) ?? 0) + 1);
  }
  return h;
}

/** Mean, variance, and the largest gap between observed and expected frequencies of the values in `pmf`. */
function compare(h: Map<number, number>, pmf: (x: number) => number, n = N) {
  let mean = 0;
  let sq = 0;
  for (const [x, c] of h) {
    mean += x * c;
    sq += x * x * c;
  }
  mean /= n;
  const variance = sq / n - mean * mean;
  let worst = 0;
  for (let x = -5; x <= 5; x++) {
    const p = pmf(x);
    const se = Math.sqrt((p * (1 - p)) / n);
    worst = Math.max(worst, Math.abs((h.get(x) ?? 0) / n - p) / se);
  }
  return { mean, variance, worst };
}

test("exact rationals of doubles", () => {
  assert.deepEqual(exactRational(40), { num: 40n, den: 1n });
  assert.deepEqual(exactRational(2.5), { num: 5n, den: 2n });
  assert.deepEqual(exactRational(0.1), { num: 3602879701896397n, den: 36028797018963968n });
  assert.throws(() => exactRational(0), RangeError);
  assert.throws(() => exactRational(Number.POSITIVE_INFINITY), RangeError);
});

test("Bernoulli(exp(−γ)) has mean exp(−γ) for γ below and above 1", () => {
  const r = seededRandomness(Rng.fromSeed(5));
  for (const [num, den] of [
    [1n, 3n],
    [1n, 1n],
    [5n, 2n],
  ] as const) {
    let ones = 0;
    for (let i = 0; i < N; i++) if (bernoulliExp(r, num, den)) ones++;
    const p = Math.exp(-Number(num) / Number(den));
    assert.ok(
      Math.abs(ones / N - p) < 5 * Math.sqrt((p * (1 - p)) / N),
      `γ ${num}/${den}: ${ones / N} vs ${p}`,
    );
  }
});

test("discrete Laplace: pmf (1−q)/(1+q)·q^|x|, mean 0, variance 2q/(1−q)², tail P(X ≥ k) = q^k/(1+q)", () => {
  for (const t of [0.7, 3, 12.5]) {
    const q = Math.exp(-1 / t);
    const h = histogram(discreteLaplace(seededRandomness(Rng.fromSeed(Math.round(t * 10))), t));
    const pmf = (x: number) => ((1 - q) / (1 + q)) * q ** Math.abs(x);
    const { mean, variance, worst } = compare(h, pmf);
    const v = (2 * q) / (1 - q) ** 2;
    assert.ok(Math.abs(mean) < 5 * Math.sqrt(v / N), `t ${t}: mean ${mean}`);
    assert.ok(Math.abs(variance / v - 1) < 0.05, `t ${t}: variance ${variance} vs ${v}`);
    assert.ok(worst < 5, `t ${t}: a frequency is ${worst.toFixed(1)} standard errors off`);
    const k = Math.ceil(2 * t);
    let tail = 0;
    for (const [x, c] of h) if (x >= k) tail += c;
    const p = q ** k / (1 + q);
    assert.ok(Math.abs(tail / N - p) < 5 * Math.sqrt((p * (1 - p)) / N), `t ${t}: tail ${tail / N} vs ${p}`);
  }
});

test("discrete Gaussian: pmf ∝ exp(−x²/2σ²), mean 0, variance ≈ σ² (≤ σ²), tail beyond 3σ", () => {
  for (const sigma of [0.8, 2.5, 9]) {
    const h = histogram(discreteGaussian(seededRandomness(Rng.fromSeed(Math.round(sigma * 7))), sigma));
    let z = 0;
    for (let x = -Math.ceil(40 * sigma); x <= 40 * sigma; x++) z += Math.exp(-(x * x) / (2 * sigma * sigma));
    const pmf = (x: number) => Math.exp(-(x * x) / (2 * sigma * sigma)) / z;
    let v = 0;
    for (let x = -Math.ceil(40 * sigma); x <= 40 * sigma; x++) v += x * x * pmf(x);
    const { mean, variance, worst } = compare(h, pmf);
    assert.ok(v <= sigma * sigma + 1e-12, "CKS: the discrete Gaussian's variance is at most σ²");
    assert.ok(Math.abs(mean) < 5 * Math.sqrt(v / N), `σ ${sigma}: mean ${mean}`);
    assert.ok(Math.abs(variance / v - 1) < 0.05, `σ ${sigma}: variance ${variance} vs ${v}`);
    assert.ok(worst < 5, `σ ${sigma}: a frequency is ${worst.toFixed(1)} standard errors off`);
    let tail = 0;
    let p = 0;
    const k = Math.ceil(3 * sigma);
    for (const [x, c] of h) if (Math.abs(x) >= k) tail += c;
    for (let x = k; x <= 40 * sigma; x++) p += 2 * pmf(x);
    assert.ok(
      Math.abs(tail / N - p) < 5 * Math.sqrt((p * (1 - p)) / N) + 1 / N,
      `σ ${sigma}: tail ${tail / N} vs ${p}`,
    );
  }
});

test("the crypto source gives different, well-spread draws", () => {
  const a = discreteGaussian(cryptoRandomness(), 50);
  // n = 8,000: the sample variance's standard error is σ²·√(2/n) = 1.6%, so sd within 10% (variance in
  // [0.81, 1.21]σ²) fails by chance with P ≈ Φ(−12) ≈ 1e-33 (at n = 2,000 it was Φ(−6) ≈ 1e-9).
  const xs = Array.from({ length: 8000 }, a);
  assert.ok(new Set(xs).size > 150);
  const sd = Math.sqrt(xs.reduce((s, x) => s + x * x, 0) / xs.length);
  assert.ok(Math.abs(sd / 50 - 1) < 0.1, `sd ${sd}`);
});
