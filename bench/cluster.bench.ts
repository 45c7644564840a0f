/**
 * The distributed pipeline under load, on this machine with both servers on it (loopback only, bounded): the
 * shared AOL subset in time order (or a generated log when ../shared is absent) goes ingest → classify workers →
 * anonymizer workers (swap, k = 3, one per partition) → released stream → PostgreSQL profile writer, each worker
 * its own process. Reports sustained query events/s end to end, per-batch latency (ingest publish → released
 * batch seen on the bus) p50/p95/p99, and each stage alone in-process so the bottleneck is visible.
 *
 * `npm run bench -- cluster` (needs nats-server and PostgreSQL: scripts/setup.sh). Environment: QM_BENCH_CLASSIFIERS
 * (default 2), QM_BENCH_PARTITIONS (default 2), QM_BENCH_BATCH (records per ingest batch, default 2000).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadCategorize } from "../src/classify/categorize.ts";
import { openBus } from "../src/cluster/bus.ts";
import { writeConfig } from "../src/cluster/config.ts";
import { PartitionedStages } from "../src/cluster/embedded.ts";
import { ingest } from "../src/cluster/ingest.ts";
import { batchDeltas } from "../src/cluster/profile-writer.ts";
import {
  clusterConfig,
  clusterDown,
  clusterUp,
  freeLoopbackPort,
  missingPackages,
  natsUrl,
  pgUrl,
  serverArgs,
} from "../src/cluster/servers.ts";
import { resetStreams } from "../src/cluster/topology.ts";
import { decode, type ReleasedBatch } from "../src/cluster/wire.ts";
import { groupEvents } from "../src/log/events.ts";
import { openLog } from "../src/log/read.ts";
import type { LogRecord } from "../src/log/record.ts";
import { PgProfileStore } from "../src/profile/pg-store.ts";
import { writeResults } from "./results.ts";

const missing = missingPackages();
if (missing.length > 0) {
  console.log(`cluster bench skipped: needs ${missing.join(", ")} (scripts/setup.sh installs them)`);
  process.exit(0);
}

const CLI = fileURLToPath(new URL("../src/cli/main.ts", import.meta.url));
const AOL = fileURLToPath(new URL("../../shared/data/aol-top1000/aol_top1000_users.tsv.gz", import.meta.url));
const classifiers = Number(process.env.QM_BENCH_CLASSIFIERS ?? 2);
const partitions = Number(process.env.QM_BENCH_PARTITIONS ?? 2);
const batchSize = Number(process.env.QM_BENCH_BATCH ?? 2000);
const dir = mkdtempSync(join(tmpdir(), "qm-bench-cluster-"));

async function loadInput(): Promise<{ records: LogRecord[]; source: string }> {
  let path = AOL;
  let source = "shared AOL subset, time-ordered";
  if (!existsSync(AOL)) {
    path = join(dir, "gen.tsv");
    const r = spawnSync(process.execPath, [
      "--import",
      "tsx",
      CLI,
      "generate",
      "--users",
      "1000",
      "--seed",
      "1",
      "-q",
      "-o",
      path,
    ]);
    if (r.status !== 0) throw new Error("generate failed");
    source = "generated 1,000-user log (shared data absent), time-ordered";
  }
  const log = await openLog([path]);
  const records: LogRecord[] = [];
  for await (const b of log.batches()) for (const r of b) records.push(r);
  const idx = records.map((_, i) => i);
  idx.sort((a, b) => records[a]!.time - records[b]!.time || a - b);
  return { records: idx.map((i) => records[i]!), source };
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};

const { records, source } = await loadInput();
for (const r of records) delete r.source;
const events = groupEvents(records).length;
console.log(
  `input: ${source}: ${records.length.toLocaleString("en")} rows, ${events.toLocaleString("en")} query events`,
);

// Each stage alone, in this process (after a warm-up), to see where the time goes.
const stageAlone: Record<string, number> = {};
{
  const copy = records.map((r) => ({ ...r }));
  const categorize = await loadCategorize();
  let t = performance.now();
  for (const r of copy) categorize(r);
  stageAlone["classify rows/s (1 core, cold cache)"] = copy.length / ((performance.now() - t) / 1000);
  const stages = await PartitionedStages.create({ partitions, method: "swap", params: { k: 3 }, seed: 1 });
  t = performance.now();
  const released: LogRecord[] = [];
  for (let i = 0; i < copy.length; i += batchSize)
    for (const r of stages.push(copy.slice(i, i + batchSize))) released.push(r);
  for (const r of stages.flush()) released.push(r);
  stageAlone["anonymize rows/s (swap k=3, 1 core)"] = copy.length / ((performance.now() - t) / 1000);
  t = performance.now();
  const text = copy.slice(0, 100_000).map((r) => JSON.stringify(r));
  for (const s of text) JSON.parse(s);
  stageAlone["JSON encode+decode rows/s"] = 100_000 / ((performance.now() - t) / 1000);
  (globalThis as { __keep?: unknown }).__keep = released.length;
}

const cluster = clusterConfig(join(dir, "servers"), {
  natsPort: await freeLoopbackPort(),
  natsMonitorPort: await freeLoopbackPort(),
  pgPort: await freeLoopbackPort(),
});
await clusterUp(cluster);
const figures: Record<string, unknown> = {
  source,
  rows: records.length,
  events,
  classifiers,
  partitions,
  batchSize,
};
/** Send `input` through a fresh pipeline with worker processes; `rate` paces ingest (rows/s), else as fast as it goes. */
async function runPipeline(
  input: LogRecord[],
  rate?: number,
): Promise<{ seconds: number; rows: number; ingestRowsPerSec: number; latency: number[] }> {
  const bus = await openBus(natsUrl(cluster), "bench");
  await resetStreams(bus.jsm);
  await bus.close();
  const store = await PgProfileStore.open(pgUrl(cluster));
  await store.clear();
  await store.close();
  const b = await openBus(natsUrl(cluster), "bench");
  await writeConfig(b, {
    version: 1,
    partitions,
    method: "swap",
    params: { k: 3 },
    seed: 1,
    profileDepth: 1,
  });
  const args = serverArgs(cluster);
  // Each worker's exit, recorded from its start (a worker may finish before anyone waits for it).
  const exits = new Map<ChildProcess, Promise<{ code: number; at: number }>>();
  const worker = (a: string[]): ChildProcess => {
    const c = spawn(process.execPath, ["--import", "tsx", CLI, "cluster", "worker", ...a, ...args], {
      stdio: ["ignore", "ignore", "inherit"],
    });
    exits.set(
      c,
      new Promise((res) => c.once("exit", (code) => res({ code: code ?? 1, at: performance.now() }))),
    );
    return c;
  };
  const cls = Array.from({ length: classifiers }, () => worker(["classify"]));
  const anon = Array.from({ length: partitions }, (_, p) => worker(["anonymize", "--partition", String(p)]));
  const prof = worker(["profile", "--until-end"]);
  // Wait until every worker has loaded (its consumer is pulling): startup is not throughput.
  const names = ["classify", ...Array.from({ length: partitions }, (_, p) => `anon_${p}`), "profile"];
  for (const name of names) {
    const stream = name === "classify" ? "QM_INGEST" : name === "profile" ? "QM_RELEASED" : "QM_CLASSIFIED";
    for (;;) {
      const info = await b.jsm.consumers.info(stream, name).catch(() => undefined);
      if (info && (info.num_waiting ?? 0) >= (name === "classify" ? classifiers : 1)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  // Latency: when each ingest batch was published, and when its released batches appear on the bus.
  const published = new Map<number, number>();
  const latencies: number[] = [];
  const sub = b.nc.subscribe("qm.released.*", {
    callback: (_e, m) => {
      const rb = decode<ReleasedBatch>(m.data);
      const t0 = published.get(rb.inSeq);
      if (t0 !== undefined) latencies.push(performance.now() - t0);
    },
  });
  const t0 = performance.now();
  let n = 0;
  async function* batches() {
    for (let i = 0; i < input.length; i += batchSize) {
      if (rate !== undefined) {
        const due = t0 + (i / rate) * 1000;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      }
      published.set(++n, performance.now());
      yield input.slice(i, i + batchSize);
    }
  }
  await ingest(b, batches(), { batchSize });
  const tIngest = performance.now();
  const { code, at: tEnd } = await exits.get(prof)!;
  await Promise.all(anon.map((c) => exits.get(c)));
  for (const c of cls) c.kill("SIGTERM");
  await Promise.all(cls.map((c) => exits.get(c)));
  sub.unsubscribe();
  await b.close();
  if (code !== 0) throw new Error(`profile writer exited ${code}`);
  return {
    seconds: (tEnd - t0) / 1000,
    rows: input.length,
    ingestRowsPerSec: input.length / ((tIngest - t0) / 1000),
    latency: [50, 95, 99].map((p) => Math.round(pct(latencies, p))),
  };
}

try {
  {
    // PostgreSQL upserts alone.
    const store = await PgProfileStore.open(pgUrl(cluster));
    const deltas = batchDeltas(records.slice(0, 100_000), 1);
    const t = performance.now();
    for (let i = 0; i < deltas.length; i += 500)
      await store.applyBatch(`bench.${i}`, deltas.slice(i, i + 500));
    stageAlone["PostgreSQL profile deltas/s"] = deltas.length / ((performance.now() - t) / 1000);
    await store.clear();
    await store.close();
  }
  const throughput = await runPipeline(records);
  // Latency is measured below capacity: a time slice of the log paced at half the sustained rate.
  const rate = (throughput.rows / throughput.seconds) * 0.5;
  const paced = await runPipeline(records.slice(0, Math.min(records.length, Math.round(rate * 20))), rate);
  Object.assign(figures, {
    "end-to-end seconds": throughput.seconds,
    "end-to-end query events/s": events / throughput.seconds,
    "end-to-end rows/s": records.length / throughput.seconds,
    "ingest publish rows/s": throughput.ingestRowsPerSec,
    "backlog batch latency ms p50/p95/p99 (everything enqueued at once)": throughput.latency,
    "paced at rows/s": rate,
    "paced batch latency ms p50/p95/p99": paced.latency,
    stageAlone,
    load: loadavg(),
  });
  console.log(JSON.stringify(figures, null, 2));
  writeResults("cluster", figures);
} finally {
  await clusterDown(cluster, { wipe: true });
}
