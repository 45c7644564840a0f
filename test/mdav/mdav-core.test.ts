import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { mdavPartition } from "../../src/methods/mdav/mdav-core.ts";
import { quotas } from "../../src/methods/mdav/representative.ts";

/** A random symmetric distance matrix with zero diagonal (points on a line plus noise-free ties). */
const matrix = fc
  .tuple(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 0, max: 1000 }))
  .chain(([n]) => fc.array(fc.integer({ min: 0, max: 20 }), { minLength: n, maxLength: n }))
  .map((xs) => {
    const n = xs.length;
    const data = new Float32Array(n * n);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) data[i * n + j] = Math.abs(xs[i]! - xs[j]!);
    return { n, data };
  });

test("MDAV: a partition of all records, every cluster with k…2k−1 records (one cluster when n < 2k)", () => {
  fc.assert(
    fc.property(matrix, fc.integer({ min: 2, max: 7 }), (m, k) => {
      const clusters = mdavPartition(m, k);
      const seen = new Set<number>();
      for (const c of clusters) for (const i of c) seen.add(i);
      assert.equal(seen.size, m.n);
      assert.equal(
        clusters.reduce((a, c) => a + c.length, 0),
        m.n,
      );
      if (m.n < 2 * k) assert.equal(clusters.length, 1);
      else
        for (const c of clusters)
          assert.ok(c.length >= k && c.length <= 2 * k - 1, `size ${c.length}, k ${k}`);
    }),
    { numRuns: 300 },
  );
});

test("MDAV groups well-separated groups together", () => {
  // three tight groups of 3 on a line: {0,1,2}, {100,101,102}, {200,201,202}
  const xs = [0, 100, 200, 1, 101, 201, 2, 102, 202];
  const n = xs.length;
  const data = new Float32Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) data[i * n + j] = Math.abs(xs[i]! - xs[j]!);
  const groups = mdavPartition({ n, data }, 3).map((c) => [...c].map((i) => Math.floor(xs[i]! / 100)));
  for (const g of groups) assert.equal(new Set(g).size, 1);
});

test("quotas (Eq. 7) add up to the cluster's mean profile size and never exceed a user's categories", () => {
  fc.assert(
    fc.property(fc.array(fc.integer({ min: 0, max: 500 }), { minLength: 1, maxLength: 13 }), (totals) => {
      const q = quotas(totals);
      const mean = totals.reduce((a, b) => a + b, 0) / totals.length;
      assert.equal(
        q.reduce((a, b) => a + b, 0),
        Math.round(mean),
      );
      q.forEach((x, i) => {
        assert.ok(x <= totals[i]!);
        assert.ok(Math.abs(x - totals[i]! / totals.length) < 1);
      });
    }),
  );
});
