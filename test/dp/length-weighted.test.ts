/**
 * The length-weighted strategy (the weighting of the default's rounds) and the exact PLD accountant it is composed with: the weights are a
 * unit ℓ2 vector that depends on nothing but the user's own items and their text; the threshold holds for every
 * weight vector, including the unequal ones where Weighted Gaussian's max-over-t formula does not; the PLD's δ
 * agrees with the closed forms it must reduce to and is never above zCDP's.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import type { QueryEvent } from "../../src/log/events.ts";
import { Accountant } from "../../src/methods/dp/accountant.ts";
import { boundQueries } from "../../src/methods/dp/contributions.ts";
import { gaussianDelta, normalCdf } from "../../src/methods/dp/gaussian.ts";
import { gdpDelta, pldDelta, sumLaw } from "../../src/methods/dp/pld.ts";
import {
  anyWeightsPassBound,
  anyWeightsRho,
  lengthPrior,
  lengthWeightedHistogram,
} from "../../src/methods/dp/selection/length-weighted.ts";
import { setUnionRho } from "../../src/methods/dp/selection/policy-gaussian.ts";

/** The exact chance that any of the weights w_j + N(0, σ²) passes ρ. */
const anyPasses = (w: readonly number[], sigma: number, rho: number) =>
  -Math.expm1(w.reduce((a, x) => a + Math.log(normalCdf((rho - x) / sigma)), 0));

test("the prior is 1/(words of the query), a pair's query only", () => {
  assert.equal(lengthPrior("weather"), 1);
  assert.equal(lengthPrior("cheap  flights "), 1 / 2);
  assert.equal(lengthPrior("how to make soap\thttp://a.b c d"), 1 / 4);
  assert.equal(lengthPrior(""), 1);
});

test("each user adds a vector of ℓ2 norm exactly 1, ∝ the prior, to their own items only", () => {
  fc.assert(
    fc.property(
      fc.array(fc.uniqueArray(fc.integer({ min: 0, max: 30 }), { maxLength: 8 }), { maxLength: 20 }),
      fc.array(fc.double({ min: 0.05, max: 1, noNaN: true }), { minLength: 31, maxLength: 31 }),
      (lists, p) => {
        const prior = Float64Array.from(p);
        const users = lists.map((l) => Int32Array.from(l));
        const h = lengthWeightedHistogram(users, 31, prior);
        users.forEach((list, u) => {
          const without = lengthWeightedHistogram(
            users.filter((_, v) => v !== u),
            31,
            prior,
          );
          const diff = Array.from(h, (x, i) => x - without[i]!);
          const norm = Math.sqrt(diff.reduce((s, x) => s + x * x, 0));
          assert.ok(Math.abs(norm - (list.length > 0 ? 1 : 0)) < 1e-9, `moved ${norm}`);
          diff.forEach((x, i) => {
            if (!list.includes(i)) assert.ok(Math.abs(x) < 1e-12, "someone else's item moved");
          });
          // proportional to the prior on the user's items
          if (list.length > 1) {
            const r = diff[list[0]!]! / prior[list[0]!]!;
            for (const id of list) assert.ok(Math.abs(diff[id]! / prior[id]! - r) < 1e-9);
          }
        });
      },
    ),
    { numRuns: 150 },
  );
});

test("the contribution bound keeps a user's d shortest queries, then the most typed", () => {
  const ev = (query: string): QueryEvent =>
    ({ user: "u", query, time: 0, first: 0, rows: 1, clicks: 0 }) as QueryEvent;
  const history = ["a b c", "a b c", "a b c", "x y", "z", "p q r s", "w v"].map(ev);
  const b = boundQueries([history], 3, lengthPrior);
  assert.deepEqual(
    Array.from(b.users[0]!, (id) => b.keys[id]),
    ["z", "x y", "w v"],
  );
  const byFrequency = boundQueries([history], 1);
  assert.deepEqual(
    Array.from(byFrequency.users[0]!, (id) => byFrequency.keys[id]),
    ["a b c"],
  );
});

