import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import type { QueryLog } from "../../src/log/record.ts";
import { threshold } from "../../src/methods/threshold/index.ts";
import { generateLog } from "../../src/synth/generate.ts";
import { silentProgress } from "../../src/util/progress.ts";
import { Rng } from "../../src/util/random.ts";
import { logArb } from "../graph/fixtures.ts";
import { keptSink, userPasses } from "../helpers/user-passes.ts";

const ctx = () => ({ rng: Rng.fromSeed(1), progress: silentProgress });

/** The release read by user equals the batch release: the same records written, in order, and the same counts. */
async function sameRelease(input: QueryLog, k: number): Promise<void> {
  const params = threshold.parse({ k });
  const batch = await threshold.anonymize(input, params, ctx());
  const out = keptSink();
  const passes = userPasses(input, 7);
  const streamed = await threshold.anonymizeByUser!(passes, params, ctx(), out);
  assert.equal(streamed.log, undefined, "written to the sink, not held");
  assert.deepEqual(out.records, batch.log!.records);
  assert.deepEqual(streamed.counts, batch.counts);
  assert.equal(passes.count, 2);
  const held = await threshold.anonymizeByUser!(userPasses(input), params, ctx());
  assert.deepEqual(held.log, batch.log);
  assert.deepEqual(held.origin, batch.origin);
}

test("threshold read by user releases what the batch path releases (random logs)", async () => {
  await fc.assert(
    fc.asyncProperty(logArb(80), fc.integer({ min: 2, max: 4 }), async (records, k) => {
      await sameRelease({ records, format: "aol" }, k);
    }),
    { numRuns: 100 },
  );
});

test("threshold read by user releases what the batch path releases (generated logs)", async () => {
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: 1, max: 1000 }), fc.constantFrom(2, 3, 5), async (seed, k) => {
      await sameRelease(generateLog({ seed, users: 60 }), k);
    }),
    { numRuns: 12 },
  );
});
