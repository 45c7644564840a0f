/**
 * Batch releases at scale, as a user runs them (the built CLI, whole process, /usr/bin/time): generated logs of
 * 10M and 36M rows (`generate --rows N --seed 11`, kept in the data cache beside the checkout, `../data-cache/`,
 * made once when missing) through threshold, dp, km and graph, and classify; wall, CPU and peak RSS of each, with
 * the load average before and after (timings on a shared machine are noisy; peak RSS is exact).
 * Targets: each ≤ 10 min wall and ≤ 2 GB peak RSS at 36M rows, memory flat from 10M to 36M.
 *
 *   npm run bench -- scale [--rows 10000000,36000000] [--only threshold,dp,km,graph,classify] [--cluster]
 *                          [--bad] [--cache DIR]
 *
 * `--cluster`: `cluster run` with 2 workers on the 10M log beside one `anonymize` process (target within 1.5× of its
 * wall time), servers started on free loopback ports, for the methods `--cluster-methods` names (threshold, dp with
 * a selection the cluster runs, graph, km): the coordinator's /usr/bin/time, and each worker's own peak RSS, CPU, wall
 * and the partial rows and bytes it sent to PostgreSQL (dp's from its `--diagnostics` file). `--rows` is then not
 * run unless given. `--bad`: a copy of the 36M log with a
 * malformed line at row 30,000,000: `anonymize` must exit 2 naming file:line with no release written, and with
 * `--lenient` count one rejected line.
 */
import { spawnSync } from "node:child_process";
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { cli, ensureBuilt, type Measured, timed, timeOrSkip } from "./process.ts";
import { writeResults } from "./results.ts";
import { ROOT } from "./shared-aol.ts";

const { values } = parseArgs({
  options: {
    rows: { type: "string" },
    only: { type: "string", default: "threshold,dp,km,graph,classify" },
    cluster: { type: "boolean", default: false },
    "cluster-methods": { type: "string", default: "threshold,dp" },
    bad: { type: "boolean", default: false },
    cache: { type: "string", default: join(ROOT, "..", "data-cache") },
  },
});
timeOrSkip("scale");
ensureBuilt();
const cache = values.cache;
mkdirSync(cache, { recursive: true });
const work = join(tmpdir(), `qm-scale-${process.pid}`);
mkdirSync(work, { recursive: true });
const load = () => Number(loadavg()[0]!.toFixed(1));

/** The cached generated log of `rows` rows, made when missing. */
function logOf(rows: number): string {
  const file = join(cache, `gen-rows${rows}-seed11.tsv`);
  if (!existsSync(file)) {
    console.log(`generating ${file} …`);
    cli(["generate", "--rows", String(rows), "--seed", "11", "-q", "-o", file]);
  }
  return file;
}

const RUNS: Record<string, (log: string, out: string) => string[]> = {
  threshold: (log, out) => ["anonymize", "--method", "threshold", "--k", "5", log, "-o", out, "-q", "--json"],
  dp: (log, out) => ["anonymize", "--method", "dp", log, "-o", out, "-q", "--json"],
  km: (log, out) => ["anonymize", "--method", "km", "--k", "5", "--m", "2", log, "-o", out, "-q", "--json"],
  graph: (log, out) => ["anonymize", "--method", "graph", log, "-o", out, "-q", "--json"],
  classify: (log, out) => ["classify", log, "-o", out, "-q"],
};

interface Row {
  readonly run: string;
  readonly rows: number;
  readonly wall: number;
  readonly cpu: number;
  readonly rssMiB: number;
  readonly load: readonly [number, number];
}

const figures: Row[] = [];
function record(run: string, rows: number, f: () => Measured): Measured {
  const before = load();
  const m = f();
  const row: Row = {
    run,
    rows,
    wall: m.wall,
    cpu: m.cpu,
    rssMiB: Math.round(m.rssMiB),
    load: [before, load()],
  };
  figures.push(row);
  console.log(
    `${run.padEnd(28)} ${String(rows).padStart(9)} rows  wall ${m.wall.toFixed(0).padStart(5)} s  CPU ${m.cpu
      .toFixed(0)
      .padStart(5)} s  peak RSS ${row.rssMiB} MiB  load ${row.load.join(" → ")}`,
  );
  return m;
}

const out = join(work, "out.tsv");
// --cluster and --bad measure their own runs; the per-method runs only when asked for with them.
const rowsRun = values.rows ?? (values.cluster || values.bad ? "" : "10000000,36000000");
for (const rows of rowsRun.split(",").filter(Boolean).map(Number)) {
  const log = logOf(rows);
  for (const name of values.only.split(",")) {
    const args = RUNS[name];
    if (!args) throw new Error(`unknown run ${name}`);
    record(name, rows, () => cli(args(log, out)));
    rmSync(out, { force: true });
  }
}

