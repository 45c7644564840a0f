import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { checkKmAnonymity } from "../../src/audit/checks/km.ts";
import { adValueRetained, km, kmRecords } from "../../src/methods/km/index.ts";
import { kmParams } from "../../src/methods/km/meta.ts";
import { TARGETS, type Target } from "../../src/methods/km/targets.ts";
import { ParamError } from "../../src/methods/method.ts";
import { silentProgress } from "../../src/util/progress.ts";
import { Rng } from "../../src/util/random.ts";
import { arbLog, logOf } from "./helpers.ts";

const ctx = (seed: number) => ({ rng: Rng.fromSeed(seed), progress: silentProgress });
const bids = new Map([
  ["a", 3],
  ["b", 0.5],
  ["c", 2],
  ["d", 1],
]);

describe("km method (paper 003)", () => {
  it("suppresses a term held by fewer than k users and drops a query left empty", () => {
    const log = logOf([
      ["u1", "weather boston", 2],
      ["u1", "zyx"],
      ["u2", "weather boston"],
      ["u3", "weather"],
    ]);
    const r = kmRecords(log.records, { k: 2, m: 2, target: "users" }, Rng.fromSeed(1));
    // "zyx" is u1's alone: its query disappears; both click rows of the first event stay, text unchanged.
    assert.deepEqual(
      r.records.map((x) => [x.user, x.query]),
      [
        ["u1", "weather boston"],
        ["u1", "weather boston"],
        ["u2", "weather boston"],
        ["u3", "weather"],
      ],
    );
    assert.deepEqual([...r.origin], [0, 1, 3, 4]);
    assert.equal(r.counts["events dropped"], 1);
    assert.equal(r.counts["terms suppressed"], 1);
  });

  it("resolves a pair violation with the target function and rewrites every row of the event", () => {
    // {cheap, paris} is held by u1 alone; each term by 2 users. "impressions": cheap is in 3 query events,
    // paris in 2, so paris goes from u1; then paris is u3's alone and goes too, emptying u3's query.
    const log = logOf([
      ["u1", "cheap paris", 2],
      ["u2", "cheap"],
      ["u2", "cheap"],
      ["u3", "paris"],
    ]);
    const r = kmRecords(log.records, { k: 2, m: 2, target: "impressions" }, Rng.fromSeed(1));
    assert.deepEqual(
      r.records.map((x) => [x.user, x.query]),
      [
        ["u1", "cheap"],
        ["u1", "cheap"],
        ["u2", "cheap"],
        ["u2", "cheap"],
      ],
    );
    assert.equal(r.counts["terms suppressed"], 2);
    assert.equal(r.counts["events dropped"], 1);
    assert.equal(r.counts["events shortened"], 1);
  });

  it("always releases a log the independent checker accepts", () => {
    fc.assert(
      fc.property(
        arbLog,
        fc.integer({ min: 2, max: 4 }),
        fc.integer({ min: 1, max: 3 }),
        fc.constantFrom(...TARGETS),
        fc.integer(),
        (log, k, m, target: Target, seed) => {
          const r = kmRecords(log.records, { k, m, target }, Rng.fromSeed(seed), bids);
          const check = checkKmAnonymity(r.records, k, m, 5);
          assert.equal(check.violations, 0, JSON.stringify(check.examples));
          // Suppression only removes: every released row comes from its origin, terms a subset of it.
          r.records.forEach((rec, i) => {
            const src = log.records[r.origin[i]!]!;
            assert.equal(rec.user, src.user);
            const srcTerms = new Set(src.query.split(" "));
            for (const t of rec.query.split(" ")) assert.ok(srcTerms.has(t));
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it("reports the same measures as adValueRetained recomputed from the two logs", () => {
    fc.assert(
      fc.property(arbLog, fc.integer({ min: 2, max: 3 }), fc.integer({ min: 1, max: 2 }), (log, k, m) => {
        const r = kmRecords(log.records, { k, m, target: "clicks" }, Rng.fromSeed(1), bids);
        const again = adValueRetained(log, { records: r.records, format: "aol" }, bids);
        for (const key of Object.keys(again) as (keyof typeof again)[]) {
          const a = r.retained[key];
          const b = again[key];
          if (a === null || b === null) assert.equal(a, b, key);
          else assert.ok(Math.abs(a - b) < 1e-9, `${key}: ${a} vs ${b}`);
        }
      }),
      { numRuns: 150 },
    );
  });

  it("leaves an already (k,m)-anonymous log unchanged", () => {
    const log = logOf([
      ["u1", "a b"],
      ["u2", "b a"],
      ["u3", "a  b"],
    ]);
    const r = kmRecords(log.records, { k: 3, m: 2, target: "random" }, Rng.fromSeed(3));
    assert.deepEqual(
      r.records.map((x) => x.query),
      ["a b", "b a", "a  b"],
    );
  });

  it("is deterministic for a seed", () => {
    fc.assert(
      fc.property(arbLog, fc.integer(), (log, seed) => {
        const a = kmRecords(log.records, { k: 2, m: 2, target: "random" }, Rng.fromSeed(seed));
        const b = kmRecords(log.records, { k: 2, m: 2, target: "random" }, Rng.fromSeed(seed));
        assert.deepEqual(a.records, b.records);
        assert.deepEqual(a.origin, b.origin);
      }),
      { numRuns: 100 },
    );
  });

  it("reports paper 003's retained measures and its guarantee", async () => {
    const log = logOf([
      ["u1", "a b", 1],
      ["u2", "a b"],
      ["u3", "a c"],
    ]);
    const release = await km.anonymize(log, km.parse({ k: 2, m: 1 }), ctx(1));
    assert.deepEqual(release.guarantee, { model: "km-anonymity", k: 2, m: 1 });
    // c is u3's alone: 6 term occurrences, 5 kept; 3 users kept.
    assert.equal(release.counts["% log size"], (100 * 5) / 6);
    assert.equal(release.counts["% users"], 100);
    assert.equal(release.counts["% bid"], undefined);
  });

  describe("parameters", () => {
    it("rejects k < 2 and m < 1 with a clear message", () => {
      assert.throws(
        () => kmParams.parse({ k: 1, m: 2 }),
        (e: unknown) => {
          assert.ok(e instanceof ParamError);
          assert.match(e.message, /^km: parameter k: must be an integer ≥ 2.*got 1$/);
          return true;
        },
      );
      assert.throws(() => kmParams.parse({ k: 2, m: 0 }), /parameter m: must be .*1.*got 0/);
      assert.throws(() => kmParams.parse({ k: 2, m: 1_000_000 }), /parameter m: must be .*8.*got 1000000/);
      assert.throws(() => kmParams.parse({ k: "2.5" }), /parameter k: .*got "2.5"/);
    });

    it("rejects an unknown target and a bid target without a bid table", () => {
      assert.throws(() => kmParams.parse({ target: "money" }), /parameter target: must be one of random, /);
      assert.throws(
        () => kmParams.parse({ target: "revenue" }),
        /parameter bid: target revenue needs a bid table/,
      );
      assert.deepEqual(kmParams.parse({ k: "10", m: "3", target: "bid", bid: "b.tsv" }), {
        k: 10,
        m: 3,
        target: "bid",
        bid: "b.tsv",
      });
    });
  });
});
