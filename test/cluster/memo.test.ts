/**
 * The classify worker's memo (`loadCategorize`'s): past its size it forgets the least recently used queries, not
 * all of them at once, so a query a long-lived stream keeps meeting is classified once. A counting stand-in for
 * the classifier; no knowledge base.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { CATEGORIZE_MEMO, loadCategorize } from "../../src/classify/categorize.ts";
import type { KnowledgeService } from "../../src/classify/service.ts";
import { TwoGenerationCache } from "../../src/util/two-generation-cache.ts";

test("two generations: at most 2 × size entries; the last `size` keys set, and every key got since, are kept", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 8 }),
      fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 30 })), { maxLength: 200 }),
      (size, ops) => {
        const cache = new TwoGenerationCache<number, number>(size);
        const recent: number[] = []; // keys set or hit, most recent last
        for (const [isSet, k] of ops) {
          if (isSet) cache.set(k, k * 10);
          else if (cache.get(k) === undefined) continue;
          recent.push(k);
          assert.ok(cache.entries <= 2 * size);
        }
        // The last `size` distinct keys touched (set, or got with a hit) are all there, with their values.
        const last = [...new Set(recent.reverse())].slice(0, size);
        for (const k of last) assert.equal(cache.get(k), k * 10, `key ${k} of the last ${size}`);
      },
    ),
  );
});

test("past its size the memo forgets the least recently used queries, not all of them", async () => {
  const calls = new Map<string, number>();
  const knowledge = {
    classifier: async () => ({
      classify: (q: string) => {
        calls.set(q, (calls.get(q) ?? 0) + 1);
        return { category: "Top/Arts" };
      },
    }),
  } as unknown as KnowledgeService;
  const categorize = await loadCategorize(knowledge);
  const seen = (query: string) => categorize({ user: "u", query, time: 0 });
  // 1.5 × the memo's size of distinct queries, with one query met again every 1,000.
  const n = Math.round(CATEGORIZE_MEMO * 1.5);
  for (let i = 0; i < n; i++) {
    seen(`q${i}`);
    if (i % 1000 === 0) seen("hot");
  }
  assert.equal(calls.get("hot"), 1, "a query met all along is classified once");
  const before = calls.size;
  for (let i = n - 1000; i < n; i++) seen(`q${i}`);
  assert.equal(calls.size, before, "the most recent queries are remembered");
  assert.equal(calls.get(`q${n - 1}`), 1);
  seen("q0");
  assert.equal(calls.get("q0"), 2, "the least recently used is forgotten (the memo is bounded)");
});

test("the memo is the only cache: it asks the classifier not to keep the answer in its own LRU too", async () => {
  const cachedFlags: (boolean | undefined)[] = [];
  const knowledge = {
    classifier: async () => ({
      classify: (_q: string, cached?: boolean) => {
        cachedFlags.push(cached);
        return { category: "Top/Arts" };
      },
    }),
  } as unknown as KnowledgeService;
  const categorize = await loadCategorize(knowledge);
  for (const query of ["a", "b", "a"]) categorize({ user: "u", query, time: 0 });
  assert.deepEqual(cachedFlags, [false, false], "two distinct queries, each classified once, uncached");
});
