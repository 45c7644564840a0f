/**
 * The strategies that go beyond one weighted histogram: greedy's step is ℓ1-non-expansive (the lemma its
 * privacy rests on), and the rounds of dp-sips and targeted spend exactly one selection's budget.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { seededRandomness } from "../../src/methods/dp/random.ts";
import { dpSipsSelection } from "../../src/methods/dp/selection/dp-sips.ts";
import { greedyFill } from "../../src/methods/dp/selection/greedy.ts";
import { anyWeightsPassBound } from "../../src/methods/dp/selection/length-weighted.ts";
import { roundsSelect } from "../../src/methods/dp/selection/rounds.ts";
import { TARGETED, targetedSelection } from "../../src/methods/dp/selection/targeted.ts";
import { Rng } from "../../src/util/random.ts";

const l1 = (a: Float64Array, b: Float64Array) => a.reduce((s, x, i) => s + Math.abs(x - b[i]!), 0);

test("greedy: one user's step adds at most 1 in ℓ1, never fills past Γ, and moves two histograms no further apart", () => {
  const hist = fc.array(fc.double({ min: 0, max: 6, noNaN: true }), { minLength: 6, maxLength: 6 });
  fc.assert(
    fc.property(
      hist,
      hist,
      fc.uniqueArray(fc.integer({ min: 0, max: 5 }), { minLength: 1, maxLength: 6 }),
      fc.double({ min: 0.5, max: 5, noNaN: true }),
      (a, b, items, gamma) => {
        const h = Float64Array.from(a);
        const g = Float64Array.from(b);
        const order = Int32Array.from(items);
        const h1 = h.slice();
        const g1 = g.slice();
        greedyFill(h1, order, gamma);
        greedyFill(g1, order, gamma);
        // the step: ℓ1 ≤ 1, only up, never past Γ (an item already past it stays)
        assert.ok(l1(h1, h) <= 1 + 1e-12);
        h1.forEach((x, i) => {
          assert.ok(x >= h[i]!);
          assert.ok(x <= Math.max(gamma, h[i]!) + 1e-12);
        });
        // ℓ1-non-expansive: adding a user earlier in the order cannot be amplified by this one
        assert.ok(l1(h1, g1) <= l1(h, g) + 1e-9, `${l1(h1, g1)} > ${l1(h, g)}`);
      },
    ),
    { numRuns: 2000 },
  );
});

test("rounds: their noise composes to the one selection charge, their thresholds to its one δ", () => {
  for (const sel of [targetedSelection, dpSipsSelection]) {
    const sigma = 4;
    const thr = 3.75e-6;
    const cal = sel.gaussian!.calibrateNoise(sigma, thr, 10, 5);
    // μ² = Σ 1/σ_r² = 1/σ²: the plan charges the selection once, as for one round of noise σ
    const mu2 = cal.rounds.reduce((s, r) => s + 1 / (r.sigma * r.sigma), 0);
    assert.ok(Math.abs(mu2 - 1 / (sigma * sigma)) < 1e-12, sel.name);
    // each round's u-only items pass with at most its share of δ; the shares sum to δ
    const shares = cal.rounds.map((r) => anyWeightsPassBound(r.sigma, r.rho, r.d));
    assert.ok(shares.reduce((a, b) => a + b, 0) <= thr * (1 + 1e-6), `${sel.name}: ${shares}`);
  }
});

test("targeted: releases only items someone holds, and its rounds read at most d items per user after the first", () => {
  const users = Array.from({ length: 300 }, (_, u) => Int32Array.from([0, 1, 2 + (u % 40), 100 + u]));
  const items = 400;
  const prior = new Float64Array(items).fill(1);
  const cal = targetedSelection.gaussian!.calibrateNoise(0.8, 1e-3, 2, 5);
  assert.equal(cal.rounds[0]!.d, TARGETED.firstD(2));
  assert.deepEqual(
    cal.rounds.slice(1).map((r) => r.d),
    [2, 1],
    "round 2 reads d, round 3 ⌈0.4d⌉",
  );
  for (let seed = 1; seed <= 5; seed++) {
    const got = roundsSelect(TARGETED, users, items, cal, seededRandomness(Rng.fromSeed(seed)), prior);
    const held = new Set(users.flatMap((u) => [...u]));
    for (const id of got) assert.ok(held.has(id));
    assert.ok(got.includes(0) && got.includes(1), "the items everyone holds are released");
  }
});
