/**
 * The HTTP service on the embedded runtime, in-process on a free loopback port: a batch is taken whole or not at
 * all, limits answer 413, metrics count what happened, and a shutdown + restart continues the stream exactly
 * where it stopped (the release over two lifetimes equals one uninterrupted run's).
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { PartitionedStages } from "../../src/cluster/embedded.ts";
import type { LogRecord } from "../../src/log/record.ts";
import { formatAolTime } from "../../src/log/time.ts";
import { EmbeddedRuntime } from "../../src/service/runtime.ts";
import { startService } from "../../src/service/server.ts";
import { Rng } from "../../src/util/random.ts";
import { tempDir } from "../helpers/tmp.ts";

const CATS = ["Top/Arts/Movies", "Top/Sports/Soccer", "Top/Health/Fitness", "Top/Computers/Internet"];

/** A time-ordered classified stream of `n` records from 40 users. */
function stream(n: number, seed: number): LogRecord[] {
  const rng = Rng.fromSeed(seed);
  const out: LogRecord[] = [];
  let t = 1_141_171_200;
  for (let i = 0; i < n; i++) {
    t += rng.int(30);
    out.push({
      user: `u${rng.int(40)}`,
      query: `q${rng.int(200)}`,
      time: t,
      category: CATS[rng.int(CATS.length)]!,
    });
  }
  return out;
}

const ndjson = (recs: readonly LogRecord[]) =>
  `${recs.map((r) => JSON.stringify({ ...r, time: formatAolTime(r.time) })).join("\n")}\n`;

const config = { partitions: 2, method: "swap", params: { k: 3 }, seed: 4 };

