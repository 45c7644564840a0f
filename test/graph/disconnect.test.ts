import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { groupEvents } from "../../src/log/events.ts";
import type { LogRecord } from "../../src/log/record.ts";
import { disconnect, priority, type Variant } from "../../src/methods/graph/disconnect.ts";
import { IndexedMaxHeap } from "../../src/methods/graph/max-heap.ts";
import { density, type QueryGraph, QueryGraphBuilder } from "../../src/methods/graph/query-graph.ts";
import { fig72Log, logArb } from "./fixtures.ts";
import { degrees, paperDisconnect } from "./paper-degree.ts";

function graphOf(records: LogRecord[], compactAt?: number): QueryGraph {
  const b = new QueryGraphBuilder(compactAt);
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

/**
 * The heuristic written naively: recompute every degree from the URL sets at each step. `perUrl`: the method's
 * degree (one per shared URL: Σ over v's URLs of the other live queries on it); else the paper's query graph (one
 * per other query sharing any URL).
 */
function naiveDisconnect(g: QueryGraph, variant: Variant, threshold: number, perUrl = true): number[] {
  const n = g.queries.length;
  const sets = Array.from({ length: n }, (_, v) => urlSet(g, v));
  const alive = new Set(Array.from({ length: n }, (_, v) => v));
  const removed: number[] = [];
  for (;;) {
    const deg = new Map<number, number>();
    let edges = 0;
    for (const v of alive) {
      let d = 0;
      for (const x of alive) {
        if (x === v) continue;
        const shared = [...sets[v]!].filter((u) => sets[x]!.has(u)).length;
        d += perUrl ? shared : Math.min(1, shared);
      }
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

/** Whether two distinct queries of `g` share two or more URLs (where the two degrees differ). */
function sharesTwo(g: QueryGraph): boolean {
  const seen = new Set<string>();
  for (let v = 0; v < g.queries.length; v++) {
    const urls = [...urlSet(g, v)].sort((a, b) => a - b);
    for (let i = 0; i < urls.length; i++) {
      for (let j = i + 1; j < urls.length; j++) {
        const pair = `${urls[i]},${urls[j]}`;
        if (seen.has(pair)) return true;
        seen.add(pair);
      }
    }
  }
  return false;
}

/** Random logs in which no two queries share two URLs: each query clicks one URL of its own and up to two hubs. */
const sparseLogArb = fc
  .array(
    fc.record({
      user: fc.integer({ min: 0, max: 5 }),
      query: fc.integer({ min: 0, max: 24 }),
      own: fc.boolean(),
      hub: fc.option(fc.integer({ min: 0, max: 3 })),
      dt: fc.integer({ min: 0, max: 2 }),
    }),
    { maxLength: 70 },
  )
  .map((evs) => {
    const recs: LogRecord[] = [];
    let time = 1_000_000;
    for (const e of [...evs].sort((a, b) => a.user - b.user)) {
      time += e.dt;
      // A query's hub is a function of the query, so two queries share at most that one hub.
      const urls = [
        ...(e.own ? [`http://own${e.query}.com`] : []),
        ...(e.hub !== null ? [`http://hub${e.query % 4}.com`] : []),
      ];
      if (urls.length === 0) recs.push({ user: `u${e.user}`, query: `q${e.query}`, time });
      for (const clickUrl of urls) recs.push({ user: `u${e.user}`, query: `q${e.query}`, time, clickUrl });
    }
    return recs;
  });

test("Fig. 7.2: the paper's toy graph has 15 edges (a 6-clique on u2), density 30/56; 18 counted per shared URL", () => {
  const g = graphOf(fig72Log().records);
  assert.deepEqual(g.queries, ["q1", "q2", "q3", "q4", "q5", "q6", "q7", "q8"]);
  assert.deepEqual([...degrees(g)], [5, 0, 5, 0, 5, 5, 5, 5]);
  const paper = paperDisconnect(g, { variant: 1, densityThreshold: 0 });
  assert.equal(paper.edgesBefore, 15);
  assert.equal(paper.densityBefore, 30 / 56);
  // q1, q5, q6 share u1 and u2: three pairs counted twice.
  const r = disconnect(g, { variant: 1, densityThreshold: 0 });
  assert.equal(r.edgesBefore, 18);
  assert.equal(r.densityBefore, 36 / 56);
  assert.equal(r.edgesAfter, 0);
  assert.equal(r.densityAfter, 0);
});

test("Fig. 7.2, Method 1: removes the paper's five clique members, first-seen first among equal degrees", () => {
  const g = graphOf(fig72Log().records);
  // The paper's degrees tie the whole clique at 5: q1, q3, q5, q6, q7 in order of first appearance.
  assert.deepEqual(
    [...paperDisconnect(g, { variant: 1, densityThreshold: 0 }).removed].map((v) => g.queries[v]),
    ["q1", "q3", "q5", "q6", "q7"],
  );
  // Per shared URL q1, q5, q6 (two URLs) go first: the same five, in another order.
  const r = disconnect(g, { variant: 1, densityThreshold: 0 });
  assert.deepEqual(
    [...r.removed].map((v) => g.queries[v]),
    ["q1", "q5", "q3", "q6", "q7"],
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
  // Per shared URL, after removing q1: 1 + 10 pairs among 7 nodes = 22/42 ≈ 0.524; after q5: 6 among 6 = 0.4.
  const r = disconnect(g, { variant: 1, densityThreshold: 0.45 });
  assert.deepEqual(
    [...r.removed].map((v) => g.queries[v]),
    ["q1", "q5"],
  );
  assert.equal(r.densityAfter, 0.4);
});

test("the grouped, lazy heuristic removes exactly what the naive recomputation removes, in the same order", () => {
  fc.assert(
    fc.property(
      logArb(50),
      fc.constantFrom<Variant>(1, 2, 3),
      fc.constantFrom(0, 0.05, 0.2),
      fc.constantFrom(undefined, 1, 2, 3),
      (recs, variant, threshold, heavyAt) => {
        const g = graphOf(recs);
        const r = disconnect(g, { variant, densityThreshold: threshold, ...(heavyAt ? { heavyAt } : {}) });
        assert.deepEqual([...r.removed], naiveDisconnect(g, variant, threshold));
        if (threshold === 0) {
          assert.equal(r.edgesAfter, 0);
          const alive = new Uint8Array(g.queries.length).fill(1);
          for (const v of r.removed) alive[v] = 0;
          assert.ok(degrees(g, alive).every((d) => d === 0));
        }
      },
    ),
    { numRuns: 300 },
  );
});

test("where no two queries share two URLs, the removals are the paper's query graph's, in the same order", () => {
  fc.assert(
    fc.property(
      sparseLogArb,
      fc.constantFrom<Variant>(1, 2, 3),
      fc.constantFrom(0, 0.05, 0.2),
      fc.constantFrom(undefined, 2),
      (recs, variant, threshold, heavyAt) => {
        const g = graphOf(recs);
        assert.ok(!sharesTwo(g));
        const r = disconnect(g, { variant, densityThreshold: threshold, ...(heavyAt ? { heavyAt } : {}) });
        const paper = paperDisconnect(g, { variant, densityThreshold: threshold });
        assert.deepEqual([...r.removed], [...paper.removed]);
        assert.deepEqual([...r.removed], naiveDisconnect(g, variant, threshold, false));
        assert.equal(r.edgesBefore, paper.edgesBefore);
        assert.equal(r.densityAfter, paper.densityAfter);
      },
    ),
    { numRuns: 300 },
  );
});

test("where queries share two URLs, the final release still has no two queries sharing one", () => {
  fc.assert(
    fc.property(logArb(50), fc.constantFrom<Variant>(1, 2, 3), (recs, variant) => {
      const g = graphOf(recs);
      const alive = new Uint8Array(g.queries.length).fill(1);
      for (const v of disconnect(g, { variant, densityThreshold: 0 }).removed) alive[v] = 0;
      assert.ok(degrees(g, alive).every((d) => d === 0));
    }),
  );
});

test("dropping repeated (query, URL) pairs as the builder goes changes nothing in the graph", () => {
  fc.assert(
    fc.property(logArb(80), fc.integer({ min: 1, max: 8 }), (recs, compactAt) => {
      assert.deepEqual(graphOf(recs, compactAt), graphOf(recs));
    }),
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
