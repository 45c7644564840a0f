import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import type { QueryLog } from "../../src/log/record.ts";
import { kmByUser } from "../../src/methods/km/by-user.ts";
import { kmRecords } from "../../src/methods/km/index.ts";
import { Rng } from "../../src/util/random.ts";
import { keptSink, userPasses } from "../helpers/user-passes.ts";
import { arbFlaggedQuery as arbQuery, logOf } from "./helpers.ts";

/** Logs grouped by user: up to 12 users, each with a few queries. */
const arbGrouped: fc.Arbitrary<QueryLog> = fc
  .array(fc.array(arbQuery, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 12 })
  .map((users) => logOf(users.flatMap((queries, u) => queries.map((q): [string, string] => [`u${u}`, q]))));

test("km read by user, with and without holding the users a rescan visits, equals the batch release", async () => {
  let flagged = 0;
  await fc.assert(
    fc.asyncProperty(
      arbGrouped,
      fc.constantFrom(2, 3),
      fc.constantFrom(1, 2),
      fc.constantFrom("users" as const, "random" as const),
      fc.integer({ min: 1, max: 1000 }),
      async (log, k, m, target, seed) => {
        const params = { k, m, target };
        const batch = kmRecords(log.records, params, Rng.fromSeed(seed));
        flagged += batch.counts["terms suppressed as identifying once shortened"]!;
        for (const heldRows of [0, 3, 1_000_000]) {
          const out = keptSink();
          const r = await kmByUser(
            userPasses(log, 5),
            params,
            Rng.fromSeed(seed),
            out,
            undefined,
            undefined,
            undefined,
            heldRows,
          );
          assert.deepEqual(out.records, batch.records);
          assert.deepEqual(r.counts, batch.counts);
          assert.deepEqual(r.retained, batch.retained);
        }
      },
    ),
    { numRuns: 150 },
  );
  // The logs did exercise the rescans.
  assert.ok(flagged > 0);
});
