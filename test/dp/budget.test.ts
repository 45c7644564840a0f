import assert from "node:assert/strict";
import { test } from "node:test";
import { budget, noiseScale, releaseThreshold, thresholdFailure } from "../../src/methods/dp/budget.ts";
import {
  DEFAULT_ALPHA,
  DEFAULT_D,
  DEFAULT_SELECTION,
  dp,
  KOROLOVA_D,
  SEEDED_WARNING,
} from "../../src/methods/dp/index.ts";
import { selections } from "../../src/methods/dp/selection/index.ts";
import { loadMethod } from "../../src/methods/registry.ts";
import { silentProgress } from "../../src/util/progress.ts";
import { Rng } from "../../src/util/random.ts";
import { stderrOf } from "../helpers/stderr.ts";

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

test("the discrete cutoff K + 1 keeps the paper's δ bound for discrete Laplace noise", () => {
  // P(c + X > K + 1) = q^(⌊K − c⌋ + 2)/(1 + q) for X ~ DLap(b), q = e^(−1/b); it must not exceed ½·e^((c − K)/b).
  for (const [eps, delta, d] of [
    [1, 1e-5, 20],
    [2, 0.1, 5],
    [0.5, 1e-7, 3],
  ] as const) {
    const p = budget(eps, delta, d);
    assert.equal(p.cutoff, p.K + 1);
    const q = Math.exp(-1 / p.b);
    for (let c = 1; c <= d; c++) {
      const exact = q ** (Math.floor(p.K - c) + 2) / (1 + q);
      assert.ok(exact <= 0.5 * Math.exp((c - p.K) / p.b) * (1 + 1e-12), `c ${c}: ${exact}`);
    }
  }
  // K alone does not suffice when its fractional part is near 1: K = 3.99, b = 1, c = 1 passes with
  // q^3/(1 + q) = 0.0365 > ½·e^(1 − 3.99) = 0.0252.
  const q1 = Math.exp(-1);
  assert.ok(q1 ** (Math.floor(3.99 - 1) + 1) / (1 + q1) > 0.5 * Math.exp(1 - 3.99));
});

test("dp is registered; bad parameters are rejected with a clear message", async () => {
  assert.equal(await loadMethod("dp"), dp);
  assert.throws(() => dp.parse({ epsilon: 0 }), /dp: parameter epsilon: must be in \[0.001, 1000\], got 0/);
  assert.throws(() => dp.parse({ epsilon: -1 }), /dp: parameter epsilon: must be in/);
  // A subnormal ε is refused by the generic number check, a tiny normal one by dp's own range.
  assert.throws(() => dp.parse({ epsilon: 1e-320 }), /dp: parameter epsilon: 1e-320 is too close to 0/);
  assert.throws(
    () => dp.parse({ epsilon: 1e-10 }),
    /dp: parameter epsilon: must be in \[0.001, 1000\], got 1e-10/,
  );
  assert.throws(() => dp.parse({ epsilon: "1e-320" }), /dp: parameter epsilon/);
  assert.throws(() => dp.parse({ delta: 0 }), /dp: parameter delta: must be in \[1e-12, 1\)/);
  assert.throws(() => dp.parse({ delta: 1 }), /dp: parameter delta: must be in \[1e-12, 1\)/);
  // Below the floor the message says why: the floating-point samplers cannot vouch for a smaller δ.
  assert.throws(
    () => dp.parse({ delta: 1e-100 }),
    /dp: parameter delta: must be in \[1e-12, 1\), got 1e-100 \(below 1e-12 the floating-point noise/,
  );
  dp.parse({ delta: 1e-12 });
  assert.throws(() => dp.parse({ delta: 1e-320 }), /dp: parameter delta/);
  assert.throws(() => dp.parse({ d: 0 }), /dp: parameter d: must be in \[1, /);
  assert.throws(
    () => dp.parse({ selection: "best" }),
    /dp: parameter selection: must be one of korolova, laplace/,
  );
  assert.throws(() => dp.parse({ alpha: -1 }), /dp: parameter alpha/);
  assert.throws(() => dp.parse({ epsilon: "abc" }), /dp: parameter epsilon: must be a number/);
  assert.throws(
    () => dp.parse({ noise: "urandom" }),
    /dp: parameter noise: must be one of crypto, seeded, got "urandom"/,
  );
  assert.throws(() => dp.parse({ clicks: "maybe" }), /dp: parameter clicks: must be true or false/);
  assert.deepEqual(
    dp.parse({ selection: "korolova", epsilon: "0.5", delta: "1e-6", noise: "seeded", clicks: "false" }),
    {
      selection: "korolova",
      epsilon: 0.5,
      delta: 1e-6,
      d: KOROLOVA_D,
      alpha: DEFAULT_ALPHA,
      noise: "seeded",
      clicks: false,
      canonical: false,
    },
  );
  // the defaults: the private sampler, the default strategy and its d
  assert.deepEqual(dp.parse({}), {
    selection: DEFAULT_SELECTION,
    epsilon: 1,
    delta: 1e-5,
    d: DEFAULT_D,
    alpha: DEFAULT_ALPHA,
    noise: "crypto",
    clicks: true,
    canonical: false,
  });
  // each strategy brings its own default d; --d overrides it
  for (const s of selections) {
    assert.equal(dp.parse({ selection: s.name }).d, s.defaultD, s.name);
    assert.equal(dp.parse({ selection: s.name, d: "7" }).d, 7, s.name);
  }
  assert.equal(selections.find((s) => s.name === DEFAULT_SELECTION)!.defaultD, DEFAULT_D);
});

test("seeded noise warns loudly on stderr, once; crypto noise does not", async () => {
  const input = { records: [{ user: "u", query: "q", time: 1 }], format: "aol" as const };
  const ctx = { rng: Rng.fromSeed(1), progress: silentProgress };
  let r: Awaited<ReturnType<typeof dp.anonymize>> | undefined;
  assert.deepEqual(await stderrOf(() => dp.anonymize(input, dp.parse({}), ctx)), []);
  const written = await stderrOf(async () => {
    r = await dp.anonymize(input, dp.parse({ noise: "seeded" }), ctx);
    await dp.anonymize(input, dp.parse({ noise: "seeded" }), ctx);
  });
  assert.equal(r?.counts["cryptographic noise"], 0);
  assert.deepEqual(written, [SEEDED_WARNING]);
  assert.match(SEEDED_WARNING, /NOT differentially private/);
});
