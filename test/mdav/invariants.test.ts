/**
 * Property tests (fast-check) of the invariants of paper 004's method on random inputs: the exact and blocked
 * partitions cover every user once with clusters of k…2k−1 users, blocks keep ≥ 2k users, every released log
 * is shared by ≥ k users, the release is a function of the seed, and the sampled information loss.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import type { QueryLog } from "../../src/log/record.ts";
import { blockUsers } from "../../src/methods/mdav/blocking.ts";
import { mdav, semanticMicroaggregation } from "../../src/methods/mdav/index.ts";
import { semanticPartition } from "../../src/methods/mdav/partition.ts";
import { informationLoss, sampleIndices } from "../../src/metrics/information-loss.ts";
import { type Profile, profileOf } from "../../src/semantic/profile.ts";
import { Rng } from "../../src/util/random.ts";
import { paperMapper, randomLog } from "./fixtures.ts";

const mapper = paperMapper();
const space = mapper.space;
/** Category ids of the paper taxonomy below Top (depth ≥ 1). */
const cats = Array.from({ length: space.size }, (_, i) => i).filter((c) => space.depth[c]! > 0);

/** Random users as category profiles (some empty). */
const profiles = (maxUsers: number) =>
  fc
    .array(fc.array(fc.constantFrom(...cats), { maxLength: 8 }), { minLength: 1, maxLength: maxUsers })
    .map((users) => users.map((cs) => profileOf(cs)));

function checkPartition(clusters: readonly Int32Array[], n: number, k: number): void {
  const seen = new Uint8Array(n);
  for (const c of clusters) {
    for (const u of c) {
      assert.equal(seen[u], 0, `user ${u} in two clusters`);
      seen[u] = 1;
    }
  }
  assert.ok(
    seen.every((x) => x === 1),
    "every user is in a cluster",
  );
  if (n < 2 * k) assert.equal(clusters.length, 1);
  else
    for (const c of clusters) assert.ok(c.length >= k && c.length <= 2 * k - 1, `size ${c.length}, k ${k}`);
}

test("exact and blocked semantic partitions: every user once, every cluster k…2k−1 users", async () => {
  await fc.assert(
    fc.asyncProperty(
      profiles(80),
      fc.integer({ min: 2, max: 6 }),
      fc.integer({ min: 0, max: 20 }),
      async (ps: Profile[], k, extra) => {
        for (const variant of ["exact", "blocked"] as const) {
          const clusters = await semanticPartition(space, ps, {
            k,
            variant,
            blockSize: 2 * k + extra,
            workers: 0,
          });
          checkPartition(clusters, ps.length, k);
        }
      },
    ),
    { numRuns: 150 },
  );
});

test("blocks cover every user once, each with at least minSize users (a short last block is merged)", () => {
  fc.assert(
    fc.property(
      profiles(120),
      fc.integer({ min: 2, max: 6 }),
      fc.integer({ min: 0, max: 30 }),
      (ps, k, extra) => {
        const blockSize = 2 * k + extra;
        const blocks = blockUsers(space, ps, blockSize, 2 * k);
        const all = blocks.flat().sort((a, b) => a - b);
        assert.deepEqual(
          all,
          ps.map((_, i) => i),
        );
        if (blocks.length > 1)
          for (const b of blocks) assert.ok(b.length >= 2 * k, `block of ${b.length} < 2k`);
        for (const b of blocks.slice(0, -1)) assert.equal(b.length, blockSize);
      },
    ),
    { numRuns: 300 },
  );
  // 2k + 1 users in blocks of 2k: the single leftover user joins the first block
  const ps = Array.from({ length: 7 }, (_, i) => profileOf([cats[i % cats.length]!]));
  assert.deepEqual(
    blockUsers(space, ps, 6, 6).map((b) => b.length),
    [7],
  );
});

/** How many users share each user's released log (query, time and click of every row). */
function sharing(log: QueryLog): number[] {
  const byUser = new Map<string, string[]>();
  for (const r of log.records) {
    const l = byUser.get(r.user) ?? [];
    l.push(`${r.query}|${r.time}|${r.clickUrl ?? ""}`);
    byUser.set(r.user, l);
  }
  const keys = [...byUser.values()].map((l) => l.join("\n"));
  const count = new Map<string, number>();
  for (const key of keys) count.set(key, (count.get(key) ?? 0) + 1);
  return keys.map((key) => count.get(key)!);
}

test("every released log is shared by ≥ k users and the release is a function of the seed (random logs)", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 45 }),
      fc.integer({ min: 0, max: 10_000 }),
      fc.integer({ min: 2, max: 5 }),
      fc.constantFrom("exact", "blocked"),
      fc.integer({ min: 0, max: 1000 }),
      async (users, logSeed, k, variant, seed) => {
        const input = randomLog(users, logSeed);
        const params = mdav.parse({ k, variant, block: 2 * k + 3, workers: 0 });
        const rel = await semanticMicroaggregation(input, params, mapper, Rng.fromSeed(seed));
        const userCount = new Set(input.records.map((r) => r.user)).size;
        // with fewer than k users there is one cluster; otherwise each log is shared by at least k users
        for (const n of sharing(rel.log!)) assert.ok(n >= Math.min(k, userCount), `shared by ${n} < ${k}`);
        const again = await semanticMicroaggregation(input, params, mapper, Rng.fromSeed(seed));
        assert.deepEqual(again.log!.records, rel.log!.records);
      },
    ),
    { numRuns: 60 },
  );
});

test("the blocked partition does not depend on the number of worker threads", async () => {
  const input = randomLog(70, 3);
  const a = await semanticMicroaggregation(
    input,
    mdav.parse({ k: 3, variant: "blocked", block: 15, workers: 0 }),
    mapper,
    Rng.fromSeed(2),
  );
  const b = await semanticMicroaggregation(
    input,
    mdav.parse({ k: 3, variant: "blocked", block: 15, workers: 2 }),
    mapper,
    Rng.fromSeed(2),
  );
  assert.deepEqual(a.origin, b.origin);
});

test("sampled information loss: all users when the sample is large, else the sampled users only", async () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 60 }), fc.nat(), (n, m, seed) => {
      const s = sampleIndices(n, m, seed);
      assert.equal(s.length, Math.min(n, m));
      assert.equal(new Set(s).size, s.length);
      for (let i = 1; i < s.length; i++) assert.ok(s[i - 1]! < s[i]!);
      for (const x of s) assert.ok(x >= 0 && x < n);
      assert.deepEqual(sampleIndices(n, m, seed), s);
    }),
  );
  const original = randomLog(40, 21);
  const rel = await semanticMicroaggregation(original, mdav.parse({ k: 3 }), mapper, Rng.fromSeed(1));
  const full = informationLoss(original, rel.log!, { mapper, clusters: 5 });
  const big = informationLoss(original, rel.log!, { mapper, clusters: 5, sample: 1000 });
  assert.equal(big.loss, full.loss);
  assert.equal(big.users, full.users);
  const part = informationLoss(original, rel.log!, { mapper, clusters: 5, sample: 25, sampleSeed: 3 });
  assert.equal(part.users, 25);
  assert.ok(part.loss >= 0 && part.loss <= 100);
  assert.equal(informationLoss(original, original, { mapper, clusters: 5, sample: 25 }).loss, 0);
});
