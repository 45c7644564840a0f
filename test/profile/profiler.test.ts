import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import fc from "fast-check";
import type { LogRecord } from "../../src/log/record.ts";
import { swapRecords } from "../../src/methods/swap/index.ts";
import { swapParams } from "../../src/methods/swap/meta.ts";
import { categoryAt, Profiler } from "../../src/profile/profiler.ts";
import { SqliteProfileStore } from "../../src/profile/sqlite-store.ts";
import { Rng } from "../../src/util/random.ts";
import { tempDir } from "../helpers/tmp.ts";
import { logArb } from "../swap/fixtures.ts";

function queries(user: string, category: string, n: number, t0: number): LogRecord[] {
  return Array.from({ length: n }, (_, i) => ({ user, query: `${category} ${i}`, time: t0 + i, category }));
}

/** Weight as the paper prints it: a percentage truncated to one decimal. */
const pct = (w: number) => Math.floor(w * 1000 + 1e-9) / 10;

test("the paper's profiler example (§3.3.1)", () => {
  const store = new SqliteProfileStore(":memory:");
  const p = new Profiler(store);
  p.update([
    ...queries("A", "Top/Science", 5, 0),
    ...queries("A", "Top/Business", 10, 100),
    ...queries("A", "Top/Arts", 20, 200),
    ...queries("A", "Top/Health", 5, 300),
    ...queries("A", "Top/Computers", 10, 400),
  ]);
  p.flush();
  const before = Object.fromEntries(store.profile("A").map((c) => [c.category, pct(c.weight)]));
  assert.deepEqual(before, {
    "Top/Arts": 40,
    "Top/Business": 20,
    "Top/Computers": 20,
    "Top/Health": 10,
    "Top/Science": 10,
  });
  p.update([{ user: "A", query: "champions league final", time: 999, category: "Top/Sports/Soccer" }]);
  p.flush();
  const after = Object.fromEntries(store.profile("A").map((c) => [c.category, pct(c.weight)]));
  assert.deepEqual(after, {
    "Top/Arts": 39.2,
    "Top/Health": 9.8,
    "Top/Science": 9.8,
    "Top/Computers": 19.6,
    "Top/Sports": 1.9,
    "Top/Business": 19.6,
  });
  store.close();
});

test("categoryAt truncates ODP paths to a depth", () => {
  assert.equal(categoryAt("Top/Sports/Soccer/UEFA", 1), "Top/Sports");
  assert.equal(categoryAt("Top/Sports/Soccer/UEFA", 2), "Top/Sports/Soccer");
  assert.equal(categoryAt("Top/Sports", 3), "Top/Sports");
  assert.equal(categoryAt("", 1), "");
});

test("profiles of the original and the swapped log are equal (§4.5), on a file store", () => {
  const dir = tempDir("qm-profile-");
  try {
    fc.assert(
      fc.property(logArb(4, 100), (recs) => {
        const a = new SqliteProfileStore(join(dir, "a.sqlite"));
        const b = new SqliteProfileStore(":memory:");
        try {
          const out = swapRecords(recs, swapParams.parse({ k: 3 }), Rng.fromSeed(4));
          // Compare on what was released: drop the suppressed events from the original side.
          const kept = new Set(out.origin);
          const pa = new Profiler(a);
          pa.update(recs.filter((_, i) => kept.has(i)));
          pa.flush();
          const pb = new Profiler(b, 1, 7); // tiny flush window: many transactions, same result
          for (let i = 0; i < out.records.length; i += 5) pb.update(out.records.slice(i, i + 5));
          pb.flush();
          assert.deepEqual(a.rows(), b.rows());
        } finally {
          a.close();
          b.close();
          rmSync(join(dir, "a.sqlite"), { force: true });
          rmSync(join(dir, "a.sqlite-wal"), { force: true });
          rmSync(join(dir, "a.sqlite-shm"), { force: true });
        }
      }),
      { numRuns: 30 },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("an event split across two batches is counted once", () => {
  const store = new SqliteProfileStore(":memory:");
  const p = new Profiler(store);
  const row = { user: "u", query: "q", time: 5, category: "Top/Arts" };
  p.update([row, { ...row, clickUrl: "a" }]);
  p.update([{ ...row, clickUrl: "b" }]);
  p.flush();
  assert.deepEqual(store.rows(), [{ user: "u", category: "Top/Arts", count: 1 }]);
  store.close();
});
