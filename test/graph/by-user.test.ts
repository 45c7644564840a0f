import { test } from "node:test";
import fc from "fast-check";
import { graph } from "../../src/methods/graph/index.ts";
import { generateLog } from "../../src/synth/generate.ts";
import { assertSameByUser } from "../helpers/user-passes.ts";
import { fig72Log, logArb } from "./fixtures.ts";

const paramsArb = fc.record({
  variant: fc.constantFrom(1, 2, 3),
  density: fc.constantFrom(0, 0.05),
  vulnerable: fc.boolean(),
  k: fc.constantFrom(0, 1, 2),
  K: fc.constantFrom(0, 1),
});

test("graph read by user releases what the batch path releases (Fig. 7.2 and random logs)", async () => {
  await assertSameByUser(graph, fig72Log(), {});
  await fc.assert(
    fc.asyncProperty(logArb(80), paramsArb, async (records, raw) => {
      await assertSameByUser(graph, { records, format: "aol" }, raw);
    }),
    { numRuns: 100 },
  );
});

test("graph read by user releases what the batch path releases (generated logs)", async () => {
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: 1, max: 1000 }), paramsArb, async (seed, raw) => {
      await assertSameByUser(graph, generateLog({ seed, users: 60 }), raw);
    }),
    { numRuns: 12 },
  );
});
