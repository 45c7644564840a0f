import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { mdav, semanticMicroaggregation } from "../../src/methods/mdav/index.ts";
import {
  averageLinkage,
  bestByCalinskiHarabasz,
  cutTree,
} from "../../src/metrics/hierarchical-clustering.ts";
import { informationLoss } from "../../src/metrics/information-loss.ts";
import { partitionDistance } from "../../src/metrics/partition-distance.ts";
import { Rng } from "../../src/util/random.ts";
import { paperMapper, randomLog } from "../mdav/fixtures.ts";

const labels = fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 40 });

test("López de Mántaras distance: 0 on identical or relabelled partitions, symmetric, in [0, 1]", () => {
  fc.assert(
    fc.property(labels, labels, (a, b) => {
      const m = Math.min(a.length, b.length);
      const x = a.slice(0, m);
      const y = b.slice(0, m);
      assert.equal(
        partitionDistance(
          x,
          x.map((l) => 10 - l),
        ),
        0,
      );
      const d = partitionDistance(x, y);
      assert.ok(d >= 0 && d <= 1);
      assert.ok(Math.abs(d - partitionDistance(y, x)) < 1e-12);
    }),
  );
  // independent partitions of 4 items: {0,0,1,1} vs {0,1,0,1}: MI = 0 → distance 1
  assert.equal(partitionDistance([0, 0, 1, 1], [0, 1, 0, 1]), 1);
});

test("average linkage recovers separated groups; Calinski–Harabasz matches its definition", () => {
  const xs = [0, 1, 2, 50, 51, 52, 100, 101, 102, 103];
  const n = xs.length;
  const d = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) d[i * n + j] = Math.abs(xs[i]! - xs[j]!);
  const tree = averageLinkage(n, d);
  const brute = (labels: Int32Array, K: number) => {
    let W = 0;
    let T = 0;
    for (let c = 0; c < K; c++) {
      const members = [...labels.keys()].filter((i) => labels[i] === c);
      let s = 0;
      for (const i of members) for (const j of members) if (i < j) s += d[i * n + j]! ** 2;
      W += s / members.length;
    }
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) T += d[i * n + j]! ** 2;
    T /= n;
    return (T - W) / (K - 1) / (W / (n - K));
  };
  for (const K of [2, 3, 4, 6])
    assert.ok(Math.abs(tree.ch[K]! - brute(cutTree(tree, K), K)) < 1e-6 * tree.ch[K]!);
  const best = bestByCalinskiHarabasz(tree, 8);
  for (let K = 2; K <= 8; K++) assert.ok(tree.ch[best]! >= tree.ch[K]!);
  const cut = cutTree(tree, 3);
  assert.deepEqual([...cut], [0, 0, 0, 1, 1, 1, 2, 2, 2, 2]);
  for (const K of [1, 2, 5, 10]) assert.equal(new Set(cutTree(tree, K)).size, K);
});

test("L is 0 for the original itself and positive after semantic microaggregation", async () => {
  const mapper = paperMapper();
  const original = randomLog(40, 11);
  assert.equal(informationLoss(original, original, { mapper, clusters: 5 }).loss, 0);
  const rel = await semanticMicroaggregation(original, mdav.parse({ k: 4 }), mapper, Rng.fromSeed(1));
  const l = informationLoss(original, rel.log!, { mapper, clusters: 5 });
  assert.ok(l.loss > 0 && l.loss <= 100);
  assert.equal(l.clusters, 5);
  const ch = informationLoss(original, rel.log!, { mapper });
  assert.equal(ch.chosenBy, "calinski-harabasz");
});