async function post(url: string, body: string, type = "application/x-ndjson") {
  const res = await fetch(`${url}/ingest`, { method: "POST", body, headers: { "content-type": type } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

function readReleased(path: string): string[] {
  return existsSync(path)
    ? readFileSync(path, "utf8")
        .split("\n")
        .filter((l) => l !== "")
    : [];
}

test("a bad line refuses the whole request with its line number; nothing of it is applied", async () => {
  const dir = tempDir();
  const released = join(dir, "released.ndjson");
  const svc = await startService(await EmbeddedRuntime.create(config, { releasedPath: released }), {
    port: 0,
  });
  try {
    assert.match(svc.url, /^http:\/\/127\.0\.0\.1:/, "binds loopback by default");
    const good = stream(50, 1);
    const body = ndjson(good).split("\n");
    body.splice(37, 0, '{"user":"x","query":"y","time":"yesterday"}');
    const r = await post(svc.url, body.join("\n"));
    assert.equal(r.status, 400);
    assert.equal(r.body.line, 38);
    assert.match(String(r.body.error), /^line 38: /);
    const metrics = await (await fetch(`${svc.url}/metrics`)).text();
    assert.match(metrics, /querymask_records_in_total 0\b/);
    assert.match(metrics, /querymask_rejected_requests_total\{reason="bad line"\} 1\b/);
    const ok = await post(svc.url, ndjson(good));
    assert.equal(ok.status, 200);
    assert.equal(ok.body.accepted, 50);
  } finally {
    await svc.shutdown();
  }
});

test("a body over the limit gets 413; TSV bodies are read as the AOL layout", async () => {
  const svc = await startService(await EmbeddedRuntime.create(config), { port: 0, maxBody: 2000 });
  try {
    const big = await post(svc.url, ndjson(stream(100, 2)));
    assert.equal(big.status, 413);
    const tsv =
      "AnonID\tQuery\tQueryTime\tItemRank\tClickURL\tCategory\tUnit\n" +
      "7\tcheap flights\t2006-03-01 10:00:00\t\t\tTop/Recreation/Travel\tflights\n";
    const r = await post(svc.url, tsv, "text/tab-separated-values");
    assert.equal(r.status, 200);
    assert.equal(r.body.accepted, 1);
    const bad = await post(svc.url, "7\tx\tnot a time\n", "text/tab-separated-values");
    assert.equal(bad.status, 400);
    assert.equal(bad.body.line, 1);
    assert.equal((await fetch(`${svc.url}/healthz`)).status, 200);
    assert.equal((await fetch(`${svc.url}/readyz`)).status, 200);
  } finally {
    await svc.shutdown();
  }
});

test("shutdown saves the stream's state; a restarted service continues it exactly", async () => {
  const dir = tempDir();
  const released = join(dir, "released.ndjson");
  const state = join(dir, "state.json");
  const recs = stream(3000, 3);
  const batches = [recs.slice(0, 700), recs.slice(700, 1500), recs.slice(1500, 2300), recs.slice(2300)];
  const opts = { releasedPath: released, statePath: state };
  let svc = await startService(await EmbeddedRuntime.create(config, opts), { port: 0 });
  for (const b of batches.slice(0, 2)) assert.equal((await post(svc.url, ndjson(b))).status, 200);
  await svc.shutdown();
  assert.ok(existsSync(state), "state saved on shutdown");
  svc = await startService(await EmbeddedRuntime.create(config, opts), { port: 0 });
  for (const b of batches.slice(2)) assert.equal((await post(svc.url, ndjson(b))).status, 200);
  await svc.shutdown();

  const whole = await PartitionedStages.create(config);
  const want: string[] = [];
  for (const b of batches) {
    // The service parses text, so compare text: the records as the service would write them.
    for (const r of whole.push(b.map((x) => ({ ...x })))) {
      want.push(
        JSON.stringify({ user: r.user, query: r.query, time: formatAolTime(r.time), category: r.category }),
      );
    }
  }
  const got = readReleased(released).map((l) => {
    const o = JSON.parse(l) as Record<string, unknown>;
    return JSON.stringify({ user: o.user, query: o.query, time: o.time, category: o.category });
  });
  assert.ok(want.length > 1000);
  assert.deepEqual(got, want);
});

test("/metrics: records out, per-partition held events and current k, per-stage latency histograms", async () => {
  const svc = await startService(await EmbeddedRuntime.create(config), { port: 0 });
  try {
    const recs = stream(2000, 5);
    assert.equal((await post(svc.url, ndjson(recs))).status, 200);
    const reference = await PartitionedStages.create(config);
    const out = reference.push(recs.map((r) => ({ ...r })));
    const counts = reference.counts();
    const text = await (await fetch(`${svc.url}/metrics`)).text();
    const value = (line: RegExp) => Number(text.match(line)?.[1]);
    assert.equal(value(/^querymask_records_in_total (\S+)$/m), 2000);
    assert.equal(value(/^querymask_records_out_total (\S+)$/m), out.length);
    for (const p of [0, 1]) {
      assert.equal(
        value(new RegExp(`^querymask_held_events\\{partition="${p}"\\} (\\S+)$`, "m")),
        counts[p]!["held events"],
      );
      assert.equal(
        value(new RegExp(`^querymask_current_k\\{partition="${p}"\\} (\\S+)$`, "m")),
        counts[p]!["final k mean"],
      );
    }
    assert.ok(
      counts.some((c) => (c["held events"] ?? 0) > 0),
      "some events are held at this point",
    );
    for (const stage of ["parse", "anonymize", "sink"])
      assert.equal(
        value(new RegExp(`^querymask_stage_seconds_count\\{stage="${stage}"\\} (\\S+)$`, "m")),
        1,
        stage,
      );
  } finally {
    await svc.shutdown();
  }
});

test("shutdown drains: a request in flight completes, new connections are refused", async () => {
  const { request } = await import("node:http");
  const svc = await startService(await EmbeddedRuntime.create(config), { port: 0 });
  // A keep-alive timeout far beyond the bound below: a shutdown that waited for the idle connection to time out
  // would take a minute, one that closes it takes milliseconds (the old bound, 3 s against Node's default 5 s,
  // was a race on a loaded machine).
  svc.server.keepAliveTimeout = 60_000;
  const body = ndjson(stream(300, 6));
  const half = Math.floor(body.length / 2);
  // The shutdown starts once the server has the request, not after a sleep it may not have had time in.
  const arrived = new Promise((r) => svc.server.once("request", r));
  let finish = () => {};
  const inflight = new Promise<{ status: number; body: string }>((res, rej) => {
    const req = request(
      `${svc.url}/ingest`,
      {
        method: "POST",
        headers: { "content-type": "application/x-ndjson", "content-length": Buffer.byteLength(body) },
      },
      (r) => {
        let text = "";
        r.on("data", (d: Buffer) => {
          text += d.toString();
        });
        r.on("end", () => res({ status: r.statusCode ?? 0, body: text }));
      },
    );
    req.on("error", rej);
    req.write(body.slice(0, half));
    finish = () => req.end(body.slice(half));
  });
  await arrived;
  const stopping = svc.shutdown();
  await assert.rejects(fetch(`${svc.url}/healthz`), "a new connection is refused");
  // The rest arrives after the shutdown has begun.
  finish();
  const r = await inflight;
  assert.equal(r.status, 200, r.body);
  assert.equal((JSON.parse(r.body) as { accepted: number }).accepted, 300);
  const t0 = Date.now();
  await stopping;
  assert.ok(Date.now() - t0 < 30_000, "shutdown does not wait for kept-alive idle connections to time out");
});

test("shutdown grace: /readyz answers 503 at once while requests are still taken, then connections are refused", async () => {
  // The two requests below must land inside the grace: 5 s, against milliseconds even on a loaded machine (600 ms
  // was not enough margin there).
  const svc = await startService(await EmbeddedRuntime.create(config), { port: 0, graceMs: 5000 });
  const stopping = svc.shutdown();
  const ready = await fetch(`${svc.url}/readyz`);
  assert.equal(ready.status, 503);
  assert.equal(((await ready.json()) as { status: string }).status, "shutting down");
  const r = await post(svc.url, ndjson(stream(50, 8)));
  assert.equal(r.status, 200, "a request inside the grace period is still taken");
  assert.equal(r.body.accepted, 50);
  await stopping;
  await assert.rejects(fetch(`${svc.url}/healthz`), "after the grace period and the drain, nothing is taken");
});

test('/readyz answers 503 "starting" until the runtime is ready (the classifier loaded); /healthz answers 200 throughout', async () => {
  let loaded = false;
  const inner = await EmbeddedRuntime.create(config);
  // The embedded runtime, as while its classifier still loads (preloadClassifier), until `loaded`.
  const runtime = Object.assign(Object.create(inner) as typeof inner, { ready: () => loaded });
  const svc = await startService(runtime, { port: 0 });
  try {
    const starting = await fetch(`${svc.url}/readyz`);
    assert.equal(starting.status, 503);
    assert.equal(((await starting.json()) as { status: string }).status, "starting");
    assert.equal((await fetch(`${svc.url}/healthz`)).status, 200);
    loaded = true;
    const ready = await fetch(`${svc.url}/readyz`);
    assert.equal(ready.status, 200);
    assert.equal(((await ready.json()) as { status: string }).status, "ready");
  } finally {
    await svc.shutdown();
  }
});

test("a retried request (same Idempotency-Key) is applied and counted once, and answered as a duplicate", async () => {
  const dir = tempDir("querymask-serve-");
  const released = join(dir, "released.ndjson");
  const svc = await startService(await EmbeddedRuntime.create(config, { releasedPath: released }), {
    port: 0,
  });
  try {
    const body = ndjson(stream(400, 12));
    const send = (key: string) =>
      fetch(`${svc.url}/ingest`, {
        method: "POST",
        body,
        headers: { "content-type": "application/x-ndjson", "idempotency-key": key },
      }).then(async (res) => ({ status: res.status, body: (await res.json()) as Record<string, unknown> }));
    const first = await send("b-1");
    const retry = await send("b-1");
    assert.equal(first.status, 200);
    assert.equal(first.body.duplicate, undefined);
    assert.equal(retry.status, 200);
    assert.deepEqual(retry.body, { ...first.body, duplicate: true });
    const other = await send("b-2"); // another key is another batch
    assert.equal(other.body.duplicate, undefined);
    const metrics = await (await fetch(`${svc.url}/metrics`)).text();
    assert.match(metrics, /^querymask_records_in_total 800$/m);
  } finally {
    await svc.shutdown();
  }
  const out = readReleased(released).length;
  const once = await PartitionedStages.create(config);
  const want = once.push(stream(400, 12)).length + once.push(stream(400, 12)).length;
  assert.equal(out, want, "the release holds the retried batch once");
});
