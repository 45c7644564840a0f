/**
 * Synthetic log generation throughput: the generator alone, then streamed through the log writer to a plain
 * file and to a .gz file; peak RSS shows memory stays flat in the row count. Default 5,000,000 rows
 * (`node --expose-gc --import tsx bench/generate.bench.ts [rows]`); 50M-row times are extrapolated from the
 * measured rates and labelled as such.
 *
 * Both wall-clock and CPU time are reported: on a shared machine the wall clock includes waiting for a core.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { createLogWriter } from "../src/log/write.ts";
import { generateRecords, newStats, usersForRows } from "../src/synth/generate.ts";
import { writeResults } from "./results.ts";

const rows = Number(process.argv[2] ?? 5_000_000);
const seed = 1;
const users = usersForRows(rows);
const dir = mkdtempSync(join(tmpdir(), "qm-bench-generate-"));

let peak = 0;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 50);

interface Run {
  case: string;
  rows: number;
  wallSecs: number;
  cpuSecs: number;
  rowsPerSec: number;
  rowsPerCpuSec: number;
  bytes?: number;
}

function finish(name: string, n: number, t0: number, c0: NodeJS.CpuUsage, bytes?: number): Run {
  const wallSecs = (performance.now() - t0) / 1000;
  const c = process.cpuUsage(c0);
  const cpuSecs = (c.user + c.system) / 1e6;
  const run: Run = {
    case: name,
    rows: n,
    wallSecs: Number(wallSecs.toFixed(2)),
    cpuSecs: Number(cpuSecs.toFixed(2)),
    rowsPerSec: Math.round(n / wallSecs),
    rowsPerCpuSec: Math.round(n / cpuSecs),
  };
  if (bytes !== undefined) run.bytes = bytes;
  return run;
}

function generateOnly(): Run {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  let n = 0;
  for (const _ of generateRecords({ seed, users, rows })) n++;
  return finish("generate only (no output)", n, t0, c0);
}

async function toFile(name: string): Promise<Run> {
  const path = join(dir, name);
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const w = createLogWriter(path, "aol");
  const stats = newStats();
  for (const rec of generateRecords({ seed, users, rows }, stats)) {
    const p = w.write(rec);
    if (p) await p;
  }
  await w.close();
  // CPU time of the gzip thread pool is included in process.cpuUsage().
  return finish(
    `generate → ${name.endsWith(".gz") ? ".tsv.gz" : "plain .tsv"}`,
    stats.rows,
    t0,
    c0,
    statSync(path).size,
  );
}

// Warm-up (JIT, taxonomy, calibration), not recorded.
for (const _ of generateRecords({ seed: 2, users: 2000 })) {
}
(globalThis as { gc?: () => void }).gc?.();

const runs: Run[] = [generateOnly(), await toFile("synth.tsv"), await toFile("synth.tsv.gz")];
clearInterval(sampler);
const peakRss = Math.max(peak, process.resourceUsage().maxRSS * 1024);
rmSync(dir, { recursive: true, force: true });

const target = 50_000_000;
const extrapolated = runs.map((r) => ({
  case: r.case,
  secsFor50M: Math.round(target / r.rowsPerSec),
  cpuSecsFor50M: Math.round(target / r.rowsPerCpuSec),
}));

const fmt = (n: number) => n.toLocaleString("en");
process.stdout.write(
  `\nrows ${fmt(rows)} (${fmt(users)} users, seed ${seed}); load average ${loadavg()[0]!.toFixed(1)}\n\n`,
);
process.stdout.write(
  "| case | rows | wall s | rows/s | CPU s | rows/CPU-s | bytes/row | 50M rows, extrapolated |\n",
);
process.stdout.write("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
runs.forEach((r, i) => {
  const perRow = r.bytes === undefined ? "-" : (r.bytes / r.rows).toFixed(1);
  const x = extrapolated[i]!;
  process.stdout.write(
    `| ${r.case} | ${fmt(r.rows)} | ${r.wallSecs} | ${fmt(r.rowsPerSec)} | ${r.cpuSecs} | ${fmt(r.rowsPerCpuSec)} | ${perRow} | ~${fmt(x.secsFor50M)} s wall (${fmt(x.cpuSecsFor50M)} s CPU) |\n`,
  );
});
process.stdout.write(`\npeak RSS ${(peakRss / 2 ** 20).toFixed(0)} MB\n`);

writeResults("generate", {
  rows,
  users,
  seed,
  loadAverage1m: loadavg()[0],
  runs,
  peakRssBytes: peakRss,
  extrapolatedTo50M: { note: "extrapolated from the measured rates, not measured", cases: extrapolated },
});
