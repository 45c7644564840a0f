/**
 * Swap anonymizer and profiler throughput (paper 000 Tables 2–3; saps-qls: 1.68 µs/log in Go).
 *
 * Input: a generated 10M-row log (100,000 users, categories drawn from the bundled ODP skeleton by prior, 30% of
 * events with a second click row), streamed from the generator straight into the stage batch by batch (no file,
 * nothing kept), the generation *outside* the timed region; classification is excluded, as in the issue. Timed:
 * `SwapStage.push` + `flush` only, wall and CPU (`process.cpuUsage`). Memory: heap (after a forced GC) and RSS
 * at 1M, 5M and 10M rows of the same run, and the most events ever held, to show the state is O(k × categories)
 * and flat in the log size. Profiler: the released records of a k = 3 run into a SQLite file (the profiler's own
 * transaction batching), timed alone.
 *
 *   npm run bench -- swap                                    # 10M rows, swap at 4 settings + profiler
 *   node --expose-gc --import tsx bench/swap.bench.ts [rows] [swap|profiler]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { Taxonomy } from "../src/knowledge/taxonomy.ts";
import type { LogRecord } from "../src/log/record.ts";
import { swapParams } from "../src/methods/swap/meta.ts";
import { SwapStage } from "../src/methods/swap/stage.ts";
import { Profiler } from "../src/profile/profiler.ts";
import { SqliteProfileStore } from "../src/profile/sqlite-store.ts";
import { Rng, searchCumulative } from "../src/util/random.ts";
import { writeResults } from "./results.ts";

const ROWS = Number(process.argv[2] ?? 10_000_000);
/** "swap", "profiler" or absent (both). */
const ONLY = process.argv[3];
const BATCH = 8192;
const USERS = 100_000;

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const heapMiB = () => {
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
};
const rssMiB = () => process.memoryUsage().rss / 2 ** 20;

/** Category paths and a cumulative prior, for drawing realistic categories. */
function categoryPool(): { paths: string[]; cum: Float64Array } {
  const t = Taxonomy.bundled();
  const ids = t.ids().filter((id) => t.depth(id) >= 1);
  const paths = ids.map((id) => t.path(id));
  const cum = new Float64Array(ids.length);
  let s = 0;
  ids.forEach((id, i) => {
    s += t.prior(id) + 1;
    cum[i] = s;
  });
  return { paths, cum };
}

/** A generator of batches of rows in time order; deterministic. */
function* batches(rows: number, seed: number): Generator<LogRecord[]> {
  const rng = Rng.fromSeed(seed);
  const { paths, cum } = categoryPool();
  const total = cum[cum.length - 1]!;
  const users = Array.from({ length: USERS }, (_, i) => String(100_000 + i));
  const queries = Array.from({ length: 200_000 }, (_, i) => `query text ${i}`);
  let time = 1_141_171_200;
  let made = 0;
  while (made < rows) {
    const batch: LogRecord[] = [];
    while (batch.length < BATCH && made < rows) {
      const category = paths[searchCumulative(cum, rng.float() * total)]!;
      time += rng.int(3);
      const rec = {
        user: users[rng.int(USERS)]!,
        query: queries[rng.int(queries.length)]!,
        time,
        clickUrl: "http://www.example.com",
        category,
      };
      batch.push(rec);
      made++;
      if (rng.int(10) < 3 && made < rows && batch.length < BATCH) {
        batch.push({ ...rec, clickUrl: "http://www.example.org" });
        made++;
      }
    }
    yield batch;
  }
}

interface SwapFigure {
  k: number;
  depth: number;
  rows: number;
  /** Wall time of push + flush. */
  seconds: number;
  /** CPU time of the process during push + flush (the machine may be shared; CPU time is the one-core cost). */
  cpuSeconds: number;
  recordsPerSecond: number;
  recordsPerCpuSecond: number;
  usPerRecord: number;
  cpuUsPerRecord: number;
  maxHeldEvents: number;
  finalKMean: number;
  heapMiB: Record<string, number>;
  rssMiB: Record<string, number>;
}

function benchSwap(k: number, depth: number, rows: number, keep?: (out: LogRecord[]) => void): SwapFigure {
  const stage = new SwapStage(swapParams.parse({ k, depth }), Rng.fromSeed(42));
  const heap: Record<string, number> = { start: heapMiB() };
  const rss: Record<string, number> = { start: rssMiB() };
  const checkpoints = new Set([1_000_000, 5_000_000, 10_000_000]);
  let ns = 0n;
  let cpu = 0;
  let done = 0;
  for (const batch of batches(rows, 7)) {
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    const out = stage.push(batch);
    ns += process.hrtime.bigint() - t0;
    const c = process.cpuUsage(c0);
    cpu += c.user + c.system;
    keep?.(out);
    const before = done;
    done += batch.length;
    for (const c of checkpoints) {
      if (before < c && done >= c) {
        heap[`${c / 1e6}M`] = heapMiB();
        rss[`${c / 1e6}M`] = rssMiB();
      }
    }
  }
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const rest = stage.flush();
  ns += process.hrtime.bigint() - t0;
  const cu = process.cpuUsage(c0);
  cpu += cu.user + cu.system;
  keep?.(rest);
  const seconds = Number(ns) / 1e9;
  const cpuSeconds = cpu / 1e6;
  const c = stage.counts();
  return {
    k,
    depth,
    rows,
    seconds,
    cpuSeconds,
    recordsPerSecond: rows / seconds,
    recordsPerCpuSecond: rows / cpuSeconds,
    usPerRecord: (seconds * 1e6) / rows,
    cpuUsPerRecord: (cpuSeconds / rows) * 1e6,
    maxHeldEvents: c["max held events"]!,
    finalKMean: c["final k mean"]!,
    heapMiB: heap,
    rssMiB: rss,
  };
}

