import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { AliasTable, Discrete, Gaussian, geometric, Zipf } from "../../src/synth/sampling.ts";
import { Rng } from "../../src/util/random.ts";

const N = 100_000;

describe("samplers", () => {
  test("Zipf: ranks stay in [1, n] and follow r^-s", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e7 }), fc.double({ min: 0.3, max: 2, noNaN: true }), (n, s) => {
        const z = new Zipf(n, s);
        const rng = Rng.fromSeed(n);
        for (let i = 0; i < 200; i++) {
          const k = z.sample(rng);
          assert.ok(Number.isInteger(k) && k >= 1 && k <= n);
        }
      }),
      { numRuns: 50 },
    );
    const n = 50;
    const s = 0.83;
    const z = new Zipf(n, s);
    const rng = Rng.fromSeed(1);
    const counts = new Array<number>(n + 1).fill(0);
    for (let i = 0; i < N; i++) counts[z.sample(rng)]!++;
    let h = 0;
    for (let r = 1; r <= n; r++) h += r ** -s;
    for (const r of [1, 2, 5, 20]) {
      const expected = r ** -s / h;
      assert.ok(Math.abs(counts[r]! / N - expected) < 0.01, `rank ${r}: ${counts[r]! / N} vs ${expected}`);
    }
  });

  test("AliasTable draws in proportion to the weights, never a zero weight", () => {
    const w = [5, 0, 1, 3, 0, 1];
    const t = new AliasTable(w);
    const rng = Rng.fromSeed(2);
    const counts = new Array<number>(w.length).fill(0);
    for (let i = 0; i < N; i++) counts[t.sample(rng)]!++;
    for (let i = 0; i < w.length; i++)
      assert.ok(Math.abs(counts[i]! / N - w[i]! / 10) < 0.01, `outcome ${i}`);
    assert.equal(counts[1], 0);
    assert.equal(counts[4], 0);
    assert.throws(() => new AliasTable([0, 0]));
  });

  test("Discrete maps uniforms to outcomes by cumulative weight", () => {
    const d = new Discrete([1, 1, 2]);
    assert.equal(d.at(0), 0);
    assert.equal(d.at(0.26), 1);
    assert.equal(d.at(0.5), 2);
    assert.equal(d.at(0.9999), 2);
  });

  test("geometric and log-normal have the asked means", () => {
    const rng = Rng.fromSeed(3);
    let sum = 0;
    for (let i = 0; i < N; i++) {
      const k = geometric(rng, 2.5);
      assert.ok(k >= 1 && Number.isInteger(k));
      sum += k;
    }
    assert.ok(Math.abs(sum / N - 2.5) < 0.05);
    const g = new Gaussian(rng);
    let logs = 0;
    for (let i = 0; i < N; i++) logs += Math.log(g.logNormal(3, 1));
    assert.ok(Math.abs(logs / N - 3) < 0.02);
  });
});
