import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { groupEvents } from "../../src/log/events.ts";
import type { LogRecord, QueryLog } from "../../src/log/record.ts";
import { composedDelta, gaussianPlan, splitBudget } from "../../src/methods/dp/accountant.ts";
import { budget } from "../../src/methods/dp/budget.ts";
import { boundPairs, boundQueries, histories } from "../../src/methods/dp/contributions.ts";
import { dp, plan, plannedGuarantee } from "../../src/methods/dp/index.ts";
import { seededRandomness } from "../../src/methods/dp/random.ts";
import { SELECTION_NAMES, selections } from "../../src/methods/dp/selection/index.ts";
import { fillL2 } from "../../src/methods/dp/selection/policy-gaussian.ts";
import { fillL1 } from "../../src/methods/dp/selection/policy-laplace.ts";
import { shuffled, uniformBelow, userCounts } from "../../src/methods/dp/selection/selection.ts";
import { weightedHistogram } from "../../src/methods/dp/selection/weighted-gaussian.ts";
import { silentProgress } from "../../src/util/progress.ts";
import { Rng } from "../../src/util/random.ts";
import { event, logArb } from "../graph/fixtures.ts";

test("contribution bound: a user holds at most d distinct items, each once, their most frequent first", () => {
  fc.assert(
    fc.property(logArb(80), fc.integer({ min: 1, max: 5 }), (records, d) => {
      const users = histories(groupEvents(records));
      const b = boundQueries(users, d);
      let truncated = 0;
      let dropped = 0;
      users.forEach((list, u) => {
        const mine = b.users[u]!;
        assert.ok(mine.length <= d);
        assert.equal(new Set(mine).size, mine.length, "each item once per user");
        const freq = new Map<string, number>();
        for (const e of list) freq.set(e.query, (freq.get(e.query) ?? 0) + 1);
        assert.equal(mine.length, Math.min(d, freq.size));
        for (const id of mine) assert.ok(freq.has(b.keys[id]!), "only the user's own queries");
        // nothing left out was issued more often than something kept
        const kept = new Set([...mine].map((id) => b.keys[id]!));
        const minKept = Math.min(...[...kept].map((q) => freq.get(q)!));
        for (const [q, n] of freq) if (!kept.has(q)) assert.ok(n <= minKept);
        if (freq.size > d) truncated++;
        dropped += Math.max(0, freq.size - d);
      });
      assert.equal(b.usersTruncated, truncated);
      assert.equal(b.dropped, dropped);
      const n = userCounts(b.users, b.keys.length);
      for (const c of n) assert.ok(c >= 1 && c <= users.length);
      const released = new Set(b.keys.filter((_, i) => i % 2 === 0));
      const p = boundPairs(records, users, released, d);
      for (const list of p.users) assert.ok(list.length <= d && new Set(list).size === list.length);
      for (const key of p.keys) assert.ok(released.has(key.split("\t")[0]!));
    }),
    { numRuns: 300 },
  );
});

test("policy steps: a user adds at most 1 in ℓ1 (Laplace) or ℓ2 (Gaussian), never lowers or overfills", () => {
  fc.assert(
    fc.property(
      fc.array(fc.double({ min: 0, max: 12, noNaN: true }), { minLength: 1, maxLength: 12 }),
      fc.double({ min: 0.5, max: 10, noNaN: true }),
      (start, gamma) => {
        const items = Int32Array.from(start.keys());
        for (const [fill, norm] of [
          [fillL1, (v: number[]) => v.reduce((s, x) => s + Math.abs(x), 0)],
          [fillL2, (v: number[]) => Math.sqrt(v.reduce((s, x) => s + x * x, 0))],
        ] as const) {
          const h = Float64Array.from(start);
          fill(h, items, gamma);
          const added = start.map((x, i) => h[i]! - x);
          assert.ok(norm(added) <= 1 + 1e-9, `norm ${norm(added)}`);
          start.forEach((x, i) => {
            assert.ok(added[i]! >= -1e-12, "never lowers");
            if (x >= gamma) assert.equal(added[i], 0, "an item at Γ gets nothing");
            else assert.ok(h[i]! <= gamma + 1e-9, "never past Γ");
          });
          // with budget to spare, every open item reaches Γ exactly
          const gaps = start.map((x) => Math.max(0, gamma - x));
          if (norm(gaps) <= 1)
            start.forEach((x, i) => {
              if (x < gamma) assert.ok(Math.abs(h[i]! - gamma) < 1e-9);
            });
        }
      },
    ),
  );
  // ℓ1 water-filling by hand: gaps 0.2, 1, 1 with budget 1 → first fills (0.2 × 3 = 0.6), the rest share 0.4
  const h = Float64Array.from([4.8, 4, 4]);
  fillL1(h, Int32Array.from([0, 1, 2]), 5);
  assert.deepEqual(
    [...h].map((x) => Number(x.toFixed(12))),
    [5, 4.4, 4.4],
  );
});

