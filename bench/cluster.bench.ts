/**
 * The distributed pipeline under load, on this machine with both servers on it (loopback only, bounded): the
 * shared AOL subset in time order (or a generated log when ../shared is absent) goes ingest → classify workers →
 * anonymizer workers (swap, k = 3, one per partition) → released stream → PostgreSQL profile writer, each worker
 * its own process. Reports sustained query events/s end to end, per-batch latency (ingest publish → released
 * batch seen on the bus) p50/p95/p99, and each stage alone in-process so the bottleneck is visible.
 *
 * `npm run bench -- cluster` (needs nats-server and PostgreSQL: scripts/setup.sh). Environment: QM_BENCH_CLASSIFIERS
 * (default 2; one per classify shard), QM_BENCH_PARTITIONS (default 2), QM_BENCH_BATCH (records per ingest batch, default 2000),
 * QM_BENCH_QUICK=1 (end to end only), QM_BENCH_STAGES=1 (stage-alone figures only), QM_BENCH_CPUPROF=<dir> (a --cpu-prof per worker under <dir>/<kind>/),
 * QM_BENCH_PRECLASSIFIED=1 (the bench classifies the input before the run, so the classify workers only pass
 * records on: the pipeline's own cost, without the classifier's), QM_BENCH_INGEST=1 (only what nats-server
 * spends carrying the ingest batches to 2, 4 and 8 classify shards: every shard reading every batch, as before
 * one subject per shard, against segments on their own subjects + commits; CPU and bytes out of nats-server).
 * Every process's CPU seconds over the run are reported, per kind and per 1,000 query events: robust to the
 * machine's load, unlike the events/s.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadCategorize } from "../src/classify/categorize.ts";
import { warmUp } from "../src/classify/warm-up.ts";
import { openBus } from "../src/cluster/bus.ts";
import { classifyConsumer } from "../src/cluster/classify-worker.ts";
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
import { decodeSegment, encodeSegments } from "../src/cluster/wire.ts";
import { groupEvents } from "../src/log/events.ts";
import { openLog } from "../src/log/read.ts";
import type { LogRecord } from "../src/log/record.ts";
import { PgProfileStore } from "../src/profile/pg-store.ts";
import { natsOut, procCpuSeconds, serverCpu } from "./cluster-cpu.ts";
import { ingestHop } from "./cluster-ingest.ts";
import { writeResults } from "./results.ts";
import { sharedAol } from "./shared-aol.ts";

const missing = missingPackages();
if (missing.length > 0) {
  console.log(`cluster bench skipped: needs ${missing.join(", ")} (scripts/setup.sh installs them)`);
  process.exit(0);
}

const CLI = fileURLToPath(new URL("../src/cli/main.ts", import.meta.url));
const AOL = sharedAol();
const classifiers = Number(process.env.QM_BENCH_CLASSIFIERS ?? 2);
const partitions = Number(process.env.QM_BENCH_PARTITIONS ?? 2);
const batchSize = Number(process.env.QM_BENCH_BATCH ?? 2000);
const cpuProfDir = process.env.QM_BENCH_CPUPROF;
/** QM_BENCH_QUICK=1: the end-to-end run only (no stage-alone figures, no paced latency run). */
const quick = process.env.QM_BENCH_QUICK === "1";
/** QM_BENCH_STAGES=1: the stage-alone figures only (no pipeline run). */
const stagesOnly = process.env.QM_BENCH_STAGES === "1";
/** QM_BENCH_INGEST=1: nats-server's cost of the ingest → classify shards hop only, both ways of splitting. */
const ingestOnly = process.env.QM_BENCH_INGEST === "1";
/** QM_BENCH_PRECLASSIFIED=1: classified input, so what the run costs is the pipeline without the classifier. */
const preclassified = process.env.QM_BENCH_PRECLASSIFIED === "1";
const dir = mkdtempSync(join(tmpdir(), "qm-bench-cluster-"));

/** Preloaded into each worker: its whole life's CPU and peak RSS, appended to QM_CPU_FILE when it exits (./cluster-cpu.ts). */
const CPU_REPORT =
  'data:text/javascript,import {appendFileSync} from "node:fs"; process.on("exit", () => { const u = process.resourceUsage(); appendFileSync(process.env.QM_CPU_FILE, JSON.stringify({pid: process.pid, cpu: (u.userCPUTime + u.systemCPUTime) / 1e6, maxRssKiB: u.maxRSS}) + "\\n"); });';

