import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import type { LogRecord } from "../../src/log/record.ts";
import { ancestorKeys } from "../../src/methods/swap/buckets.ts";
import { swap, swapRecords } from "../../src/methods/swap/index.ts";
import { swapParams } from "../../src/methods/swap/meta.ts";
import { Rng } from "../../src/util/random.ts";
import { logArb } from "./fixtures.ts";

const top = (c: string | undefined) => (c ?? "").split("/").slice(0, 2).join("/");
const run = (recs: LogRecord[], raw: Record<string, unknown>, seed = 7) =>
  swapRecords(recs, swapParams.parse(raw), Rng.fromSeed(seed));

const kArb = fc.integer({ min: 2, max: 6 });

test("every input row is released exactly once or counted as suppressed", () => {
  fc.assert(
    fc.property(logArb(), kArb, fc.constantFrom("release", "suppress"), (recs, k, end) => {
      const out = run(recs, { k, end });
      const seen = new Set(out.origin);
      assert.equal(seen.size, out.origin.length, "no input row released twice");
      assert.equal(out.counts["released rows"]! + out.counts["suppressed rows"]!, recs.length);
      assert.equal(out.counts["held events"], 0);
      out.records.forEach((r, i) => {
        const src = recs[out.origin[i]!]!;
        assert.equal(r.query, src.query);
        assert.equal(r.clickUrl, src.clickUrl);
        assert.equal(r.itemRank, src.itemRank);
        assert.equal(r.category, src.category);
        assert.equal(r.source, undefined);
      });
    }),
  );
});

test("no query is released under its own author", () => {
  fc.assert(
    fc.property(logArb(3), kArb, fc.integer({ min: 1, max: 2 }), (recs, k, depth) => {
      const out = run(recs, { k, depth });
      out.records.forEach((r, i) => {
        assert.notEqual(r.user, recs[out.origin[i]!]!.user);
      });
    }),
  );
});

test("released per-user per-category counts equal the input's, less what was suppressed (any depth)", () => {
  fc.assert(
    fc.property(logArb(), kArb, fc.integer({ min: 1, max: 3 }), (recs, k, depth) => {
      const out = run(recs, { k, depth });
      const count = new Map<string, number>();
      const bump = (key: string, n: number) => count.set(key, (count.get(key) ?? 0) + n);
      // Counted on events: the first row of each event (itemRank 1 in the fixtures).
      const first = (r: LogRecord) => r.itemRank === 1;
      for (const r of recs) if (first(r)) bump(`${r.user}|${top(r.category)}`, 1);
      for (const r of out.records) if (first(r)) bump(`${r.user}|${top(r.category)}`, -1);
      const released = new Set(out.origin);
      recs.forEach((r, i) => {
        if (first(r) && !released.has(i)) bump(`${r.user}|${top(r.category)}`, -1);
      });
      for (const [key, n] of count) assert.equal(n, 0, key);
    }),
  );
});

test("with the release policy nothing is suppressed when buckets can always be paired", () => {
  // Two users alternating in one category: a full pairing always exists.
  const recs: LogRecord[] = Array.from({ length: 40 }, (_, i) => ({
    user: `u${i % 2}`,
    query: `q${i}`,
    time: 1000 + i,
    category: "Top/Arts",
  }));
  const out = run(recs, { k: 3 });
  assert.equal(out.counts["suppressed rows"], 0);
  assert.equal(out.records.length, 40);
});

test("a single-user bucket grows its k by δ and releases nothing", () => {
  const recs: LogRecord[] = Array.from({ length: 10 }, (_, i) => ({
    user: "alone",
    query: `q${i}`,
    time: 1000 + i,
    category: "Top/Arts",
  }));
  const out = run(recs, { k: 3, delta: 1.5 });
  assert.equal(out.records.length, 0);
  assert.equal(out.counts["suppressed rows"], 10);
  assert.ok(out.counts["k growths"]! > 0);
  assert.ok(out.counts["final k max"]! > 3);
});

