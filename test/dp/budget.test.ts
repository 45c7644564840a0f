import assert from "node:assert/strict";
import { test } from "node:test";
import { budget, noiseScale, releaseThreshold, thresholdFailure } from "../../src/methods/dp/budget.ts";
import { dp, SEEDED_WARNING } from "../../src/methods/dp/index.ts";
import { getMethod } from "../../src/methods/registry.ts";
import { silentProgress } from "../../src/util/progress.ts";
import { Rng } from "../../src/util/random.ts";

const close = (a: number, b: number, tol = 1e-9) => assert.ok(Math.abs(a - b) <= tol, `${a} ≉ ${b}`);

test("scale and threshold match a hand computation (ε = 2, δ = 0.1, d = 5)", () => {
  // b = 2d/ε = 5; K = d − b·ln(δ/d) = 5 − 5·ln(0.02) = 5 + 5 × 3.912023005428146 = 24.56011502714073
  const p = budget(2, 0.1, 5);
  assert.equal(p.b, 5);
  close(p.K, 24.56011502714073);
  // at that K, each of queries and click pairs fails with probability (d/2)·e^((d−K)/b) = δ/2 exactly
  close(thresholdFailure(5, p.b, p.K), 0.05);
});

test("queries only: the paper's b = d/ε, K = d(1 − ln(2δ/d)/ε) by hand (ε = 2, δ = 0.1, d = 5)", () => {
  // b = 5/2 = 2.5; K = 5·(1 − ln(0.04)/2) = 5 × (1 + 1.6094379124341003) = 13.047189562170502
  const p = budget(2, 0.1, 5, false);
  assert.equal(p.b, 2.5);
  close(p.K, 13.047189562170502);
  assert.equal(noiseScale(2, 5, false), 2.5);
  // the paper's condition δ ≥ (d/2)·e^((d−K)/b) holds with equality, and ε = d/b
  close(thresholdFailure(5, p.b, p.K), 0.1);
  close(5 / p.b, 2);
});

test("with clicks, ε and δ are split: ε = d/b + d/b, δ = δ/2 + δ/2", () => {
  for (const [eps, delta, d] of [
    [0.5, 1e-6, 10],
    [1, 1e-5, 20],
    [3, 0.01, 1],
  ] as const) {
    const p = budget(eps, delta, d);
    close(d / p.b + d / p.b, eps, 1e-12);
    close(2 * thresholdFailure(d, p.b, p.K), delta, 1e-12 * Math.max(1, delta));
  }
});

test("scale and threshold for the defaults (ε = 1, δ = 1e-5, d = 20)", () => {
  // b = 40; K = 20 − 40·ln(5e-7) = 20 + 40 × 14.508657738524219 = 600.3463095409688
  assert.equal(noiseScale(1, 20), 40);
  close(releaseThreshold(1e-5, 20, 40), 600.3463095409688, 1e-9);
});

test("the threshold grows as δ shrinks and never falls below d", () => {
  let prev = 0;
  for (const delta of [0.9, 0.5, 0.1, 1e-3, 1e-6, 1e-12]) {
    const K = releaseThreshold(delta, 1, 2);
    assert.ok(K >= 1 && K > prev);
    prev = K;
  }
});

test("dp is registered; bad parameters are rejected with a clear message", () => {
  assert.equal(getMethod("dp"), dp);
  assert.throws(() => dp.parse({ epsilon: 0 }), /dp: parameter epsilon: must be > 0, got 0/);
  assert.throws(() => dp.parse({ epsilon: -1 }), /dp: parameter epsilon: must be > 0/);
  assert.throws(() => dp.parse({ delta: 0 }), /dp: parameter delta: must be in \(0, 1\)/);
  assert.throws(() => dp.parse({ delta: 1 }), /dp: parameter delta: must be in \(0, 1\)/);
  assert.throws(() => dp.parse({ d: 0 }), /dp: parameter d: must be in \[1, /);
  assert.throws(() => dp.parse({ epsilon: "abc" }), /dp: parameter epsilon: must be a number/);
  assert.throws(() => dp.parse({ noise: "urandom" }), /dp: parameter noise: must be "crypto" or "seeded"/);
  assert.throws(() => dp.parse({ clicks: "maybe" }), /dp: parameter clicks: must be true or false/);
  assert.deepEqual(dp.parse({ epsilon: "0.5", delta: "1e-6", d: "10", noise: "seeded", clicks: "false" }), {
    epsilon: 0.5,
    delta: 1e-6,
    d: 10,
    noise: "seeded",
    clicks: false,
  });
  // the default is the private sampler
  assert.deepEqual(dp.parse({}), { epsilon: 1, delta: 1e-5, d: 20, noise: "crypto", clicks: true });
});

test("seeded noise warns loudly on stderr, once; crypto noise does not", async () => {
  const input = { records: [{ user: "u", query: "q", time: 1 }], format: "aol" as const };
  const ctx = { rng: Rng.fromSeed(1), progress: silentProgress };
  const written: string[] = [];
  const write = process.stderr.write;
  process.stderr.write = ((chunk: string) => {
    written.push(String(chunk));
    return true;
  }) as typeof process.stderr.write;
  try {
    await dp.anonymize(input, dp.parse({}), ctx);
    assert.deepEqual(written, []);
    const r = await dp.anonymize(input, dp.parse({ noise: "seeded" }), ctx);
    await dp.anonymize(input, dp.parse({ noise: "seeded" }), ctx);
    assert.equal(r.counts["cryptographic noise"], 0);
  } finally {
    process.stderr.write = write;
  }
  assert.deepEqual(written, [SEEDED_WARNING]);
  assert.match(SEEDED_WARNING, /NOT differentially private/);
});
