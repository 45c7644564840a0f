/**
 * km over shards of users without servers (`shardedInProcess`: the cluster's passes, PostgreSQL's sums kept in
 * memory): the coordinator's greedy on the summed histories, the rescans as later passes and the workers' parts
 * merged in log order release what one machine releases, with the same counts, for 1 and 3 shards.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { shardedInProcess } from "../../src/cluster/batch-shard.ts";
import type { LogRecord, QueryLog } from "../../src/log/record.ts";
import { km } from "../../src/methods/km/index.ts";
import { generateLog } from "../../src/synth/generate.ts";
import { silentProgress } from "../../src/util/progress.ts";
import { Rng } from "../../src/util/random.ts";
import { keptSink, userPasses } from "../helpers/user-passes.ts";
import { arbFlaggedQuery as arbQuery, logOf } from "../km/helpers.ts";

/** Runs the sharded km and the single machine's; returns the single machine's counts. */
async function sameAsSingle(
  input: QueryLog,
  raw: Record<string, unknown>,
  shards: number,
  batchUsers: number,
  seed: number,
): Promise<Record<string, number>> {
  const params = km.parse(raw);
  const position = new Map<LogRecord, number>(input.records.map((r, i) => [r, i]));
  const passes = userPasses(input, 5);
  const out = keptSink();
  const ctx = () => ({ rng: Rng.fromSeed(seed), progress: silentProgress });
  const sharded = await shardedInProcess(
    km.sharded!,
    params,
    passes,
    { shards, batchUsers },
    (r) => position.get(r)!,
    ctx(),
    out,
  );
  const single = await km.anonymize(input, params, ctx());
  assert.deepEqual(out.records, single.log!.records);
  assert.deepEqual(sharded.counts, single.counts);
  assert.deepEqual(sharded.guarantee, single.guarantee);
  const byUser = keptSink();
  await km.anonymizeByUser!(userPasses(input, 7), params, ctx(), byUser);
  assert.deepEqual(byUser.records, out.records);
  return single.counts;
}

/** The log with a category and a unit per query text, as a classified log carries them. */
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

const arbLog: fc.Arbitrary<QueryLog> = fc
  .array(fc.array(fc.tuple(arbQuery, fc.integer({ min: 0, max: 2 })), { minLength: 1, maxLength: 6 }), {
    minLength: 1,
    maxLength: 12,
  })
  .map((users) =>
    logOf(users.flatMap((queries, u) => queries.map(([q, c]): [string, string, number] => [`u${u}`, q, c]))),
  );

test("km over shards: small logs whose rescans flag release what one machine releases", async () => {
  let flagged = 0;
  await fc.assert(
    fc.asyncProperty(
      arbLog,
      fc.record({
        k: fc.constantFrom(2, 3),
        m: fc.constantFrom(1, 2),
        target: fc.constantFrom("users", "random", "logsize", "clicks"),
      }),
      fc.constantFrom(1, 3),
      fc.constantFrom(1, 2, 50),
      fc.boolean(),
      fc.integer({ min: 1, max: 1000 }),
      async (log, raw, shards, batchUsers, cls, seed) => {
        const counts = await sameAsSingle(cls ? classified(log) : log, raw, shards, batchUsers, seed);
        flagged += counts["terms suppressed as identifying once shortened"]!;
      },
    ),
    { numRuns: 80 },
  );
  assert.ok(flagged > 0, "some rescans flagged words");
});

test("km over shards: generated logs, plain and classified, 1 and 3 shards", async () => {
  for (const [seed, shards] of [
    [3, 1],
    [5, 3],
    [8, 3],
  ] as const) {
    const log = generateLog({ seed, users: 120 });
    for (const input of [log, classified(log)]) {
      await sameAsSingle(input, { k: 3, m: 2 }, shards, 17, seed);
    }
  }
});

test("km over shards: a history longer than one row's text is cut into several rows and put together", async () => {
  const words = Array.from({ length: 900 }, (_, i) => `term${i}`);
  const rows: [string, string][] = [];
  for (let u = 0; u < 4; u++)
    for (let i = 0; i < words.length; i += 3) rows.push([`u${u}`, words.slice(i, i + 3 + u).join(" ")]);
  rows.push(["u9", "term1 term900 term901"]);
  await sameAsSingle(logOf(rows), { k: 3, m: 2 }, 3, 2, 4);
});
