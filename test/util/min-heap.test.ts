/** The merge heap pops in `before` order, keeping equal keys in push order when `before` breaks ties by it. */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { MinHeap } from "../../src/util/min-heap.ts";

test("a k-way merge through the heap is the stable sort of the runs' concatenation", () => {
  fc.assert(
    fc.property(
      fc.array(fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 30 }), { maxLength: 8 }),
      (raw) => {
        const runs = raw.map((r) => [...r].sort((a, b) => a - b));
        type S = { order: number; run: number[]; i: number };
        const heap = new MinHeap<S>(
          (a, b) => a.run[a.i]! < b.run[b.i]! || (a.run[a.i] === b.run[b.i] && a.order < b.order),
        );
        runs.forEach((run, order) => {
          if (run.length > 0) heap.push({ order, run, i: 0 });
        });
        const out: [number, number][] = [];
        while (heap.size > 0) {
          const s = heap.top();
          out.push([s.run[s.i]!, s.order]);
          heap.advanced(++s.i < s.run.length);
        }
        const want = runs
          .flatMap((run, order) => run.map((v) => [v, order] as [number, number]))
          .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
        assert.deepEqual(out, want);
      },
    ),
  );
});
