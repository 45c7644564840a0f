import assert from "node:assert/strict";
import { test } from "node:test";
import {
  analyticGaussianSigma,
  gaussianDelta,
  normalCdf,
  upperNormalQuantile,
} from "../../src/methods/dp/gaussian.ts";
import { gaussianThreshold } from "../../src/methods/dp/selection/gaussian.ts";
import { laplaceThreshold } from "../../src/methods/dp/selection/laplace.ts";
import { keepProbabilities, optimalSelection } from "../../src/methods/dp/selection/optimal.ts";
import { policyGaussianSelection, setUnionRho } from "../../src/methods/dp/selection/policy-gaussian.ts";
import { policyLaplaceRho, policyLaplaceSelection } from "../../src/methods/dp/selection/policy-laplace.ts";
import { weightedGaussianSelection } from "../../src/methods/dp/selection/weighted-gaussian.ts";

const rel = (a: number, b: number, tol: number, what = "") =>
  assert.ok(Math.abs(a - b) <= tol * Math.abs(b), `${what} ${a} ≉ ${b} (rel ${tol})`);

/**
 * Values printed by the reference code of Gopi et al. (heyyjudes/differentially-private-set-union,
 * gen_histogram.py's calculate_threshold and agm_example.py's calibrate_analytic_gaussian_mechanism, run with
 * numpy/scipy): (ε, δ, Δ0) → count-Laplace ρ, count-Gaussian σ and ρ, policy-Laplace ρ, policy-Gaussian σ and ρ.
 * The reference computes 1 − (1 − δ)^(1/t) directly, which loses digits for tiny δ (we use expm1/log1p), and
 * stops its σ search at an absolute error of 1e-12 in δ (2e-5 relative at δ = 5e-8; we bisect on σ to a relative
 * 1e-12 and round up), so the agreement is to ~1e-6 rather than 1e-12.
 */
const REFERENCE: [number, number, number, number, number, number, number, number, number][] = [
  [
    1, 1e-5, 20, 277.31011615715175, 17.370405724600726, 88.30908534525965, 13.86550580785759,
    3.8841407996958717, 19.746511786283108,
  ],
  [
    0.5, 1e-7, 10, 355.5506702791748, 29.294281955761754, 168.87758719800945, 35.55506702791748,
    9.263665339937905, 53.403782129940275,
  ],
  [
    3, 1e-5, 5, 21.715353661427674, 3.2156206750250678, 16.285208184950527, 4.606592761471611,
    1.4380692838419624, 7.3522014073111155,
  ],
  [
    1, 1e-5, 1, 11.819778284414834, 3.8841407996958717, 18.156923474581408, 11.819778284414834,
    3.8841407996958717, 18.156923474581408,
  ],
];

test("Laplace thresholding: T = 1 − (d/ε)·ln(2δ′) by hand and against the reference code", () => {
  // d = 1, ε = 1, δ = 1e-5: δ′ = δ, T = 1 − ln(2e-5) = 1 + 10.819778284410283
  const one = laplaceThreshold(1, 1e-5, 1);
  assert.equal(one.b, 1);
  rel(one.T, 11.819778284410283, 1e-12);
  for (const [eps, delta, d, lapRho] of REFERENCE) {
    const { b, T } = laplaceThreshold(eps, delta, d);
    assert.equal(b, d / eps);
    rel(T, lapRho, 1e-6, `T(${eps}, ${delta}, ${d})`);
    // an item of one user passes with ½·e^((1 − T)/b) = δ′, and the user's d items with 1 − (1 − δ′)^d = δ
    const perItem = 0.5 * Math.exp((1 - T) / b);
    rel(1 - (1 - perItem) ** d, delta, 1e-6);
  }
});

test("Gaussian thresholding: analytic σ for √d and T = 1 + σ·Φ⁻¹((1 − δ/2)^(1/d)) against the reference code", () => {
  for (const [eps, delta, d, , gSigma, gT] of REFERENCE) {
    const { sigma, T } = gaussianThreshold(eps, delta, d);
    rel(sigma, gSigma, 1e-6, `σ(${eps}, ${delta}, ${d})`);
    rel(T, gT, 1e-6, `T(${eps}, ${delta}, ${d})`);
    // one user's d items pass the threshold with probability δ/2 in all
    const perItem = 1 - normalCdf((T - 1) / sigma);
    rel(1 - (1 - perItem) ** d, delta / 2, 1e-5);
  }
});

test("the analytic Gaussian σ meets Balle & Wang's exact condition, and no smaller σ does", () => {
  for (const [eps, delta, s] of [
    [1, 1e-5, 1],
    [0.1, 1e-6, 3],
    [5, 1e-3, 2],
  ] as const) {
    const sigma = analyticGaussianSigma(eps, delta, s);
    assert.ok(gaussianDelta(eps, sigma, s) <= delta);
    assert.ok(gaussianDelta(eps, sigma * (1 - 1e-9), s) > delta * (1 - 1e-6));
    // the classical σ = Δ·√(2 ln(1.25/δ))/ε is larger (for ε < 1, where it is valid)
    if (eps < 1) assert.ok(sigma < (s * Math.sqrt(2 * Math.log(1.25 / delta))) / eps);
  }
  // hand check: ε = 1, δ = 1e-5, Δ = 1 gives σ ≈ 3.7300 (Balle & Wang's calibration; the reference code agrees)
  rel(analyticGaussianSigma(1, 1e-5, 1), 3.73, 1e-3);
});

