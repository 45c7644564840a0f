import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import type { QueryLog } from "../../src/log/record.ts";
import { km } from "../../src/methods/km/index.ts";
import { generateLog } from "../../src/synth/generate.ts";
import { assertSameByUser } from "../helpers/user-passes.ts";
import { logOf } from "./helpers.ts";

const paramsArb = fc.record({
  k: fc.constantFrom(2, 3),
  m: fc.constantFrom(1, 2, 3),
  target: fc.constantFrom("random", "users", "logsize", "clicks", "impressions"),
});

/** The generated log with a category and a unit per query text, as a classified log carries them. */
function classified(log: QueryLog): QueryLog {
  return {
    ...log,
    classified: true,
    records: log.records.map((r) => ({
      ...r,
      category: `Top/C${r.query.length % 5}`,
      unit: r.query.split(" ")[0],
    })),
  };
}

test("km read by user releases what the batch path releases (generated logs, plain and classified)", async () => {
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: 1, max: 1000 }), paramsArb, fc.boolean(), async (seed, raw, cls) => {
      const log = generateLog({ seed, users: 50 });
      await assertSameByUser(km, cls ? classified(log) : log, raw, seed);
    }),
    { numRuns: 16 },
  );
});

test("km read by user rescans shortened texts as the batch path does (a shortened name loses its words)", async () => {
  const log = logOf([
    ["u1", "mary qqq smith"],
    ["u2", "virgin mary"],
    ["u2", "smith college"],
    ["u3", "virgin mary"],
    ["u3", "smith college"],
  ]);
  const r = await assertSameByUser(km, log, { k: 2, m: 1, target: "users" });
  assert.equal(r.counts["terms suppressed as identifying once shortened"], 2);
  await assertSameByUser(km, classified(log), { k: 2, m: 1, target: "users" });
});