if (values.cluster) {
  const { clusterConfig, clusterDown, clusterUp, freeLoopbackPort, missingPackages, serverArgs } =
    await import("../src/cluster/servers.ts");
  if (missingPackages().length > 0) console.log(`cluster skipped: needs ${missingPackages().join(", ")}`);
  else {
    const c = clusterConfig(join(work, "servers"), {
      natsPort: await freeLoopbackPort(),
      natsMonitorPort: await freeLoopbackPort(),
      pgPort: await freeLoopbackPort(),
    });
    await clusterUp(c);
    try {
      const log = logOf(10_000_000);
      const CLUSTER: Record<string, Record<string, string | number>> = {
        threshold: { k: 5 },
        dp: { selection: "weighted-gaussian" },
        graph: {},
        km: { k: 5, m: 2 },
      };
      for (const method of values["cluster-methods"].split(",")) {
        const params = CLUSTER[method];
        if (!params) throw new Error(`unknown cluster method ${method}`);
        const flags = Object.entries(params).flatMap(([k, v]) => [`--${k}`, String(v)]);
        const one = record(`${method} (one process)`, 10_000_000, () =>
          cli(["anonymize", "--method", method, ...flags, log, "-o", out, "-q"]),
        );
        renameSync(out, `${out}.one`);
        const two = record(`${method} (cluster, 2 workers)`, 10_000_000, () =>
          cli([
            "cluster",
            "run",
            ...serverArgs(c),
            "--method",
            method,
            "--params",
            JSON.stringify(params),
            "--workers",
            "2",
            log,
            "-o",
            out,
            "-q",
            "--json",
            "--diagnostics",
          ]),
        );
        // Exact figures: the public summary for a method without a DP claim, the PRIVATE file for dp.
        const stages = {
          ...(JSON.parse(two.stdout) as Record<string, number>),
          ...(JSON.parse(readFileSync(`${out}.diagnostics.PRIVATE.json`, "utf8")) as Record<string, number>),
        };
        console.log(
          `  cluster/one wall ${(two.wall / one.wall).toFixed(2)}× (target ≤ 1.5×); check ${stages["seconds (check)"]!.toFixed(0)} s, workers ${stages["seconds (workers)"]!.toFixed(0)} s, summing ${stages["seconds (summing)"]!.toFixed(0)} s, release ${stages["seconds (release)"]!.toFixed(0)} s${stages["release passes"] ? ` (workers' parts ${stages["seconds (release: workers' parts)"]!.toFixed(0)} s, merge ${stages["seconds (release: merge)"]!.toFixed(0)} s)` : ""}, ${stages.passes} passes, ${stages.batches} batches, ${stages["pass config bytes"]} bytes of pass configs`,
        );
        for (const [k, v] of Object.entries(stages)) {
          if (/^(worker|coordinator) /.test(k)) console.log(`    ${k}: ${v}`);
        }
        const same = spawnSync("cmp", ["-s", out, `${out}.one`]).status === 0;
        console.log(`  the cluster's release is the one process's byte for byte: ${same ? "yes" : "NO"}`);
        rmSync(out, { force: true });
        rmSync(`${out}.one`, { force: true });
        rmSync(`${out}.diagnostics.PRIVATE.json`, { force: true });
      }
    } finally {
      await clusterDown(c);
    }
  }
}

if (values.bad) {
  const log = logOf(36_000_000);
  const bad = join(work, "bad.tsv");
  // Row 30,000,000 is line 30,000,001 (the header is line 1): replaced by a line with too few fields.
  const w = createWriteStream(bad);
  let line = 0;
  for await (const text of createInterface({
    input: createReadStream(log),
    crlfDelay: Number.POSITIVE_INFINITY,
  })) {
    line++;
    const ok = w.write(`${line === 30_000_001 ? "not a log line" : text}\n`);
    if (!ok) await new Promise<void>((r) => w.once("drain", () => r()));
  }
  await new Promise<void>((r) => w.end(() => r()));
  const t0 = performance.now();
  const r = spawnSync(
    process.execPath,
    [join(ROOT, "bin/querymask.js"), "anonymize", "--method", "threshold", bad, "-o", out, "-q"],
    {
      encoding: "utf8",
    },
  );
  const strict = {
    status: r.status,
    stderr: r.stderr.trim(),
    written: existsSync(out),
    seconds: (performance.now() - t0) / 1000,
  };
  console.log(
    `bad line at row 30,000,000: exit ${strict.status}, "${strict.stderr}", release written: ${strict.written}`,
  );
  const lenient = record("threshold --lenient (bad line)", 36_000_000, () =>
    timed([
      process.execPath,
      join(ROOT, "bin/querymask.js"),
      "anonymize",
      "--method",
      "threshold",
      "--lenient",
      bad,
      "-o",
      out,
      "--json",
      "-q",
    ]),
  );
  console.log(`  --lenient: rejected ${(JSON.parse(lenient.stdout) as { rejected: number }).rejected}`);
  figures.push({
    run: "bad line (strict)",
    rows: 36_000_000,
    wall: strict.seconds,
    cpu: 0,
    rssMiB: 0,
    load: [load(), load()],
  });
  rmSync(bad, { force: true });
}

rmSync(work, { recursive: true, force: true });
writeResults("scale", figures);