test("policy thresholds ρ (max over t = 1..d) against the reference code, and Γ = ρ + α·scale", () => {
  for (const [eps, delta, d, , , , plRho, pgSigma, pgRho] of REFERENCE) {
    rel(policyLaplaceRho(eps, delta, d), plRho, 1e-6, `policy-laplace ρ(${eps}, ${delta}, ${d})`);
    rel(analyticGaussianSigma(eps, delta / 2, 1), pgSigma, 1e-6);
    rel(setUnionRho(pgSigma, delta / 2, d), pgRho, 1e-6, `policy-gaussian ρ(${eps}, ${delta}, ${d})`);
  }
  const l = policyLaplaceSelection.calibrate(1, 1e-5, 20, 3);
  rel(l.gamma, 13.86550580785759 + 3, 1e-6);
  const g = policyGaussianSelection.calibrate(1, 1e-5, 20, 2);
  rel(g.gamma, 19.746511786283108 + 2 * 3.8841407996958717, 1e-6);
  // weighted Gaussian: the same σ and ρ as Policy Gaussian (its users' own items carry 1/√t each, as there)
  for (const [eps, delta, d, , , , , pgSigma, pgRho] of REFERENCE) {
    const w = weightedGaussianSelection.calibrate(eps, delta, d, 0);
    rel(w.sigma, pgSigma, 1e-6);
    rel(w.rho, pgRho, 1e-6, `weighted-gaussian ρ(${eps}, ${delta}, ${d})`);
    // a user holding t items alone: each has H = 1/√t, all t pass together with probability ≤ δ/2
    for (let t = 1; t <= d; t++) {
      const perItem = 1 - normalCdf((w.rho - 1 / Math.sqrt(t)) / w.sigma);
      assert.ok(1 - (1 - perItem) ** t <= (delta / 2) * (1 + 1e-6), `t = ${t}`);
    }
  }
  // by hand, d = 1: ρ = 1 + σ·Φ⁻¹(1 − δ/2) (ε = 1, δ = 1e-5: 1 + 3.88414·4.41717 = 18.15692)
  const w1 = weightedGaussianSelection.calibrate(1, 1e-5, 1, 0);
  rel(w1.rho, 1 + w1.sigma * upperNormalQuantile(5e-6), 1e-12);
  rel(w1.rho, 18.156923474581408, 1e-6);
});

test("optimal partition selection: recurrence = Google's closed form, hand values, and the DP inequalities", () => {
  const e = 0.5;
  const dl = 0.01;
  const p = keepProbabilities(e, dl);
  // hand: p(1) = δ = 0.01; p(2) = 0.01·e^0.5 + 0.01 = 0.0264872; p(3) = 0.0264872·e^0.5 + 0.01 = 0.0536700 (the second branch, 1 − e^−0.5·(1 − p − δ), is ≈ 0.42)
  rel(p[1]!, 0.01, 1e-12);
  rel(p[2]!, 0.02648721270700128, 1e-12);
  rel(p[3]!, 0.02648721270700128 * Math.exp(0.5) + 0.01, 1e-12);
  rel(p[3]!, 0.05367003099, 1e-9);
  // closed form (select_partition.go): crossover nCr, geometric sums on either side
  const nCr =
    1 + Math.floor((1 / e) * Math.log((1 + Math.exp(-e) * (2 * dl - 1)) / (dl * (1 + Math.exp(-e)))));
  const sum = (from: number, count: number) => {
    let s = 0;
    for (let i = from; i < from + count; i++) s += Math.exp(i * e);
    return s;
  };
  for (let n = 1; n < p.length; n++) {
    const closed =
      n <= nCr
        ? dl * sum(0, n)
        : Math.min(1, 1 + Math.exp(-(n - nCr) * e) * (dl * sum(0, nCr) - 1) + sum(-(n - nCr), n - nCr) * dl);
    rel(p[n]!, closed, 1e-9, `p(${n})`);
  }
  // every step satisfies (ε, δ)-DP both ways, and p reaches 1
  for (let n = 1; n < p.length; n++) {
    assert.ok(p[n]! <= Math.exp(e) * p[n - 1]! + dl + 1e-15);
    assert.ok(1 - p[n - 1]! <= Math.exp(e) * (1 - p[n]!) + dl + 1e-15);
  }
  assert.equal(p[p.length - 1], 1);
  // the per-item split is ε/d, δ/d
  const cal = optimalSelection.calibrate(1, 1e-5, 4, 0);
  assert.equal(cal.epsilon, 0.25);
  assert.equal(cal.delta, 2.5e-6);
});

test("normal tail helpers: Φ and its upper quantile agree far in the tail", () => {
  for (const q of [0.1, 1e-5, 1e-12, 1e-30]) rel(normalCdf(-upperNormalQuantile(q)), q, 1e-9);
  rel(upperNormalQuantile(0.025), 1.959963984540054, 1e-12);
});
