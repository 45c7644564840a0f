import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import type { LogRecord } from "../../src/log/record.ts";
import { kmRecords } from "../../src/methods/km/index.ts";
import { Rng } from "../../src/util/random.ts";
import { arbLog } from "./helpers.ts";

/** A classified record: the stand-in "classifier" gives every text a unit and a category of its own. */
const rec = (user: string, query: string, time: number): LogRecord => ({
  user,
  query,
  time,
  category: `Top/${query.split(" ").at(-1)}`,
  unit: query,
});

describe("km release carries only what it released", () => {
  it("a shortened query does not keep the Category and Unit of the text it lost", () => {
    const input = [
      rec("u1", "ohio weight loss", 1),
      rec("u2", "ohio", 2),
      rec("u3", "ohio", 3),
      rec("u4", "ohio lakes", 4),
    ];
    const r = kmRecords(input, { k: 2, m: 1, target: "users" }, Rng.fromSeed(1));
    const shortened = r.records.filter((x) => x.user === "u1" || x.user === "u4");
    assert.equal(shortened.length, 2);
    for (const x of shortened) {
      assert.equal(x.query, "ohio");
      // Recomputed from the released text: what the input gives "ohio".
      assert.equal(x.unit, "ohio");
      assert.equal(x.category, "Top/ohio");
    }
  });

  it("a text the input never had gets empty classifier columns", () => {
    const input = [
      rec("u1", "blue whale", 1),
      rec("u2", "blue whale", 2),
      rec("u3", "blue secret", 3),
      rec("u4", "blue sky", 4),
    ];
    const r = kmRecords(input, { k: 2, m: 1, target: "users" }, Rng.fromSeed(1));
    const u3 = r.records.find((x) => x.user === "u3")!;
    assert.equal(u3.query, "blue");
    assert.equal(u3.category, "");
    assert.equal(u3.unit, "");
  });

  it("property: every released (text, category, unit) is one the input gives that text, or empty", () => {
    fc.assert(
      fc.property(arbLog, fc.integer({ min: 2, max: 4 }), fc.integer({ min: 1, max: 2 }), (log, k, m) => {
        const input = log.records.map((r) => rec(r.user, r.query, r.time));
        const byText = new Map(input.map((r) => [r.query, `${r.category}|${r.unit}`]));
        const out = kmRecords(input, { k, m, target: "users" }, Rng.fromSeed(3));
        for (const r of out.records) {
          const cols = `${r.category}|${r.unit}`;
          assert.ok(cols === "|" || byText.get(r.query) === cols, `${r.query}: ${cols}`);
        }
      }),
      { numRuns: 60 },
    );
  });
});
