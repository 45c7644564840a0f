import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { groupEvents } from "../../src/log/events.ts";
import type { LogRecord } from "../../src/log/record.ts";
import { disconnect, priority, type Variant } from "../../src/methods/graph/disconnect.ts";
import { IndexedMaxHeap } from "../../src/methods/graph/max-heap.ts";
import { degrees, density, type QueryGraph, QueryGraphBuilder } from "../../src/methods/graph/query-graph.ts";
import { fig72Log, logArb } from "./fixtures.ts";

function graphOf(records: LogRecord[]): QueryGraph {
  const b = new QueryGraphBuilder();
  for (const e of groupEvents(records)) {
    b.addEvent(e.query);
    for (let i = e.first; i < e.first + e.rows; i++) {
      const url = records[i]!.clickUrl;
      if (url) b.addClick(e.query, url);
    }
  }
  return b.build();
}

function urlSet(g: QueryGraph, v: number): Set<number> {
  return new Set(g.nodeUrls.subarray(g.nodeUrlStart[v]!, g.nodeUrlStart[v + 1]!));
}

/** The paper's heuristic written naively: recompute every degree from the URL sets at each step. */
function naiveDisconnect(g: QueryGraph, variant: Variant, threshold: number): number[] {
  const n = g.queries.length;
  const sets = Array.from({ length: n }, (_, v) => urlSet(g, v));
  const alive = new Set(Array.from({ length: n }, (_, v) => v));
  const removed: number[] = [];
  for (;;) {
    const deg = new Map<number, number>();
    let edges = 0;
    for (const v of alive) {
      let d = 0;
      for (const x of alive) if (x !== v && [...sets[v]!].some((u) => sets[x]!.has(u))) d++;
      deg.set(v, d);
      edges += d;
    }
    edges /= 2;
    if (edges === 0 || density(edges, alive.size) <= threshold) return removed;
    let best = -1;
    let bestKey = Number.NEGATIVE_INFINITY;
    for (const v of [...alive].sort((a, b) => a - b)) {
      const key = priority(g, variant, v, deg.get(v)!);
      if (key > bestKey) {
        best = v;
        bestKey = key;
      }
    }
    alive.delete(best);
    removed.push(best);
  }
}

test("Fig. 7.2: the toy graph has 15 edges (a 6-clique on u2), density 30/56", () => {
  const g = graphOf(fig72Log().records);
  assert.deepEqual(g.queries, ["q1", "q2", "q3", "q4", "q5", "q6", "q7", "q8"]);
  assert.deepEqual([...degrees(g)], [5, 0, 5, 0, 5, 5, 5, 5]);
  const r = disconnect(g, { variant: 1, densityThreshold: 0 });
  assert.equal(r.edgesBefore, 15);
  assert.equal(r.densityBefore, 30 / 56);
  assert.equal(r.edgesAfter, 0);
  assert.equal(r.densityAfter, 0);
});

test("Fig. 7.2, Method 1: removes five clique members by degree, first-seen first", () => {
  const g = graphOf(fig72Log().records);
  const r = disconnect(g, { variant: 1, densityThreshold: 0 });
  assert.deepEqual(
    [...r.removed].map((v) => g.queries[v]),
    ["q1", "q3", "q5", "q6", "q7"],
  );
  assert.equal(r.nodesAfter, 3);
});

test("Fig. 7.2, Method 3: degree/clicks removes the one-click queries first and keeps a two-URL query", () => {
  const g = graphOf(fig72Log().records);
  const r = disconnect(g, { variant: 3, densityThreshold: 0 });
  // keys: q3, q7, q8 = 5/1; q1, q5, q6 = 5/2 → q3; then q7 (4), q8 (3); then q1, q5 (deg/2) → q6 is left.
  assert.deepEqual(
    [...r.removed].map((v) => g.queries[v]),
    ["q3", "q7", "q8", "q1", "q5"],
  );
});

test("Fig. 7.2: a density threshold stops early", () => {
  const g = graphOf(fig72Log().records);
  // After removing q1: 10 edges among 7 nodes = 20/42 ≈ 0.476; after q3: 6 among 6 = 0.4.
  const r = disconnect(g, { variant: 1, densityThreshold: 0.45 });
  assert.deepEqual(
    [...r.removed].map((v) => g.queries[v]),
    ["q1", "q3"],
  );
  assert.equal(r.densityAfter, 0.4);
});

test("the incremental heuristic removes exactly what the naive recomputation removes", () => {
  fc.assert(
    fc.property(
      logArb(50),
      fc.constantFrom<Variant>(1, 2, 3),
      fc.constantFrom(0, 0.05, 0.2),
      (recs, variant, threshold) => {
        const g = graphOf(recs);
        const r = disconnect(g, { variant, densityThreshold: threshold });
        assert.deepEqual([...r.removed], naiveDisconnect(g, variant, threshold));
        if (threshold === 0) {
          assert.equal(r.edgesAfter, 0);
          const alive = new Uint8Array(g.queries.length).fill(1);
          for (const v of r.removed) alive[v] = 0;
          assert.ok(degrees(g, alive).every((d) => d === 0));
        }
      },
    ),
    { numRuns: 200 },
  );
});

test("nodes marked dead beforehand are neither counted nor removed", () => {
  const g = graphOf(fig72Log().records);
  const alive = new Uint8Array(8).fill(1);
  alive[0] = alive[2] = alive[4] = alive[5] = 0; // leave q7, q8 of the clique
  const r = disconnect(g, { variant: 1, densityThreshold: 0, alive });
  assert.equal(r.nodesBefore, 4);
  assert.equal(r.edgesBefore, 1);
  assert.deepEqual(
    [...r.removed].map((v) => g.queries[v]),
    ["q7"],
  );
  assert.equal(alive[6], 1, "the caller's array is not modified");
});

test("IndexedMaxHeap pops in key order, smaller id first on ties, across updates and deletes", () => {
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.integer({ min: 0, max: 19 }), fc.integer({ min: -3, max: 3 }), fc.boolean()), {
        maxLength: 80,
      }),
      (ops) => {
        const heap = new IndexedMaxHeap(20);
        const model = new Map<number, number>();
        for (const [id, key, del] of ops) {
          if (del) {
            heap.delete(id);
            model.delete(id);
          } else {
            heap.set(id, key);
            model.set(id, key);
          }
        }
        const expected = [...model].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([id]) => id);
        const got: number[] = [];
        while (heap.size > 0) got.push(heap.pop());
        assert.deepEqual(got, expected);
        assert.equal(heap.pop(), -1);
      },
    ),
  );
});
