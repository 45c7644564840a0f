/**
 * The distributed deployment's parts, each on servers started by the project's own code: the partition lease, the
 * service's cluster runtime, and the profile sink shared by SQLite and PostgreSQL. Skipped with a message when
 * nats-server or PostgreSQL is not installed (scripts/setup.sh installs both).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { openBus, workConsumer } from "../../src/cluster/bus.ts";
import { readSegment } from "../../src/cluster/classify-worker.ts";
import { writeConfig } from "../../src/cluster/config.ts";
import { natsUrl, pgUrl } from "../../src/cluster/servers.ts";
import { INGEST_STREAM, INGEST_SUBJECT, resetStreams } from "../../src/cluster/topology.ts";
import { decodeCommit } from "../../src/cluster/wire.ts";
import { PgProfileStore } from "../../src/profile/pg-store.ts";
import { SqliteProfileStore } from "../../src/profile/sqlite-store.ts";
import { skip, testServers } from "./servers.ts";

const servers = testServers();

test("a partition has one owner at a time: a second worker waits for the lease; a dead holder's lease expires", {
  skip,
}, async () => {
  const { Lease } = await import("../../src/cluster/lease.ts");
  const bus = await openBus(natsUrl(servers()), "lease-test");
  try {
    // ttl 3 s, renewed every 1 s: a's lease lapses under b only if a renewal stalls 2 s (at 600 ms a 400 ms stall
    // of a loaded machine did it).
    const a = await Lease.acquire(bus.state, "lease_test", "a", { ttlMs: 3000 });
    await assert.rejects(
      Lease.acquire(bus.state, "lease_test", "b", { ttlMs: 3000, waitMs: 4500 }),
      /held by a/,
    );
    await a.release();
    const b = await Lease.acquire(bus.state, "lease_test", "b", { ttlMs: 3000, waitMs: 4500 });
    // b dies without releasing (no renewals from now on): c gets the lease once it has expired.
    (b as unknown as { timer: NodeJS.Timeout }).timer.close();
    const t0 = Date.now();
    const c = await Lease.acquire(bus.state, "lease_test", "c", { ttlMs: 3000, waitMs: 20_000 });
    assert.ok(Date.now() - t0 >= 1500, "c waited for b's lease to expire");
    await c.release();
  } finally {
    await bus.close();
  }
});

test("a lease survives overlapping renewals and a renewal whose acknowledgement was lost; a takeover is noticed", {
  skip,
}, async () => {
  const { Lease } = await import("../../src/cluster/lease.ts");
  const bus = await openBus(natsUrl(servers()), "lease-test");
  try {
    const a = await Lease.acquire(bus.state, "lease_renew", "a", { ttlMs: 60_000 });
    const renew = () => (a as unknown as { renew(): Promise<void> }).renew();
    // Two renewals at once (a slow server under load): the second must not refuse the first.
    await Promise.all([renew(), renew(), renew()]);
    a.check();
    // A renewal the server stored but whose acknowledgement never came back: the key holds a's own value under a
    // revision a does not know.
    await bus.state.put("lease_renew", JSON.stringify({ holder: "a", expires: Date.now() + 60_000 }));
    await renew();
    a.check();
    // Another worker took the lease over (a stalled past its expiry): a must stop.
    await bus.state.put("lease_renew", JSON.stringify({ holder: "b", expires: Date.now() + 60_000 }));
    await renew();
    assert.throws(() => a.check(), /lost lease_renew/);
    await a.release();
  } finally {
    await bus.close();
  }
});

test("serve --cluster: an accepted batch lands on the ingest stream once, even when the client retries", {
  skip,
}, async () => {
  const { ClusterRuntime } = await import("../../src/service/runtime.ts");
  const { startService } = await import("../../src/service/server.ts");
  const bus = await openBus(natsUrl(servers()), "serve-test");
  await resetStreams(bus.jsm);
  await bus.close();
  const b = await openBus(natsUrl(servers()), "serve-test");
  await writeConfig(b, {
    version: 2,
    partitions: 1,
    classifyShards: 2,
    method: "swap",
    params: { k: 3 },
    seed: 1,
    profileDepth: 1,
  });
  // The classify workers' consumer, with no worker pulling: what is published waits there as lag.
  await workConsumer(b, INGEST_STREAM, "classify", INGEST_SUBJECT);
  const svc = await startService(new ClusterRuntime(b), { port: 0 });
  try {
    const body = `${Array.from({ length: 20 }, (_, i) =>
      JSON.stringify({
        user: `u${i % 4}`,
        query: `q${i}`,
        time: `2006-03-01 10:00:${String(i).padStart(2, "0")}`,
      }),
    ).join("\n")}\n`;
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${svc.url}/ingest`, {
        method: "POST",
        body,
        headers: { "idempotency-key": "batch-1" },
      });
      assert.equal(res.status, 200);
    }
    const bad = await fetch(`${svc.url}/ingest`, { method: "POST", body: `${body}{"user":""}\n` });
    assert.equal(bad.status, 400);
    const info = await b.jsm.streams.info("QM_INGEST");
    assert.equal(
      info.state.messages,
      1,
      "one commit: the retry was a duplicate, the bad request applied nothing",
    );
    const segInfo = await b.jsm.streams.info("QM_SEGMENTS", { subjects_filter: ">" });
    assert.equal(segInfo.state.messages, 2, "one segment per shard: the retry's were duplicates");
    assert.deepEqual(
      [0, 1].map((s) => segInfo.state.subjects?.[`qm.segment.${s}`] ?? 0),
      [1, 1],
    );
    // Split where it entered: each classify shard reads its own segment, and together they are the request's.
    const m = await b.jsm.streams.getMessage("QM_INGEST", { seq: info.state.first_seq });
    assert.ok(m, "the commit is on the ingest stream");
    const commit = decodeCommit(m.data, 2);
    const parts = await Promise.all([0, 1].map((s) => readSegment(b, s, commit.segments[s]!)));
    assert.ok(parts.every((p) => p.records.length > 0));
    assert.deepEqual(
      parts
        .flatMap((p) => p.records.map((r, i) => ({ i: p.ix![i]!, q: r.query })))
        .sort((x, y) => x.i - y.i)
        .map((x) => x.q),
      Array.from({ length: 20 }, (_, i) => `q${i}`),
    );
    const metrics = await (await fetch(`${svc.url}/metrics`)).text();
    assert.match(metrics, /^querymask_consumer_lag\{consumer="classify"\} 1$/m);
    assert.match(metrics, /^querymask_records_in_total 20$/m, "the retry is not counted again");
    assert.doesNotMatch(metrics, /querymask_records_out_total/, "the workers release, not the service");
  } finally {
    await svc.shutdown();
  }
});

test("ingest publishes a batch's segments before its commit; segments published again answer with the first ones' sequences", {
  skip,
}, async () => {
  const { publishCommit, publishSegments } = await import("../../src/cluster/ingest.ts");
  const bus = await openBus(natsUrl(servers()), "segments-test");
  await resetStreams(bus.jsm);
  await bus.close();
  const b = await openBus(natsUrl(servers()), "segments-test");
  try {
    const records = Array.from({ length: 40 }, (_, i) => ({ user: `u${i % 3}`, query: `q${i}`, time: i }));
    // A publisher that stored the segments and died before the commit: nothing is on the ingest stream, so no
    // classify worker reads any of it.
    const first = await publishSegments(b, records, 3, "i.1");
    assert.equal((await b.jsm.streams.info(INGEST_STREAM)).state.messages, 0);
    // Its retry (the same ids) stores no segment twice and names the ones stored first.
    const again = await publishSegments(b, records, 3, "i.1");
    assert.deepEqual(again, first);
    assert.equal((await b.jsm.streams.info("QM_SEGMENTS")).state.messages, first.filter((q) => q > 0).length);
    const ack = await publishCommit(b, again, true, "i.1");
    const m = await b.jsm.streams.getMessage(INGEST_STREAM, { seq: ack.seq });
    assert.ok(m);
    const commit = decodeCommit(m.data, 3);
    assert.equal(commit.end, true);
    const got = await Promise.all([0, 1, 2].map((s) => readSegment(b, s, commit.segments[s]!)));
    assert.deepEqual(
      got
        .flatMap((g) => g.records.map((r, i) => ({ i: g.ix![i]!, q: r.query })))
        .sort((x, y) => x.i - y.i)
        .map((x) => x.q),
      records.map((r) => r.query),
    );
    // A shard asked for another shard's segment refuses it.
    const s0 = commit.segments.findIndex((q) => q > 0);
    await assert.rejects(readSegment(b, (s0 + 1) % 3, commit.segments[s0]!), /not shard/);
  } finally {
    await b.close();
  }
});

test("the profile writer's sink is one interface: SQLite and PostgreSQL both apply each batch once and agree", {
  skip,
}, async () => {
  const deltas = [
    { user: "u1", category: "Top/Arts", count: 2 },
    { user: "u2", category: "Top/Sports", count: 1 },
  ];
  const pgStore = await PgProfileStore.open(pgUrl(servers()));
  await pgStore.clear();
  const lite = new SqliteProfileStore(":memory:");
  try {
    for (const sink of [pgStore, lite]) {
      assert.deepEqual(await sink.applyBatches([{ id: "r.0.1", deltas }]), [true]);
      assert.deepEqual(
        await sink.applyBatches([
          { id: "r.0.1", deltas },
          { id: "r.0.2", deltas: deltas.slice(0, 1) },
          { id: "r.0.2", deltas: deltas.slice(0, 1) },
        ]),
        [false, true, false],
        "a replayed batch is skipped, also when a group carries it twice",
      );
      assert.equal(await sink.countApplied("r.0."), 2);
    }
    assert.deepEqual(await pgStore.sortedRows(), await lite.sortedRows());
    assert.deepEqual(await lite.sortedRows(), [
      { user: "u1", category: "Top/Arts", count: 4 },
      { user: "u2", category: "Top/Sports", count: 1 },
    ]);
  } finally {
    lite.close();
    await pgStore.close();
  }
});

test("an anonymizer refuses to resume from a snapshot that is edited, of the old format, or of another partition", {
  skip,
}, async () => {
  const { runAnonymizeWorker, snapshotKey } = await import("../../src/cluster/anonymize-worker.ts");
  const { writeConfig } = await import("../../src/cluster/config.ts");
  const { sealSnapshot } = await import("../../src/stream/stage.ts");
  const bus = await openBus(natsUrl(servers()), "snapshot-test");
  await resetStreams(bus.jsm);
  await bus.close();
  const b = await openBus(natsUrl(servers()), "snapshot-test");
  try {
    await writeConfig(b, {
      version: 2,
      partitions: 2,
      classifyShards: 1,
      method: "swap",
      params: { k: 3 },
      seed: 1,
      profileDepth: 1,
    });
    const position = { nextInSeq: 5, resumeStreamSeq: 9, ended: false };
    const sealed = sealSnapshot({ method: "swap", scope: "partition 0" }, position, { core: { v: 2 } });
    const refused = async (value: string, why: RegExp) => {
      await b.state.put(snapshotKey(0), value);
      await assert.rejects(runAnonymizeWorker(b, 0), (e: unknown) => {
        assert.match((e as Error).message, /^snapshot anon_0 of the state bucket: /);
        assert.match((e as Error).message, why);
        return true;
      });
    };
    await refused(sealed.replace('"v":2', '"v":3'), /damaged or edited/);
    // What this worker wrote before the stage contract: a plain JSON object with its own version field.
    await refused(
      JSON.stringify({ version: 1, partition: 0, method: "swap", ...position, stage: {} }),
      /not a querymask stage snapshot/,
    );
    await refused(
      sealSnapshot({ method: "swap", scope: "partition 1" }, position, {}),
      /is of partition 1, not partition 0/,
    );
    await refused(sealed.replace('"nextInSeq":5', '"nextInSeq":0'), /input position .* is malformed/);
  } finally {
    await b.close();
  }
});

test("a profile writer restarted after every partition's end is applied stops at once instead of waiting forever", {
  skip,
}, async () => {
  const { runProfileWriter } = await import("../../src/cluster/profile-writer.ts");
  const { writeConfig } = await import("../../src/cluster/config.ts");
  const bus = await openBus(natsUrl(servers()), "writer-test");
  await resetStreams(bus.jsm);
  await bus.close();
  const b = await openBus(natsUrl(servers()), "writer-test");
  const store = await PgProfileStore.open(pgUrl(servers()));
  try {
    await store.clear();
    await writeConfig(b, {
      version: 2,
      partitions: 2,
      classifyShards: 1,
      method: "swap",
      params: { k: 3 },
      seed: 1,
      profileDepth: 1,
    });
    // What the first writer did before it was killed (or exited): both ends applied, every batch acknowledged.
    await store.applyBatches([
      { id: "end.0", deltas: [] },
      { id: "end.1", deltas: [] },
    ]);
    let timer: NodeJS.Timeout | undefined;
    const stuck = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error("the writer is still waiting")), 10_000);
    });
    await Promise.race([runProfileWriter(b, store, { untilEnd: true }), stuck]);
    clearTimeout(timer);
  } finally {
    await store.close();
    await b.close();
  }
});