test("the threshold holds for unequal weights, where Weighted Gaussian's max over t does not", () => {
  // σ = 1, δ_thr = 1e-5, d = 20: one item of weight ≈ 1 beside 19 of tiny weight passes setUnionRho's ρ with
  // probability above δ_thr; the any-weights ρ keeps it below.
  const [sigma, thr, d] = [1, 1e-5, 20];
  const unequal = [Math.sqrt(1 - 19e-12), ...Array(19).fill(1e-6)];
  assert.ok(anyPasses(unequal, sigma, setUnionRho(sigma, thr, d)) > thr * 1.1);
  const rho = anyWeightsRho(sigma, thr, d);
  assert.ok(anyPasses(unequal, sigma, rho) <= thr);
  assert.ok(anyWeightsPassBound(sigma, rho, d) <= thr);
  // and it costs almost nothing where equal weights are the worst case (the default's regime)
  const r = anyWeightsRho(4.08, 3.75e-6, 10);
  const s = setUnionRho(4.08, 3.75e-6, 10);
  assert.ok(r >= s && r < s * 1.001, `${r} vs ${s}`);
});

test("property: at the any-weights ρ, no weight vector of ℓ2 norm ≤ 1 on ≤ d items passes with chance above δ_thr", () => {
  const cases: [number, number, number][] = [
    [0.5, 1e-5, 12],
    [1, 1e-5, 20],
    [4, 3.75e-6, 10],
  ];
  for (const [sigma, thr, d] of cases) {
    const rho = anyWeightsRho(sigma, thr, d);
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 1e-9, max: 1, noNaN: true }), { minLength: 1, maxLength: d }),
        fc.double({ min: 0.01, max: 1, noNaN: true }),
        (raw, norm) => {
          const n = Math.sqrt(raw.reduce((a, x) => a + x * x, 0));
          const w = raw.map((x) => (x / n) * norm);
          assert.ok(anyPasses(w, sigma, rho) <= thr * (1 + 1e-9), `${sigma} ${w}`);
        },
      ),
      { numRuns: 300 },
    );
  }
});

test("PLD: Gaussian steps alone give the exact analytic Gaussian δ (Balle & Wang) at μ = Δ/σ", () => {
  for (const [eps, sigma, sens] of [
    [1, 3.73, 1],
    [0.5, 2, 3],
    [3, 1, 1],
  ] as const) {
    const exact = gaussianDelta(eps, sigma, sens);
    const mine = pldDelta((sens / sigma) ** 2, eps);
    assert.ok(Math.abs(mine - exact) <= 1e-12 + 1e-9 * exact, `${mine} vs ${exact}`);
  }
  // μ = 0: nothing released about anyone
  assert.equal(gdpDelta(0, 0.5), 0);
});

test("PLD: one discrete Gaussian count gives CKS's exact δ = P[X > εσ² − ½] − e^ε·P[X > εσ² + ½]", () => {
  for (const [eps, sigma] of [
    [1, 2],
    [0.5, 5],
    [2, 0.8],
  ] as const) {
    const w = (x: number) => Math.exp(-(x * x) / (2 * sigma * sigma));
    let z = 0;
    for (let x = -400; x <= 400; x++) z += w(x);
    const tail = (t: number) => {
      let s = 0;
      for (let x = Math.floor(t) + 1; x <= 400; x++) s += w(x) / z;
      return s;
    };
    const exact = tail(eps * sigma * sigma - 0.5) - Math.exp(eps) * tail(eps * sigma * sigma + 0.5);
    const mine = pldDelta(0, eps, sumLaw(sigma, 1));
    // the PLD bins S and charges each bin at its worst point: never below, close above
    assert.ok(mine >= exact * (1 - 1e-9) && mine <= exact * 1.02 + 1e-15, `${mine} vs ${exact}`);
  }
});

test("PLD composition is never above the zCDP conversion of the same steps", () => {
  fc.assert(
    fc.property(
      fc.double({ min: 0.05, max: 1, noNaN: true }),
      fc.double({ min: 5, max: 60, noNaN: true }),
      fc.integer({ min: 1, max: 12 }),
      fc.double({ min: 0.3, max: 3, noNaN: true }),
      (mu, countSigma, n, eps) => {
        const a = new Accountant(eps);
        const z = new Accountant(eps);
        a.spendGaussian("selection", mu * mu);
        a.spendDiscreteGaussian("counts", countSigma, n);
        a.spendThreshold("threshold", 1e-6);
        z.spendZcdp("selection", (mu * mu) / 2);
        z.spendZcdp("counts", n / (2 * countSigma * countSigma));
        z.spendThreshold("threshold", 1e-6);
        assert.ok(a.total().delta <= z.total().delta * (1 + 1e-12));
      },
    ),
    { numRuns: 40 },
  );
});