test("the released time is the release time, never before the query's own time", () => {
  fc.assert(
    fc.property(logArb(), kArb, (recs, k) => {
      const out = run(recs, { k, end: "suppress" });
      out.records.forEach((r, i) => {
        assert.ok(r.time >= recs[out.origin[i]!]!.time);
      });
    }),
  );
});

test("click rows of one event travel together under one user", () => {
  fc.assert(
    fc.property(logArb(), (recs) => {
      const out = run(recs, { k: 3 });
      const userOf = new Map<string, string>();
      for (const r of out.records) {
        const prev = userOf.get(r.query);
        if (prev !== undefined) assert.equal(r.user, prev);
        userOf.set(r.query, r.user);
      }
    }),
  );
});

test("same seed gives the same output; the method works through the registry interface", async () => {
  const recs = fc.sample(logArb(5, 200), { seed: 3, numRuns: 1 })[0]!;
  const a = run(recs, { k: 3 }, 11);
  const b = run(recs, { k: 3 }, 11);
  assert.deepEqual(a.records, b.records);
  const p = swap.parse({ k: "4", delta: "1.5" });
  const rel = await swap.anonymize({ records: recs, format: "aol" }, p, {
    rng: Rng.fromSeed(1),
    progress: { start() {}, tick() {}, stop() {} },
  });
  assert.equal(rel.log?.format, "aol");
  assert.equal(rel.origin?.length, rel.log?.records.length);
});

test("parameters are validated where they enter", () => {
  assert.throws(() => swapParams.parse({ k: 1 }), /k/);
  assert.throws(() => swapParams.parse({ delta: 1 }), /delta/);
  assert.throws(() => swapParams.parse({ depth: 0 }), /depth/);
  assert.throws(() => swapParams.parse({ end: "drop" }), /end/);
  assert.deepEqual(swapParams.parse({}), {
    k: 3,
    delta: 1.2,
    depth: 1,
    end: "release",
    time: "release",
    maxDelay: 0,
    ownAuthor: false,
  });
});

test("ancestor keys go from the chosen depth up to the top level", () => {
  assert.deepEqual(ancestorKeys("Top/Sports/Soccer/UEFA", 2), ["Top/Sports/Soccer", "Top/Sports"]);
  assert.deepEqual(ancestorKeys("Top/Sports", 5), ["Top/Sports"]);
  assert.deepEqual(ancestorKeys("", 3), [""]);
});

test("at depth 3 no query is released under its author, and every row is released or counted suppressed", () => {
  fc.assert(
    fc.property(logArb(4), (recs) => {
      const out = run(recs, { k: 2, depth: 3 });
      out.records.forEach((r, i) => {
        assert.notEqual(r.user, recs[out.origin[i]!]!.user);
      });
      assert.equal(out.counts["released rows"]! + out.counts["suppressed rows"]!, recs.length);
    }),
  );
});

test("swap claims k only when every release waits for a bucket of k: not with the end-of-stream pairing, a bounded delay or its own author", async () => {
  const recs = fc.sample(logArb(5, 60), { seed: 3, numRuns: 1 })[0]!;
  const claim = async (raw: Record<string, unknown>) =>
    (
      await swap.anonymize({ records: recs, format: "aol" }, swap.parse(raw), {
        rng: Rng.fromSeed(1),
        progress: { start() {}, tick() {}, stop() {} },
      })
    ).guarantee;
  assert.deepEqual(await claim({ k: 3, end: "suppress" }), { model: "k-bucket", k: 3 });
  assert.deepEqual(await claim({ k: 3 }), { model: "none" }, "the end of the stream releases below k");
  assert.deepEqual(await claim({ k: 3, end: "suppress", maxDelay: 60 }), { model: "none" });
  assert.deepEqual(await claim({ k: 3, end: "suppress", ownAuthor: true }), { model: "none" });
});