test("the budget splits add up to the (ε, δ) asked for, and the release reports it", async () => {
  for (const clicks of [true, false]) {
    const s = splitBudget(1, 1e-5, clicks);
    const parts = [s.querySelection, s.queryCounts, s.pairSelection, s.pairCounts].filter(
      (x) => x !== undefined,
    );
    assert.ok(Math.abs(parts.reduce((a, p) => a + p.epsilon, 0) - 1) < 1e-12);
    assert.ok(Math.abs(parts.reduce((a, p) => a + p.delta, 0) - 1e-5) < 1e-18);
    // Gaussian plan: the zCDP split's ρ add up to the whole ρ (the selections before their PLD boost), the
    // thresholds take half of δ, ρ the largest that fits
    const g = gaussianPlan(1, 1e-5, clicks, 10);
    const steps = [g.querySelection, g.queryCounts, g.pairSelection, g.pairCounts].filter(
      (x) => x !== undefined,
    );
    const selections = [g.querySelection, g.pairSelection].filter((x) => x !== undefined);
    const unboosted =
      selections.reduce((a, p) => a + p.rho, 0) / g.boost +
      [g.queryCounts, g.pairCounts].reduce((a, p) => a + (p?.rho ?? 0), 0);
    assert.ok(Math.abs(unboosted - g.rho) < 1e-12 * g.rho);
    const thr = steps.reduce((a, p) => a + p.thresholdDelta, 0);
    assert.ok(Math.abs(thr - 5e-6) < 1e-18);
    const thresholds = steps.map((p) => p.thresholdDelta).filter((t) => t > 0);
    assert.ok(composedDelta(g.rho, 1, thresholds) <= 1e-5);
    assert.ok(composedDelta(g.rho * (1 + 1e-9), 1, thresholds) > 1e-5 * (1 - 1e-6));
  }
  const recs = Array.from({ length: 5 }, (_, u) => event(`u${u}`, "q", u, ["http://x.com"])).flat();
  for (const selection of SELECTION_NAMES) {
    const r = await dp.anonymize(
      { records: recs, format: "aol" },
      dp.parse({ selection, epsilon: 0.7, delta: 1e-6 }),
      { rng: Rng.fromSeed(1), progress: silentProgress },
    );
    const g = r.guarantee;
    assert.equal(g.model, "differential-privacy", selection);
    assert.deepEqual(
      plannedGuarantee(dp.parse({ selection, epsilon: 0.7, delta: 1e-6, noise: "seeded" })),
      g,
    );
    assert.ok(g.model === "differential-privacy" && Math.abs(g.epsilon - 0.7) < 1e-12, selection);
    // basic composition spends δ exactly; the Gaussian plan up to its bisections (ρ and the PLD boost rounded down)
    assert.ok(
      g.model === "differential-privacy" && g.delta <= 1e-6 * (1 + 1e-12),
      `${selection}: δ ${g.model === "differential-privacy" ? g.delta : ""}`,
    );
    assert.ok(g.model === "differential-privacy" && g.delta >= 1e-6 * (1 - 1e-4), selection);
  }
});

/**
 * Neighbouring logs: `base` (n users who all issued "common" and one query of their own), and `base` plus one user
 * who issued "common" and a query nobody else did. Over many seeded runs, the release of the newcomer's own query
 * must stay within δ, and the release of "common" within e^ε·P + δ both ways.
 */
