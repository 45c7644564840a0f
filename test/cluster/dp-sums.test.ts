/**
 * dp over shards of users without servers (`shardedInProcess`: the cluster's arithmetic, PostgreSQL's sums kept in
 * memory): with seeded noise the summed contributions select, count and describe exactly what `anonymize` does
 * read by user — the same table, counts, notes and guarantee — for any shard count and batch size; the strategies
 * that are sequential over users or run in rounds are refused before anything starts.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { shardedInProcess } from "../../src/cluster/batch-shard.ts";
import type { LogRecord, QueryLog } from "../../src/log/record.ts";
import { dp } from "../../src/methods/dp/index.ts";
import { SELECTION_NAMES } from "../../src/methods/dp/selection/index.ts";
import { summedSelections } from "../../src/methods/dp/sharded.ts";
import type { Release } from "../../src/methods/method.ts";
import { generateLog } from "../../src/synth/generate.ts";
import { UsageError } from "../../src/util/errors.ts";
import { silentProgress } from "../../src/util/progress.ts";
import { Rng } from "../../src/util/random.ts";
import { logArb } from "../graph/fixtures.ts";
import { keptSink, userPasses } from "../helpers/user-passes.ts";

const ctx = () => ({ rng: Rng.fromSeed(9), progress: silentProgress, warn: () => {} });

/** The release public parts: what the summary, the table and the notes show. */
const shown = (r: Release) => ({ table: r.table, counts: r.counts, notes: r.notes, guarantee: r.guarantee });

async function bothWays(
  input: QueryLog,
  raw: Record<string, unknown>,
  shards: number,
  batchUsers: number,
): Promise<{ single: Release; sharded: Release }> {
  const params = dp.parse({ noise: "seeded", ...raw });
  const position = new Map<LogRecord, number>(input.records.map((r, i) => [r, i]));
  const sharded = await shardedInProcess(
    dp.sharded!,
    params,
    userPasses(input),
    { shards, batchUsers },
    (r) => position.get(r)!,
    ctx(),
    keptSink(),
  );
  const single = await dp.anonymizeByUser!(userPasses(input), params, ctx());
  return { single, sharded };
}

test("the cluster runs exactly the dp strategies that select from one sum over users, or in rounds of them", () => {
  assert.deepEqual([...summedSelections].sort(), [
    "dp-sips",
    "gaussian",
    "laplace",
    "length-weighted",
    "optimal",
    "targeted",
    "weighted-gaussian",
  ]);
});

test("dp over shards: every summed strategy releases what anonymize releases (seeded noise), clicks too", async () => {
  const log = generateLog({ seed: 4, users: 400 });
  for (const selection of summedSelections) {
    for (const [shards, batchUsers] of [
      [1, 1000],
      [3, 7],
    ] as const) {
      const { single, sharded } = await bothWays(
        log,
        { selection, epsilon: 20, delta: 1e-3, d: 2 },
        shards,
        batchUsers,
      );
      assert.ok(single.table!.queries.length > 0, `${selection} releases queries to compare`);
      assert.ok(single.table!.clicks.length > 0, `${selection} releases click pairs to compare`);
      assert.deepEqual(shown(sharded), shown(single), `${selection}, ${shards} shards`);
      // The exact figures too, apart from the distinct queries before the bound (the shards do not sum those).
      const { "distinct queries": _d, ...exact } = single.diagnostics!;
      assert.deepEqual(sharded.diagnostics, exact, `${selection} diagnostics`);
    }
  }
});

test("dp over shards: a release of nothing, and its note, are anonymize's", async () => {
  const log = generateLog({ seed: 5, users: 30 });
  const { single, sharded } = await bothWays(log, { selection: "laplace", epsilon: 0.05 }, 2, 3);
  assert.equal(single.table!.queries.length, 0);
  assert.deepEqual(shown(sharded), shown(single));
});

test("dp over shards: the default selection (targeted) in rounds, its passes, 1 and 3 shards", async () => {
  const log = generateLog({ seed: 6, users: 600 });
  for (const [shards, batchUsers] of [
    [1, 1000],
    [3, 11],
  ] as const) {
    const passes = userPasses(log);
    const params = dp.parse({ noise: "seeded", epsilon: 8, delta: 1e-4 });
    assert.equal(params.selection, "targeted");
    const position = new Map<LogRecord, number>(log.records.map((r, i) => [r, i]));
    const sharded = await shardedInProcess(
      dp.sharded!,
      params,
      passes,
      { shards, batchUsers },
      (r) => position.get(r)!,
      ctx(),
      keptSink(),
    );
    // Two reading passes per shard (queries, then the released queries' counts and click pairs); the other five
    // work from what the workers kept.
    assert.equal(passes.count, 2 * shards);
    const single = await dp.anonymizeByUser!(userPasses(log), params, ctx());
    assert.ok(single.table!.queries.length > 0 && single.table!.clicks.length > 0, "something to compare");
    assert.deepEqual(shown(sharded), shown(single), `${shards} shards`);
    const { "distinct queries": _d, ...exact } = single.diagnostics!;
    assert.deepEqual(sharded.diagnostics, exact);
  }
});

test("dp over shards: small random logs, any shard count and batch size (laplace, weighted-gaussian, rounds)", async () => {
  await fc.assert(
    fc.asyncProperty(
      logArb(60),
      fc.constantFrom("laplace", "weighted-gaussian", "targeted", "dp-sips"),
      fc.integer({ min: 1, max: 3 }),
      fc.constantFrom(1, 2, 50),
      async (records, selection, shards, batchUsers) => {
        const input: QueryLog = { records, format: "aol" };
        let single: Release | undefined;
        try {
          single = await dp.anonymizeByUser!(
            userPasses(input),
            dp.parse({ noise: "seeded", selection, epsilon: 50 }),
            ctx(),
          );
        } catch (e) {
          // A log with no user's query (or not grouped by user) is refused the same way on the cluster's path.
          await assert.rejects(bothWays(input, { selection, epsilon: 50 }, shards, batchUsers), {
            message: (e as Error).message,
          });
          return;
        }
        const { sharded } = await bothWays(input, { selection, epsilon: 50 }, shards, batchUsers);
        assert.deepEqual(shown(sharded), shown(single));
      },
    ),
    { numRuns: 80 },
  );
});

test("dp strategies sequential over users or in rounds are refused by name, with the ones the cluster runs", () => {
  for (const selection of SELECTION_NAMES.filter((s) => !summedSelections.includes(s))) {
    const params = dp.parse({ selection });
    assert.throws(
      () => dp.sharded!.check!(params),
      (e: unknown) =>
        e instanceof UsageError &&
        e.message.includes(`dp --selection ${selection} does not run on the cluster`) &&
        e.message.includes("laplace, gaussian, optimal, weighted-gaussian, length-weighted"),
      selection,
    );
  }
  for (const selection of summedSelections) dp.sharded!.check!(dp.parse({ selection }));
});
