/**
 * The classify worker's memo (`loadCategorize`'s): past its size it forgets the least recently used queries, not
 * all of them at once, so a query a long-lived stream keeps meeting is classified once. A counting stand-in for
 * the classifier; no knowledge base.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { CATEGORIZE_MEMO, loadCategorize } from "../../src/classify/categorize.ts";
import type { KnowledgeService } from "../../src/classify/service.ts";

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
