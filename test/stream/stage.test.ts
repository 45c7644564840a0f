/**
 * The stage contract (src/stream/stage.ts) a second runtime drives: a sealed snapshot is refused when it is of
 * another schema version, method or scope, malformed or edited; released records carry ids that are the same on
 * every run; and resuming from a snapshot and replaying the rest gives the uninterrupted run's release, under the
 * same ids. Driven through the embedded partitioned stages (the cluster's anonymizers use the same functions).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { type Identified, PartitionedStages } from "../../src/cluster/embedded.ts";
import type { LogRecord } from "../../src/log/record.ts";
import {
  openSnapshot,
  releasedRecordId,
  SnapshotError,
  STAGE_SNAPSHOT_VERSION,
  sealSnapshot,
} from "../../src/stream/stage.ts";
import { Rng } from "../../src/util/random.ts";

const CATS = ["Top/Arts/Movies", "Top/Sports/Soccer", "Top/Health/Fitness", "Top/Computers/Internet"];

/** A time-ordered classified stream of `n` records from 30 users over 120 queries. */
function stream(n: number, seed: number): LogRecord[] {
  const rng = Rng.fromSeed(seed);
  const out: LogRecord[] = [];
  let t = 1_141_171_200;
  for (let i = 0; i < n; i++) {
    t += rng.int(30);
    const q = rng.int(120);
    out.push({ user: `u${rng.int(30)}`, query: `q${q}`, time: t, category: CATS[q % CATS.length]! });
  }
  return out;
}

const config = { partitions: 3, method: "swap", params: { k: 3 }, seed: 21 };
const isCount = (p: unknown): p is number => Number.isInteger(p) && (p as number) >= 0;
const scope = { method: "swap", scope: "3 partitions" };

/** Batches of `size` through `stages`; every released record with its id (flush has none: end of stream). */
function run(stages: PartitionedStages, input: readonly LogRecord[], size: number): Identified[] {
  const out: Identified[] = [];
  for (let i = 0; i < input.length; i += size) out.push(...stages.pushIdentified(input.slice(i, i + size)));
  return out;
}

const byId = (xs: readonly Identified[]) => new Map(xs.map((x) => [x.id, JSON.stringify(x.record)]));

test("a sealed snapshot opens to its position and state; the state round-trips exactly", () => {
  fc.assert(
    fc.property(fc.jsonValue(), fc.nat(), (state, position) => {
      const text = sealSnapshot(scope, position, state);
      const opened = openSnapshot(text, scope, isCount);
      assert.equal(opened.position, position);
      assert.deepEqual(opened.state, JSON.parse(JSON.stringify(state)));
    }),
  );
});

test("a snapshot of another version, method or scope, malformed or edited, is refused with the reason", () => {
  const text = sealSnapshot(scope, 12, { held: [1, 2, 3], k: 3 });
  const nl = text.indexOf("\n");
  const header = JSON.parse(text.slice(0, nl)) as Record<string, unknown>;
  const withHeader = (h: Record<string, unknown>) =>
    `${JSON.stringify({ ...header, ...h })}${text.slice(nl)}`;
  const refused = (t: string, why: RegExp, expect = scope) =>
    assert.throws(
      () => openSnapshot(t, expect, isCount, "state.json"),
      (e: unknown) => {
        assert.ok(e instanceof SnapshotError);
        assert.match(e.message, /^state\.json: /);
        assert.match(e.message, why);
        return true;
      },
    );
  refused(
    withHeader({ version: STAGE_SNAPSHOT_VERSION - 1 }),
    /schema version 0, this querymask reads version 1/,
  );
  refused(withHeader({ version: undefined }), /schema version undefined/);
  refused(text.replace('"k":3', '"k":1'), /damaged or edited: its state does not match its digest/);
  refused(`${text} `, /damaged or edited/);
  refused(withHeader({ position: -1 }), /input position -1 is malformed/);
  refused(withHeader({ format: "something-else" }), /not a querymask stage snapshot/);
  refused("{not json", /not a querymask stage snapshot/);
  refused(JSON.stringify({ stages: [] }), /not a querymask stage snapshot/);
  refused(text, /holds a swap stage, this run is identity/, { method: "identity", scope: "3 partitions" });
  refused(text, /is of 3 partitions, not 2 partitions/, { method: "swap", scope: "2 partitions" });
  // The unchanged text opens.
  assert.equal(openSnapshot(text, scope, isCount).position, 12);
});

test("the partitioned stages refuse another run's or a damaged saved state, and name the file", async () => {
  const stages = await PartitionedStages.create(config);
  run(stages, stream(500, 1), 50);
  const saved = stages.snapshot();
  await assert.rejects(
    PartitionedStages.create({ ...config, partitions: 2 }, saved, "/tmp/state.json"),
    /\/tmp\/state\.json: is of 3 partitions, not 2 partitions; not restored/,
  );
  await assert.rejects(
    PartitionedStages.create(config, saved.replace(/"nextTag":\d+/, '"nextTag":99999'), "state.json"),
    /state\.json: damaged or edited/,
  );
  // A sealed state that is not one stage state per partition.
  await assert.rejects(
    PartitionedStages.create(config, sealSnapshot(scope, 1, [{}]), "state.json"),
    /does not hold one stage state per partition/,
  );
});

test("released record ids are deterministic: two runs give the same id for the same record, ids are unique", async () => {
  const input = stream(3000, 7);
  const a = run(await PartitionedStages.create(config), input, 128);
  const b = run(await PartitionedStages.create(config), input, 128);
  assert.ok(a.length > 1000, `${a.length} released`);
  assert.equal(new Set(a.map((x) => x.id)).size, a.length, "ids are unique");
  assert.deepEqual(byId(a), byId(b));
  assert.ok(a.every((x) => /^p[0-2]\.\d+\.\d+$/.test(x.id)));
  assert.equal(releasedRecordId(2, 17, 4), "p2.17.4");
});

test("resume from a snapshot and replay: the same release under the same ids as one uninterrupted run", async () => {
  const input = stream(3000, 9);
  const size = 100;
  const whole = await PartitionedStages.create(config);
  const want = run(whole, input, size);
  const wantEnd = whole.flush();
  for (const cut of [0, 700, 1500, 2900]) {
    const first = await PartitionedStages.create(config);
    const before = run(first, input.slice(0, cut), size);
    // Written and read back as text, as `serve --state` does across a restart.
    const resumed = await PartitionedStages.create(config, first.snapshot());
    const after = run(resumed, input.slice(cut), size);
    assert.deepEqual(byId([...before, ...after]), byId(want), `cut at ${cut}`);
    assert.deepEqual(resumed.flush(), wantEnd, `end of stream after a cut at ${cut}`);
  }
});