async function loadInput(): Promise<{ records: LogRecord[]; source: string }> {
  let path = AOL ?? "";
  let source = "shared AOL subset, time-ordered";
  if (AOL === undefined) {
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
if (preclassified) {
  const categorize = await loadCategorize();
  for (const r of records) categorize(r);
}
const events = groupEvents(records).length;
console.log(
  `input: ${source}: ${records.length.toLocaleString("en")} rows, ${events.toLocaleString("en")} query events`,
);

// Each stage alone, in this process, as rows per CPU-second of this process (robust to the machine's load, unlike
// wall time), to see where the time goes.
const stageAlone: Record<string, number> = {};
const cpuNow = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
if (!quick && !ingestOnly) {
  const copy = records.map((r) => ({ ...r }));
  if (!preclassified) {
    const categorize = await loadCategorize();
    warmUp(categorize); // lazily loaded parts, as the worker does
    const c0 = cpuNow();
    for (const r of copy) categorize(r);
    stageAlone["classify rows per CPU-s (one memo, cold)"] = copy.length / (cpuNow() - c0);
  }
  let c: number;
  const stages = await PartitionedStages.create({ partitions, method: "swap", params: { k: 3 }, seed: 1 });
  c = cpuNow();
  const released: LogRecord[] = [];
  for (let i = 0; i < copy.length; i += batchSize)
    for (const r of stages.push(copy.slice(i, i + batchSize))) released.push(r);
  for (const r of stages.flush()) released.push(r);
  stageAlone["anonymize rows per CPU-s (swap k=3)"] = copy.length / (cpuNow() - c);
  const sample = copy.slice(0, 100_000);
  // The codec alone, by message size, is bench/wire.bench.ts: in this process, which holds the whole log and the
  // classifier, every allocation costs several times what it costs in a worker.
  // What the classify shards read per ingest batch: each its own segment (published on its own subject).
  const segments: Uint8Array[] = [];
  for (let i = 0; i < sample.length; i += batchSize)
    for (const g of encodeSegments(sample.slice(i, i + batchSize), classifiers)) if (g) segments.push(g);
  for (const pass of [1, 2]) {
    c = cpuNow();
    for (const g of segments) decodeSegment(g);
    if (pass === 2)
      stageAlone["classify shards' read of their segments: rows per CPU-s"] = sample.length / (cpuNow() - c);
  }
  (globalThis as { __keep?: unknown }).__keep = released.length;
}

const cluster = clusterConfig(join(dir, "servers"), {
  natsPort: await freeLoopbackPort(),
  natsMonitorPort: await freeLoopbackPort(),
  pgPort: await freeLoopbackPort(),
});
await clusterUp(cluster);
const figures: Record<string, unknown> = {
  "load at start (1/5/15 min)": loadavg(),
  source,
  rows: records.length,
  events,
  classifiers,
  partitions,
  batchSize,
  preclassified,
};
/** Send `input` through a fresh pipeline with worker processes; `rate` paces ingest (rows/s), else as fast as it goes. */
async function runPipeline(
  input: LogRecord[],
  rate?: number,
): Promise<{
  seconds: number;
  rows: number;
  ingestRowsPerSec: number;
  latency: number[];
  cpu: Record<string, { cpuSeconds: number; peakRssMiB?: number }>;
  natsBytes: { in: number; out: number; subscriber: number };
}> {
  const bus = await openBus(natsUrl(cluster), "bench");
  await resetStreams(bus.jsm);
  await bus.close();
  const store = await PgProfileStore.open(pgUrl(cluster));
  await store.clear();
  await store.close();
  const b = await openBus(natsUrl(cluster), "bench");
  await writeConfig(b, {
    version: 2,
    partitions,
    classifyShards: classifiers,
    method: "swap",
    params: { k: 3 },
    seed: 1,
    profileDepth: 1,
  });
  const args = serverArgs(cluster);
  // Each worker's exit, recorded from its start (a worker may finish before anyone waits for it).
  const exits = new Map<ChildProcess, Promise<{ code: number; at: number }>>();
  const cpuFile = join(dir, `cpu-${Date.now()}.ndjson`);
  const role = new Map<ChildProcess, string>();
  const worker = (a: string[]): ChildProcess => {
    const prof = cpuProfDir ? ["--cpu-prof", "--cpu-prof-dir", join(cpuProfDir, a[0]!)] : [];
    const c = spawn(
      process.execPath,
      ["--import", "tsx", "--import", CPU_REPORT, ...prof, CLI, "cluster", "worker", ...a, ...args],
      { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, QM_CPU_FILE: cpuFile } },
    );
    role.set(c, a[0]!);
    exits.set(
      c,
      new Promise((res) => c.once("exit", (code) => res({ code: code ?? 1, at: performance.now() }))),
    );
    return c;
  };
  const cls = Array.from({ length: classifiers }, (_, s) => worker(["classify", "--shard", String(s)]));
  const anon = Array.from({ length: partitions }, (_, p) => worker(["anonymize", "--partition", String(p)]));
  const prof = worker(["profile", "--until-end"]);
  // Wait until every worker has loaded (its consumer is pulling): startup is not throughput.
  const names = [
    ...Array.from({ length: classifiers }, (_, s) => classifyConsumer(s)),
    ...Array.from({ length: partitions }, (_, p) => `anon_${p}`),
    "profile",
  ];
  for (const name of names) {
    const stream = name.startsWith("classify")
      ? "QM_INGEST"
      : name === "profile"
        ? "QM_RELEASED"
        : "QM_CLASSIFIED";
    for (;;) {
      const info = await b.jsm.consumers.info(stream, name).catch(() => undefined);
      if (info && (info.num_waiting ?? 0) >= 1) break;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  // Latency: when each ingest batch was published, and when its released batches appear on the bus.
  const published = new Map<number, number>();
  const latencies: number[] = [];
  // The batch's position from its message id (`r.<p>.<inSeq>`), not from decoding it: the subscriber's CPU is
  // counted with ingest's.
  let subscriberBytes = 0;
  const sub = b.nc.subscribe("qm.released.*", {
    callback: (_e, m) => {
      subscriberBytes += m.data.length;
      const id = m.headers?.get("Nats-Msg-Id") ?? "";
      const t0 = published.get(Number(id.slice(id.lastIndexOf(".") + 1)));
      if (t0 !== undefined) latencies.push(performance.now() - t0);
    },
  });
  const cpuAtStart = new Map<ChildProcess, number>();
  for (const c of role.keys()) cpuAtStart.set(c, procCpuSeconds(c.pid!));
  const serversAtStart = serverCpu(cluster);
  const natsAtStart = await natsOut(cluster);
  const benchAtStart = process.cpuUsage();
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
  const benchCpu = process.cpuUsage(benchAtStart);
  const { code, at: tEnd } = await exits.get(prof)!;
  await Promise.all(anon.map((c) => exits.get(c)));
  for (const c of cls) c.kill("SIGTERM");
  await Promise.all(cls.map((c) => exits.get(c)));
  const serversAtEnd = serverCpu(cluster);
  const natsAtEnd = await natsOut(cluster);
  sub.unsubscribe();
  await b.close();
  if (code !== 0) throw new Error(`profile writer exited ${code}`);
  const reports = new Map<number, { cpu: number; maxRssKiB: number }>();
  for (const line of readFileSync(cpuFile, "utf8").trim().split("\n")) {
    const r = JSON.parse(line) as { pid: number; cpu: number; maxRssKiB: number };
    reports.set(r.pid, r);
  }
  const cpu: Record<string, { cpuSeconds: number; peakRssMiB?: number }> = {
    "ingest (bench process, incl. its latency subscriber)": {
      cpuSeconds: (benchCpu.user + benchCpu.system) / 1e6,
    },
    "nats-server": { cpuSeconds: serversAtEnd.nats - serversAtStart.nats },
    postgres: { cpuSeconds: serversAtEnd.postgres - serversAtStart.postgres },
  };
  for (const [c, name] of role) {
    const r = reports.get(c.pid!);
    if (r === undefined) continue;
    const e = cpu[name] ?? { cpuSeconds: 0, peakRssMiB: 0 };
    cpu[name] = e;
    e.cpuSeconds += r.cpu - cpuAtStart.get(c)!;
    e.peakRssMiB = Math.max(e.peakRssMiB ?? 0, Math.round(r.maxRssKiB / 1024));
  }
  return {
    seconds: (tEnd - t0) / 1000,
    rows: input.length,
    ingestRowsPerSec: input.length / ((tIngest - t0) / 1000),
    latency: [50, 95, 99].map((p) => Math.round(pct(latencies, p))),
    natsBytes: {
      in: natsAtEnd.inBytes - natsAtStart.inBytes,
      out: natsAtEnd.bytes - natsAtStart.bytes,
      subscriber: subscriberBytes,
    },
    cpu,
  };
}

try {
  if (ingestOnly) {
    const hop: Record<string, unknown> = {};
    for (const shards of [2, 4, 8])
      for (const scheme of ["every shard reads every batch", "own segment"] as const)
        hop[`${shards} shards, ${scheme}`] = await ingestHop(
          { cluster, records, events, batchSize },
          shards,
          scheme,
        );
    Object.assign(figures, { "ingest hop": hop, "load at end (1/5/15 min)": loadavg() });
    console.log(JSON.stringify(figures, null, 2));
    writeResults("cluster-ingest", figures);
  }
  if (!quick && !ingestOnly) {
    // PostgreSQL upserts alone.
    const store = await PgProfileStore.open(pgUrl(cluster));
    const deltas = batchDeltas(records.slice(0, 100_000), 1);
    const t = performance.now();
    const pg0 = serverCpu(cluster).postgres;
    const c = cpuNow();
    for (let i = 0; i < deltas.length; i += 500)
      await store.applyBatches([{ id: `bench.${i}`, deltas: deltas.slice(i, i + 500) }]);
    stageAlone["PostgreSQL profile deltas/s (wall)"] = deltas.length / ((performance.now() - t) / 1000);
    stageAlone["PostgreSQL profile deltas per CPU-s (client + server)"] =
      deltas.length / (cpuNow() - c + serverCpu(cluster).postgres - pg0);
    await store.clear();
    await store.close();
  }
  if (!stagesOnly && !ingestOnly) {
    const throughput = await runPipeline(records);
    // Latency is measured below capacity: a time slice of the log paced at half the sustained rate.
    const rate = (throughput.rows / throughput.seconds) * 0.5;
    const paced = quick
      ? { latency: [] }
      : await runPipeline(records.slice(0, Math.min(records.length, Math.round(rate * 20))), rate);
    Object.assign(figures, {
      "end-to-end seconds": throughput.seconds,
      "end-to-end query events/s": events / throughput.seconds,
      "end-to-end rows/s": records.length / throughput.seconds,
      "ingest publish rows/s": throughput.ingestRowsPerSec,
      "backlog batch latency ms p50/p95/p99 (everything enqueued at once)": throughput.latency,
      "paced at rows/s": rate,
      "paced batch latency ms p50/p95/p99": paced.latency,
      "CPU-s per process kind over the run (start-up excluded)": throughput.cpu,
      "CPU µs per query event": Object.fromEntries(
        Object.entries(throughput.cpu).map(([k, v]) => [k, Math.round((v.cpuSeconds / events) * 1e7) / 10]),
      ),
      // Bytes do not depend on the machine's load: a figure to compare runs by.
      "nats-server bytes in / out per query event (out: of which the bench's latency subscriber)": [
        Math.round(throughput.natsBytes.in / events),
        Math.round(throughput.natsBytes.out / events),
        Math.round(throughput.natsBytes.subscriber / events),
      ],
      "CPU µs per query event, all processes": Math.round(
        (Object.values(throughput.cpu).reduce((a, v) => a + v.cpuSeconds, 0) / events) * 1e6,
      ),
    });
  }
  if (!ingestOnly) {
    Object.assign(figures, { stageAlone, "load at end (1/5/15 min)": loadavg() });
    console.log(JSON.stringify(figures, null, 2));
    writeResults("cluster", figures);
  }
} finally {
  await clusterDown(cluster, { wipe: true });
  rmSync(dir, { recursive: true, force: true }); // the workers' CPU files (and the generated log without shared data)
}
