/**
 * The sharded batch path without servers: every shard's partial tables, summed, give the coordinator the
 * aggregates of the whole log, so its release is the single machine's, for any shard count and batch size.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { adderOf, shardPartials } from "../../src/cluster/batch-shard.ts";
import type { LogRecord, QueryLog } from "../../src/log/record.ts";
import { graph } from "../../src/methods/graph/index.ts";
import type { Method } from "../../src/methods/method.ts";
import { type PartialTable, sumInMemory } from "../../src/methods/sharded.ts";
import { threshold } from "../../src/methods/threshold/index.ts";
import { generateLog } from "../../src/synth/generate.ts";
import { silentProgress } from "../../src/util/progress.ts";
import { Rng } from "../../src/util/random.ts";
import { logArb } from "../graph/fixtures.ts";
import { keptSink, userPasses } from "../helpers/user-passes.ts";

const ctx = () => ({ rng: Rng.fromSeed(1), progress: silentProgress });

async function sameAsSingle<P>(
  method: Method<P>,
  input: QueryLog,
  raw: Record<string, unknown>,
  shards: number,
  batchUsers: number,
): Promise<void> {
  const params = method.parse(raw);
  const position = new Map<LogRecord, number>(input.records.map((r, i) => [r, i]));
  const order = (r: LogRecord) => position.get(r)!;
  const tables: PartialTable[] = [];
  let batches = 0;
  for (let shard = 0; shard < shards; shard++) {
    const done = await shardPartials(
      userPasses(input),
      adderOf(method.sharded!, params),
      { shard, shards, batchUsers },
      order,
      async (_b, t) => {
        tables.push(t);
      },
    );
    batches += done.batches;
  }
  assert.equal(tables.length, batches);
  const out = keptSink();
  const sharded = await method.sharded!.release(
    sumInMemory(tables),
    userPasses(input),
    params,
    ctx(),
    out,
    async () => {
      throw new Error("one pass");
    },
  );
  const single = await method.anonymize(input, params, ctx());
  assert.deepEqual(out.records, single.log!.records);
  assert.deepEqual(sharded.counts, single.counts);
}

const shapes = fc.record({ shards: fc.integer({ min: 1, max: 3 }), batchUsers: fc.constantFrom(1, 2, 50) });

test("threshold over shards: the summed partials release what one machine releases", async () => {
  await fc.assert(
    fc.asyncProperty(logArb(80), fc.integer({ min: 2, max: 4 }), shapes, async (records, k, s) => {
      await sameAsSingle(threshold, { records, format: "aol" }, { k }, s.shards, s.batchUsers);
    }),
    { numRuns: 60 },
  );
  await sameAsSingle(threshold, generateLog({ seed: 4, users: 80 }), { k: 3 }, 2, 7);
});

test("graph over shards: the summed partials release what one machine releases", async () => {
  const params = fc.record({
    variant: fc.constantFrom(1, 2, 3),
    k: fc.constantFrom(0, 2),
    vulnerable: fc.boolean(),
  });
  await fc.assert(
    fc.asyncProperty(logArb(80), params, shapes, async (records, raw, s) => {
      await sameAsSingle(graph, { records, format: "aol" }, raw, s.shards, s.batchUsers);
    }),
    { numRuns: 60 },
  );
  await sameAsSingle(graph, generateLog({ seed: 4, users: 80 }), { variant: 2 }, 3, 5);
});

test("a shard skips the batches already applied and makes the same ones again", async () => {
  const input = generateLog({ seed: 9, users: 40 });
  const position = new Map<LogRecord, number>(input.records.map((r, i) => [r, i]));
  const order = (r: LogRecord) => position.get(r)!;
  const all: [number, number][] = [];
  const run = { shard: 1, shards: 2, batchUsers: 3 };
  const params = threshold.parse({ k: 2 });
  await shardPartials(userPasses(input), adderOf(threshold.sharded!, params), run, order, async (b, t) => {
    all.push([b, t.size]);
  });
  const again: [number, number][] = [];
  await shardPartials(
    userPasses(input),
    adderOf(threshold.sharded!, params),
    run,
    order,
    async (b, t) => {
      again.push([b, t.size]);
    },
    (b) => b % 2 === 0,
  );
  assert.deepEqual(
    again,
    all.filter(([b]) => b % 2 === 1),
  );
});
