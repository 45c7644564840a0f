import { test } from "node:test";
import fc from "fast-check";
import { threshold } from "../../src/methods/threshold/index.ts";
import { generateLog } from "../../src/synth/generate.ts";
import { logArb } from "../graph/fixtures.ts";
import { assertSameByUser } from "../helpers/user-passes.ts";

test("threshold read by user releases what the batch path releases (random logs)", async () => {
  await fc.assert(
    fc.asyncProperty(logArb(80), fc.integer({ min: 2, max: 4 }), async (records, k) => {
      await assertSameByUser(threshold, { records, format: "aol" }, { k });
    }),
    { numRuns: 100 },
  );
});

test("threshold read by user releases what the batch path releases (generated logs)", async () => {
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: 1, max: 1000 }), fc.constantFrom(2, 3, 5), async (seed, k) => {
      await assertSameByUser(threshold, generateLog({ seed, users: 60 }), { k });
    }),
    { numRuns: 12 },
  );
});
