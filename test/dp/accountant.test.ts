import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import {
  Accountant,
  composedDelta,
  gaussianPlan,
  zcdpBudget,
  zcdpDelta,
} from "../../src/methods/dp/accountant.ts";
import { analyticGaussianSigma, gaussianDelta } from "../../src/methods/dp/gaussian.ts";

const rel = (a: number, b: number, tol: number, what = "") =>
  assert.ok(Math.abs(a - b) <= tol * Math.abs(b), `${what} ${a} ≉ ${b} (rel ${tol})`);

/** CKS 2020 Corollary 13's δ at one α, by the formula. */
const deltaAt = (rho: number, eps: number, a: number) =>
  (Math.exp((a - 1) * (a * rho - eps)) / (a - 1)) * (1 - 1 / a) ** a;

test("basic composition: (ε, δ) charges add up", () => {
  const a = new Accountant();
  a.spend("one", 0.3, 1e-6);
  a.spend("two", 0.2, 2e-6);
  const t = a.total();
  rel(t.epsilon, 0.5, 1e-15);
  rel(t.delta, 3e-6, 1e-12);
});

test("zCDP composition by hand: Gaussians σ = 2 and σ = 4 (sensitivity 1) are 1/8 + 1/32 = 5/32-zCDP", () => {
  const a = new Accountant(1);
  a.spendZcdp("σ = 2", 1 / (2 * 2 ** 2));
  a.spendZcdp("σ = 4", 1 / (2 * 4 ** 2));
  const t = a.total();
  assert.equal(t.epsilon, 1);
  rel(t.delta, zcdpDelta(5 / 32, 1), 1e-15);
  // at α = 4 by hand: e^(3·(4·5/32 − 1))/3 · (3/4)^4 = e^(−1.125)/3 · 0.31640625 = 0.0342406899…
  rel(deltaAt(5 / 32, 1, 4), 0.03424068991670095, 1e-12);
  // the minimum over α is below any single α, and matches a fine grid (0.0326228…)
  assert.ok(t.delta <= deltaAt(5 / 32, 1, 4));
  let grid = 1;
  for (let x = 1.0001; x < 100; x += 0.0001) grid = Math.min(grid, deltaAt(5 / 32, 1, x));
  rel(t.delta, grid, 1e-9);
  // and it is tighter than Bun & Steinke's e^(−(ε − ρ)²/(4ρ)) = 0.3201…
  assert.ok(t.delta < Math.exp(-((1 - 5 / 32) ** 2) / (4 * (5 / 32))));
});

test("one Gaussian mechanism: the zCDP δ is never below the exact (analytic Gaussian) δ, and within 5×", () => {
  for (const [eps, delta] of [
    [1, 1e-5],
    [0.5, 1e-7],
    [3, 1e-6],
  ] as const) {
    const sigma = analyticGaussianSigma(eps, delta, 1); // exactly (ε, δ) by Balle & Wang's condition
    const z = zcdpDelta(1 / (2 * sigma ** 2), eps);
    assert.ok(z >= gaussianDelta(eps, sigma, 1), `(${eps}, ${delta}): ${z}`);
    assert.ok(z <= 5 * delta, `(${eps}, ${delta}): ${z}`);
  }
});

test("thresholds: δ = max(δ_ρ(ε) + Σδ_thr, δ_ρ(ε − η)), η = −Σ ln(1 − δ_thr)", () => {
  const a = new Accountant(1);
  a.spendZcdp("selection", 0.02);
  a.spendThreshold("own items", 1e-6);
  a.spendThreshold("own pairs", 2e-6);
  const eta = -Math.log(1 - 1e-6) - Math.log(1 - 2e-6);
  const t = a.total();
  rel(t.delta, composedDelta(0.02, 1, [1e-6, 2e-6]), 1e-15);
  rel(t.delta, Math.max(zcdpDelta(0.02, 1) + 3e-6, zcdpDelta(0.02, 1 - eta)), 1e-12);
  assert.ok(t.delta > zcdpDelta(0.02, 1) + 3e-6 * (1 - 1e-9));
  // zCDP charges without an ε to convert them at are an error, not a silent (0, 0)
  const b = new Accountant();
  b.spendZcdp("x", 0.1);
  assert.throws(() => b.total(), RangeError);
});

test("zcdpBudget inverts zcdpDelta, and zcdpDelta falls with ε and rises with ρ", () => {
  fc.assert(
    fc.property(
      fc.double({ min: 0.05, max: 10, noNaN: true }),
      fc.double({ min: -16, max: -2, noNaN: true }),
      (eps, logDelta) => {
        const delta = 10 ** logDelta;
        const rho = zcdpBudget(eps, delta);
        assert.ok(zcdpDelta(rho, eps) <= delta);
        assert.ok(zcdpDelta(rho * (1 + 1e-9), eps) > delta * (1 - 1e-6));
        assert.ok(zcdpDelta(rho, eps * 1.1) < zcdpDelta(rho, eps));
        assert.ok(zcdpDelta(rho * 1.1, eps) > zcdpDelta(rho, eps));
      },
    ),
    { numRuns: 100 },
  );
});

test("the Gaussian plan's charges compose to exactly the (ε, δ) asked for, by the exact PLD", () => {
  for (const clicks of [true, false])
    for (const [eps, delta, d] of [
      [1, 1e-5, 10],
      [0.5, 1e-7, 20],
      [3, 1e-5, 1],
    ] as const) {
      const p = gaussianPlan(eps, delta, clicks, d);
      assert.ok(p.boost > 1.05, `the PLD leaves the selections room: κ ${p.boost}`);
      const a = new Accountant(eps);
      const z = new Accountant(eps);
      for (const s of [p.querySelection, p.pairSelection]) {
        if (!s) continue;
        a.spendGaussian("selection", 2 * s.rho);
        a.spendThreshold("threshold", s.thresholdDelta);
        z.spendZcdp("selection", s.rho);
        z.spendThreshold("threshold", s.thresholdDelta);
      }
      for (const s of [p.queryCounts, p.pairCounts]) {
        if (!s) continue;
        a.spendDiscreteGaussian("counts", Math.sqrt(d / (2 * s.rho)), d);
        z.spendZcdp("counts", s.rho);
      }
      const t = a.total();
      assert.equal(t.epsilon, eps);
      assert.ok(t.delta <= delta * (1 + 1e-12) && t.delta >= delta * (1 - 1e-4), `${t.delta}`);
      // the same boosted steps, composed in zCDP, would overspend δ: the boost comes from the PLD alone
      assert.ok(z.total().delta > delta * 1.01, `zCDP δ ${z.total().delta}`);
    }
});

test("at an ε past exp's range (≥ 710) the composed δ is a number within the δ asked, not NaN", () => {
  for (const [epsilon, delta, clicks, d] of [
    [1000, 0.1, false, 1],
    [1000, 0.5, true, 10],
    [720, 1e-5, true, 20],
  ] as const) {
    const plan = gaussianPlan(epsilon, delta, clicks, d);
    const account = new Accountant(epsilon);
    account.spendGaussian("query selection", 2 * plan.querySelection.rho);
    account.spendThreshold("query selection", plan.querySelection.thresholdDelta);
    account.spendDiscreteGaussian("query counts", Math.sqrt(d / (2 * plan.queryCounts.rho)), d);
    const t = account.total();
    assert.equal(t.epsilon, epsilon);
    assert.ok(Number.isFinite(t.delta) && t.delta > 0 && t.delta <= delta * (1 + 1e-9), `δ = ${t.delta}`);
  }
});