async function releaseRates(selection: string, n: number, trials: number) {
  const epsilon = 1;
  const delta = 0.02;
  const user = (u: string, own: string): LogRecord[] => [...event(u, "common", 1), ...event(u, own, 2)];
  const base: LogRecord[] = Array.from({ length: n }, (_, u) => user(`u${u}`, `own ${u}`)).flat();
  const plus: LogRecord[] = [...base, ...user("newcomer", "mine")];
  const params = dp.parse({ selection, epsilon, delta, d: 2, clicks: "false", noise: "seeded" });
  const rate = async (records: LogRecord[]) => {
    const input: QueryLog = { records, format: "aol" };
    let common = 0;
    let mine = 0;
    for (let t = 0; t < trials; t++) {
      const r = await dp.anonymize(input, params, { rng: Rng.fromSeed(t + 1), progress: silentProgress });
      const got = new Set(r.table!.queries.map((q) => q.query));
      if (got.has("common")) common++;
      if (got.has("mine")) mine++;
    }
    return { common: common / trials, mine: mine / trials };
  };
  return { epsilon, delta, without: await rate(base), with: await rate(plus) };
}

test("empirical privacy: one user's presence moves release rates within e^ε and δ, for every strategy", async () => {
  // A strategy whose threshold is 3 noise scales too low fails the δ check (tried on laplace: "mine" at ≈ 3.3δ).
  const trials = 3000;
  const slack = 3 * Math.sqrt(0.25 / trials); // three standard errors of a rate near ½
  const slackMine = 4 * Math.sqrt(0.02 / trials); // four standard errors of a rate near δ
  for (const selection of SELECTION_NAMES) {
    // choose n so that "common" is released about half the time: the strategy's threshold in the release's plan
    const sel = selections.find((s) => s.name === selection);
    const needed =
      sel === undefined
        ? budget(1, 0.02, 2, false).cutoff
        : plan(dp.parse({ selection, epsilon: 1, delta: 0.02, d: 2, clicks: "false" }), sel).queries.cal
            .usersNeeded;
    const n = Math.max(1, Math.round(needed));
    const r = await releaseRates(selection, n, trials);
    assert.equal(r.without.mine, 0, `${selection}: a query nobody issued is never released`);
    assert.ok(
      r.with.mine <= r.delta + slackMine,
      `${selection}: the newcomer's own query released at ${r.with.mine}`,
    );
    const e = Math.exp(r.epsilon);
    assert.ok(r.with.common <= e * r.without.common + r.delta + slack, `${selection}: ${JSON.stringify(r)}`);
    assert.ok(r.without.common <= e * r.with.common + r.delta + slack, `${selection}: ${JSON.stringify(r)}`);
    assert.ok(
      r.with.common > 0.05 && r.with.common < 0.95,
      `${selection}: the test is informative (${r.with.common})`,
    );
  }
});

test("weighted Gaussian: each user adds exactly 1/√k to each of their k items (ℓ2 norm 1), nothing else", () => {
  fc.assert(
    fc.property(
      fc.array(fc.uniqueArray(fc.integer({ min: 0, max: 30 }), { maxLength: 8 }), { maxLength: 20 }),
      (lists) => {
        const users = lists.map((l) => Int32Array.from(l));
        const h = weightedHistogram(users, 31);
        // removing any one user moves H by a vector of ℓ2 norm exactly 1 (0 for a user with no item)
        users.forEach((list, u) => {
          const without = weightedHistogram(
            users.filter((_, v) => v !== u),
            31,
          );
          const moved = Math.sqrt(h.reduce((s, x, i) => s + (x - without[i]!) ** 2, 0));
          assert.ok(Math.abs(moved - (list.length > 0 ? 1 : 0)) < 1e-9, `moved ${moved}`);
          for (const id of list)
            assert.ok(Math.abs(h[id]! - without[id]! - 1 / Math.sqrt(list.length)) < 1e-9);
        });
      },
    ),
    { numRuns: 200 },
  );
});

test("policies process users in a random order drawn from the noise source (uniform, not the log's order)", () => {
  const users = Array.from({ length: 4 }, (_, u) => Int32Array.from([u]));
  const first = new Map<number, number>();
  const random = seededRandomness(Rng.fromSeed(9));
  for (let t = 0; t < 4000; t++) {
    const o = shuffled(users, random);
    assert.deepEqual([...o].map((l) => l[0]).sort(), [0, 1, 2, 3], "a permutation");
    first.set(o[0]![0]!, (first.get(o[0]![0]!) ?? 0) + 1);
  }
  // each user is first a quarter of the time: 1000 ± 4.5 standard errors (σ ≈ 27)
  for (let u = 0; u < 4; u++) assert.ok(Math.abs(first.get(u)! - 1000) < 125, `${u}: ${first.get(u)}`);
  for (let t = 0; t < 200; t++) assert.ok(uniformBelow(random, 3) < 3);
});