function benchProfiler(rows: number): {
  rows: number;
  seconds: number;
  cpuSeconds: number;
  recordsPerSecond: number;
  recordsPerCpuSecond: number;
} {
  const dir = mkdtempSync(join(tmpdir(), "qm-bench-profile-"));
  const store = new SqliteProfileStore(join(dir, "profiles.sqlite"));
  const profiler = new Profiler(store);
  let ns = 0n;
  let cpu = 0;
  let done = 0;
  const timed = (fn: () => void) => {
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    fn();
    ns += process.hrtime.bigint() - t0;
    const c = process.cpuUsage(c0);
    cpu += c.user + c.system;
  };
  benchSwap(3, 1, rows, (out) => {
    if (out.length === 0) return;
    timed(() => profiler.update(out));
    done += out.length;
  });
  timed(() => profiler.flush());
  store.close();
  rmSync(dir, { recursive: true, force: true });
  const seconds = Number(ns) / 1e9;
  const cpuSeconds = cpu / 1e6;
  return {
    rows: done,
    seconds,
    cpuSeconds,
    recordsPerSecond: done / seconds,
    recordsPerCpuSecond: done / cpuSeconds,
  };
}

const load0 = loadavg();
const cpu0 = process.cpuUsage();
const swapRuns: SwapFigure[] = [];
const configs: (readonly [number, number])[] =
  ONLY === "profiler"
    ? []
    : [
        [3, 1],
        [10, 1],
        [30, 1],
        [3, 3],
      ];
for (const [k, depth] of configs) {
  swapRuns.push(benchSwap(k, depth, ROWS));
  const r = swapRuns[swapRuns.length - 1]!;
  process.stderr.write(
    `swap k=${k} depth=${depth}: ${Math.round(r.recordsPerCpuSecond).toLocaleString("en")}/s CPU, ${Math.round(r.recordsPerSecond).toLocaleString("en")}/s wall\n`,
  );
}
const profiler =
  ONLY === "swap"
    ? { rows: 0, seconds: 0, cpuSeconds: 0, recordsPerSecond: 0, recordsPerCpuSecond: 0 }
    : benchProfiler(ROWS);

const fmt = (n: number) => Math.round(n).toLocaleString("en");
const at = (m: Record<string, number>) => ["1M", "5M", "10M"].map((c) => m[c]?.toFixed(1) ?? "-").join(" / ");
const cpu = process.cpuUsage(cpu0);
const lines = [
  `Swap anonymizer, ${fmt(ROWS)} generated rows, one core (classification excluded)`,
  "",
  "| k | depth | records/s (CPU) | µs/record (CPU) | records/s (wall) | max held events | final k (mean) | heap MiB at 1M / 5M / 10M | RSS MiB at 1M / 5M / 10M |",
  "|---|---|---|---|---|---|---|---|---|",
  ...swapRuns.map(
    (r) =>
      `| ${r.k} | ${r.depth} | ${fmt(r.recordsPerCpuSecond)} | ${r.cpuUsPerRecord.toFixed(3)} | ${fmt(r.recordsPerSecond)} | ${fmt(r.maxHeldEvents)} | ${r.finalKMean.toFixed(2)} | ${at(r.heapMiB)} | ${at(r.rssMiB)} |`,
  ),
  "",
  `Profiler into SQLite: ${fmt(profiler.recordsPerCpuSecond)} records/s CPU, ${fmt(profiler.recordsPerSecond)} records/s wall (${fmt(profiler.rows)} released rows)`,
  `Load average at the start: ${load0.map((x) => x.toFixed(1)).join(" ")}; at the end: ${loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")} on ${cpus().length} cores (wall figures suffer when it is high)`,
  `Peak RSS of the process: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB; process CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s (generation included)`,
];
process.stdout.write(`${lines.join("\n")}\n`);
writeResults(ONLY ? `swap-${ONLY}` : "swap", {
  rows: ROWS,
  swap: swapRuns,
  profiler,
  peakRssMiB: process.resourceUsage().maxRSS / 1024,
  loadStart: load0,
  loadEnd: loadavg(),
  processCpuSeconds: (cpu.user + cpu.system) / 1e6,
});
