/**
 * PackedCounts (src/knowledge/packed-counts.ts) answers as a `Map` filled row by row from the same table would:
 * the same number for every key, none for any other word, the last number of a key listed twice, the same
 * entries in the same order.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { PackedCounts } from "../../src/knowledge/packed-counts.ts";
import { eachCountRow } from "../../src/knowledge/snapshot.ts";

const key = fc.string({ minLength: 1, maxLength: 8 }).filter((s) => !/[\n\t]/.test(s));
const count = fc.oneof(
  fc.nat(),
  fc.integer({ min: 0, max: 2 ** 52 }),
  fc.double({ min: 0, max: 1e6, noNaN: true }),
);

describe("PackedCounts", () => {
  it("answers as a Map of the same rows", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(key, count), { maxLength: 60 }), fc.array(key), (rows, probes) => {
        const text = rows.map(([k, v]) => `${k}\t${v}`).join("\n");
        const map = new Map<string, number>();
        eachCountRow(text, (k, v) => map.set(k, v));
        const packed = new PackedCounts(text);
        assert.equal(packed.size, map.size);
        assert.deepEqual([...packed.entries()], [...map.entries()]);
        for (const k of [...map.keys(), ...probes]) {
          assert.equal(packed.get(k), map.get(k));
          assert.equal(packed.has(k), map.has(k));
        }
      }),
    );
  });

  it("is empty for an empty table and refuses a line without a tab", () => {
    assert.equal(new PackedCounts("").size, 0);
    assert.equal(new PackedCounts("").get("a"), undefined);
    assert.throws(() => new PackedCounts("a\t1\nb"), /without a tab/);
  });
});
