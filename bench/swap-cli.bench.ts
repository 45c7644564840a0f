import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { classifierKey } from "../scripts/eval-swap/labels.ts";
import { openLog } from "../src/log/read.ts";
import { writeBatches } from "../src/log/write.ts";
import { sortByTime } from "../src/stream/time-order.ts";
import { CLI, cli, ensureBuilt, load, type Measured, median, timed, timeOrSkip } from "./process.ts";
import { writeResults } from "./results.ts";
import { ROOT, sharedAolOrSkip } from "./shared-aol.ts";

const SAPS_BIN = process.env.SAPS_QLS_BIN;
/** Another built checkout to compare with, paired (`vs`). */
const BASE = process.env.QM_BASE;
const AOL = sharedAolOrSkip("swap-cli bench");
const CACHE = join(ROOT, ".cache/bench");
/**
 * Arguments: a number of runs and the parts to run (`5 grid`), or the same as flags (`--runs 5 --only grid,paths`),
 * which `npm run bench -- swap-cli --runs 5 --only grid` passes on (bench/run.ts hands a benchmark its flags only).
 */
const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const positional = args.filter((a, i) => !a.startsWith("--") && !args[i - 1]?.startsWith("--"));
const RUNS = Number(flag("runs") ?? positional.find((a) => /^\d+$/.test(a)) ?? 3);
const parts = [
  ...positional.filter((a) => !/^\d+$/.test(a)),
  ...(flag("only")
    ?.split(",")
    .filter((a) => a !== "") ?? []),
];
const want = (p: string) => parts.length === 0 || parts.includes(p);
/** `gcflag` and `vs` run only when asked for (a decision's evidence, not a figure to track). */
const asked = (p: string) => parts.includes(p);

/**
 * saps-qls on the same input as measured once on a quieter machine (paired runs), used without SAPS_QLS_BIN; the
 * grid's cells it lacks get no ratio. A ratio is meaningful only against saps-qls run in the same loop.
 */
const SAPS: Record<string, { cpu: number; rss: number } | undefined> = {
  "3/1": { cpu: 1.02, rss: 8.2 },
  "10/1": { cpu: 1.58, rss: 8.2 },
  "30/1": { cpu: 2.5, rss: 9.6 },
  "3/3": { cpu: 1.47, rss: 9.7 },
};

/** The target's grid: every k ∈ {3, 10, 30} at depth 1 and 3. */
const GRID = ["3/1", "10/1", "30/1", "3/3", "10/3", "30/3"];

timeOrSkip("swap-cli bench");

/**
 * saps-qls' input made from the same classified file, in `dir`/data/queries.txt; returns `dir`/code, the working
 * directory it must run in. Each row is a query for saps-qls (it has no click events); a query holding a double
 * quote is quoted as its CSV reader expects. Categories lose the "Top/" root and use ": " between levels.
 */
async function sapsInput(input: string, dir: string): Promise<string> {
  mkdirSync(join(dir, "data"), { recursive: true });
  mkdirSync(join(dir, "code"), { recursive: true });
  const w = createWriteStream(join(dir, "data/queries.txt"));
  const lines = createInterface({ input: createReadStream(input), crlfDelay: Number.POSITIVE_INFINITY });
  let n = 0;
  let chunk = "";
  for await (const line of lines) {
    if (n++ === 0) continue; // header
    const f = line.split("\t");
    const query = f[1]!.includes('"') ? `"${f[1]!.replaceAll('"', '""')}"` : f[1]!;
    const category = f[5]!.replace(/^Top\//, "").replaceAll("/", ": ");
    chunk += `${n - 1}\t${f[0]}\t${query}\t${f[2]}\t${category}\n`;
    if (chunk.length > 1 << 20) {
      if (!w.write(chunk)) await new Promise<void>((resolve) => w.once("drain", () => resolve()));
      chunk = "";
    }
  }
  w.end(chunk);
  await new Promise<void>((resolve, reject) => w.on("finish", resolve).on("error", reject));
  return join(dir, "code");
}

/** `anonymize --method swap` at a grid setting `k/depth`, seed 1, quiet, JSON summary (input and -o follow). */
function swapArgs(setting: string): string[] {
  const [k, depth] = setting.split("/");
  return ["anonymize", "--method", "swap", "--k", k!, "--depth", depth!, "--seed", "1", "-q", "--json"];
}

/**
 * The subset classified by querymask and sorted by time, made once per classifier: a stamp beside it holds the
 * hash of the input and of everything the classifier reads (eval-swap's key), so a release of a stale input (one
 * classified before a scrubber or classifier change, which `querymask audit` then fails) is never timed.
 */
async function classifiedInput(): Promise<{ byTime: string; byUser: string }> {
  const key = `${statSync(AOL).size}`;
  const sorted = join(CACHE, `aol-classified-by-time-${key}.tsv`);
  // As `querymask classify` writes it: in the input's order, by user.
  const classified = join(CACHE, `aol-classified-${key}.tsv`);
  const stamp = `${sorted}.classifier`;
  const classifier = classifierKey();
  const files = { byTime: sorted, byUser: classified };
  if (
    existsSync(sorted) &&
    existsSync(classified) &&
    existsSync(stamp) &&
    readFileSync(stamp, "utf8") === classifier
  )
    return files;
  mkdirSync(CACHE, { recursive: true });
  console.log("classifying the AOL subset once (cached in .cache/bench/) …");
  cli(["classify", "-q", AOL, "-o", classified]);
  const log = await openLog([classified], { keepSource: false });
  await writeBatches(sorted, log.format, sortByTime(log.batches(), { tempDir: CACHE }), { classified: true });
  writeFileSync(stamp, classifier);
  return files;
}

/** `copies` copies of the subset, one after the other in time (92 days apart), each with its own user ids. */
async function repeated(input: string, copies: number, out: string): Promise<number> {
  const w = createWriteStream(out);
  let rows = 0;
  const SPAN_DAYS = 92;
  let chunk = "";
  for (let c = 0; c < copies; c++) {
    const lines = createInterface({ input: createReadStream(input), crlfDelay: Number.POSITIVE_INFINITY });
    let first = true;
    for await (const line of lines) {
      if (first) {
        first = false;
        if (c === 0) chunk += `${line}\n`;
        continue;
      }
      const t1 = line.indexOf("\t");
      const t2 = line.indexOf("\t", t1 + 1);
      const time = Date.parse(`${line.slice(t2 + 1, t2 + 11)}T${line.slice(t2 + 12, t2 + 20)}Z`);
      const shifted = new Date(time + c * SPAN_DAYS * 86_400_000).toISOString();
      chunk += `${line.slice(0, t1)}-${c}${line.slice(t1, t2 + 1)}${shifted.slice(0, 10)} ${shifted.slice(11, 19)}${line.slice(t2 + 20)}\n`;
      rows++;
      if (chunk.length > 1 << 20) {
        if (!w.write(chunk)) await new Promise<void>((resolve) => w.once("drain", () => resolve()));
        chunk = "";
      }
    }
  }
  w.end(chunk);
  await new Promise<void>((resolve, reject) => w.on("finish", resolve).on("error", reject));
  return rows;
}

ensureBuilt();
const figures: Record<string, unknown> = { runs: RUNS };
const tmp = mkdtempSync(join(tmpdir(), "qm-bench-swap-cli-"));
try {
  if (want("startup")) {
    const rows: Record<string, { wallMs: number; cpuMs: number }> = {};
    // `node -e 0` first: node's own start, the floor under every figure (and what the load does to it).
    const asked: [string, () => Measured][] = [
      ["(node -e 0)", () => timed([process.execPath, "-e", "0"])],
      ...[["--version"], ["--help"], ["anonymize", "--help"], ["stats", "--help"]].map(
        (a): [string, () => Measured] => [a.join(" "), () => cli(a)],
      ),
    ];
    for (const [name, run] of asked) {
      const ms = Array.from({ length: Math.max(5, RUNS) }, run);
      rows[name] = {
        wallMs: median(ms.map((m) => m.wall * 1000)),
        cpuMs: median(ms.map((m) => m.cpu * 1000)),
      };
    }
    console.log(`\nstart-up (median of ${Math.max(5, RUNS)}, load ${load()}; target ≤ 150 ms wall):`);
    for (const [a, m] of Object.entries(rows))
      console.log(
        `  ${a.startsWith("(") ? a.padEnd(26) : `querymask ${a.padEnd(16)}`} ${m.wallMs.toFixed(0).padStart(5)} ms wall ${m.cpuMs.toFixed(0).padStart(5)} ms CPU`,
      );
    figures.startup = rows;
  }

  const { byTime: input, byUser } = await classifiedInput();
  if (want("grid")) {
    const grid: Record<string, unknown> = {};
    const sapsDir = SAPS_BIN ? await sapsInput(input, join(tmp, "saps")) : undefined;
    const peer = sapsDir
      ? `saps-qls (${SAPS_BIN}), same loop`
      : "saps-qls' recorded figures (set SAPS_QLS_BIN)";
    console.log(
      `\nanonymize --method swap, ${input.replace(ROOT, "")} (load ${load()}), ${RUNS} alternating runs; peer: ${peer}:`,
    );
    console.log(
      "  k/depth  CPU s (median, min–max)   peak RSS MiB   saps-qls CPU s (RSS MiB)   ratio   target (3/1 ≤ 1.10×, else ≤ 1.0×; on the pairs' median when measured)   within-pair ratios: median (min–max), load",
    );
    const settings = GRID;
    const runs: Record<string, Measured[]> = Object.fromEntries(settings.map((s) => [s, []]));
    const sapsRuns: Record<string, Measured[]> = Object.fromEntries(settings.map((s) => [s, []]));
    /** The one-minute load beside each pair (the machine is shared: a ratio is only as good as its pair). */
    const loads: Record<string, number[]> = Object.fromEntries(settings.map((s) => [s, []]));
    for (let r = 0; r < RUNS; r++) {
      for (const s of settings) {
        const [k, depth] = s.split("/");
        const out = join(tmp, "released.tsv");
        runs[s]!.push(cli([...swapArgs(s), input, "-o", out]));
        if (sapsDir) sapsRuns[s]!.push(timed([SAPS_BIN!, k!, depth!], sapsDir));
        loads[s]!.push(loadavg()[0]!);
      }
    }
    for (const s of settings) {
      const ms = runs[s]!;
      const cpu = median(ms.map((m) => m.cpu));
      const rss = Math.max(...ms.map((m) => m.rssMiB));
      const summary = JSON.parse(ms[0]!.stdout) as Record<string, number>;
      const peerRuns = sapsRuns[s]!;
      const sapsCpu = peerRuns.length > 0 ? median(peerRuns.map((m) => m.cpu)) : (SAPS[s]?.cpu ?? Number.NaN);
      const sapsRss =
        peerRuns.length > 0 ? Math.max(...peerRuns.map((m) => m.rssMiB)) : (SAPS[s]?.rss ?? Number.NaN);
      const ratio = cpu / sapsCpu;
      // Each run's ratio to the saps-qls run right after it: what the load does to both cancels within a pair.
      const pairRatios = peerRuns.map((m, i) => ms[i]!.cpu / m.cpu);
      // At k = 3, depth 1 node's fixed cost is over half of saps-qls' run (docs/methods/swap.md): 1.10× there.
      const target = s === "3/1" ? 1.1 : 1;
      const judged = pairRatios.length > 0 ? median(pairRatios) : ratio;
      const pairs =
        pairRatios.length > 0
          ? `   ${median(pairRatios).toFixed(2)}× (${Math.min(...pairRatios).toFixed(2)}–${Math.max(...pairRatios).toFixed(2)}), load ${Math.min(...loads[s]!).toFixed(1)}–${Math.max(...loads[s]!).toFixed(1)}`
          : "";
      console.log(
        `  ${s.padEnd(7)}  ${cpu.toFixed(2)} (${Math.min(...ms.map((m) => m.cpu)).toFixed(2)}–${Math.max(...ms.map((m) => m.cpu)).toFixed(2)})`.padEnd(
          36,
        ) +
          `${rss.toFixed(0).padStart(8)}       ${sapsCpu.toFixed(2).padStart(8)} (${sapsRss.toFixed(1)})`.padEnd(
            32,
          ) +
          (Number.isNaN(ratio) ? "   –" : `${ratio.toFixed(2)}×  ${judged <= target ? "met" : "not met"}`) +
          pairs,
      );
      grid[s] = {
        cpuMedian: cpu,
        cpu: ms.map((m) => m.cpu),
        wall: ms.map((m) => m.wall),
        peakRssMiB: rss,
        sapsQls: peerRuns.length > 0 ? "measured" : "recorded",
        sapsQlsCpu: sapsCpu,
        sapsQlsCpuRuns: peerRuns.map((m) => m.cpu),
        sapsQlsPeakRssMiB: sapsRss,
        ratio,
        target,
        pairRatios,
        loads: loads[s],
        rows: summary["input rows"],
        finalKMean: summary["final k mean"],
      };
    }
    figures.grid = grid;
  }

  if (want("paths")) {
    // What the CLI costs around a method: `identity` reads and writes every row, `stats` reads them (the per-row
    // cost of a command should be the reader's and its own work's, not the CLI's); and swap on the log as
    // `classify` leaves it (not in time order), which the grid's time-ordered input does not show.
    const commands: [string, (out: string) => string[]][] = [
      ["anonymize --method identity", (out) => ["anonymize", "--method", "identity", "-q", input, "-o", out]],
      // What a user's `classify` then `anonymize` runs: the classified log in user order, sorted on the way.
      ["swap 3/1 on the log in user order", (out) => [...swapArgs("3/1"), byUser, "-o", out]],
      ["stats", () => ["stats", "-q", "--json", input]],
      ["stats (the .gz as shipped)", () => ["stats", "-q", "--json", AOL]],
      ["scrub (the .gz as shipped)", (out) => ["scrub", "-q", AOL, "-o", out]],
    ];
    const runs: Measured[][] = commands.map(() => []);
    for (let r = 0; r < RUNS; r++)
      for (const [i, [, argv]] of commands.entries()) runs[i]!.push(cli(argv(join(tmp, "paths.tsv"))));
    console.log(
      `\nthe read → write path, and swap on the log in user order (${RUNS} alternating runs, load ${load()}):`,
    );
    figures.paths = Object.fromEntries(
      commands.map(([name], i) => {
        const ms = runs[i]!;
        const cpu = median(ms.map((m) => m.cpu));
        const rss = Math.max(...ms.map((m) => m.rssMiB));
        console.log(
          `  querymask ${name.padEnd(36)} ${cpu.toFixed(2)} CPU-s (${Math.min(...ms.map((m) => m.cpu)).toFixed(2)}–${Math.max(...ms.map((m) => m.cpu)).toFixed(2)}), peak RSS ${rss.toFixed(0)} MiB`,
        );
        return [name, { cpuMedian: cpu, cpu: ms.map((m) => m.cpu), peakRssMiB: rss }];
      }),
    );
  }

  if (asked("gcflag")) {
    const gc: Record<string, unknown> = {};
    // The parent a re-exec adds: node starts, spawns node with the flag running bin, and waits. bin itself would
    // also check dist/ twice, so this is a lower bound on a re-exec's cost.
    const reexec = `const r = require("node:child_process").spawnSync(process.execPath, ["--single-threaded-gc", ${JSON.stringify(CLI)}, ...process.argv.slice(1)], { stdio: "inherit" }); process.exitCode = r.status ?? 1;`;
    const variants: [string, string[]][] = [
      ["node bin/querymask.js", [process.execPath, CLI]],
      ["node --single-threaded-gc bin/…", [process.execPath, "--single-threaded-gc", CLI]],
      ["re-exec (parent + the above)", [process.execPath, "-e", reexec]],
    ];
    console.log(
      `\n--single-threaded-gc and a re-exec to get it (${RUNS} alternating runs, load ${load()}; node -e 0 is the parent's floor):`,
    );
    for (const s of ["3/1", "3/3"]) {
      const [k, depth] = s.split("/");
      const argv = ["anonymize", "--method", "swap", "--k", k!, "--depth", depth!, "--seed", "1", "-q"];
      const runs: Measured[][] = variants.map(() => []);
      for (let r = 0; r < RUNS; r++) {
        for (const [i, [, command]] of variants.entries()) {
          runs[i]!.push(timed([...command, ...argv, input, "-o", join(tmp, `gc-${i}.tsv`)]));
        }
      }
      gc[s] = Object.fromEntries(
        variants.map(([name], i) => {
          const ms = runs[i]!;
          const cpu = median(ms.map((m) => m.cpu));
          const rss = Math.max(...ms.map((m) => m.rssMiB));
          console.log(
            `  ${s.padEnd(5)} ${name.padEnd(32)} ${cpu.toFixed(3)} CPU-s (${Math.min(...ms.map((m) => m.cpu)).toFixed(2)}–${Math.max(...ms.map((m) => m.cpu)).toFixed(2)}), peak RSS ${rss.toFixed(0)} MiB`,
          );
          return [name, { cpuMedian: cpu, cpu: ms.map((m) => m.cpu), peakRssMiB: rss }];
        }),
      );
    }
    figures.gcflag = gc;
  }

  if (asked("vs")) {
    if (BASE === undefined || !existsSync(join(BASE, "bin/querymask.js"))) {
      throw new Error("vs: set QM_BASE to another checkout with a build (node scripts/build.mjs run in it)");
    }
    const vs: Record<string, unknown> = {};
    const builds: [string, string][] = [
      ["base", join(BASE, "bin/querymask.js")],
      ["this", CLI],
    ];
    console.log(`\nthis checkout vs ${BASE} (${RUNS} alternating runs, load ${load()}):`);
    for (const s of GRID) {
      const argv = swapArgs(s);
      const runs: Measured[][] = builds.map(() => []);
      for (let r = 0; r < RUNS; r++) {
        for (const [i, [, bin]] of builds.entries()) {
          runs[i]!.push(timed([process.execPath, bin, ...argv, input, "-o", join(tmp, `vs-${i}.tsv`)]));
        }
      }
      // The same release and the same summary (but for the output's name and the seconds).
      const summary = (m: Measured) => m.stdout.replace(/\n\s*"(out|seconds)": [^\n]*/g, "");
      const identical =
        readFileSync(join(tmp, "vs-0.tsv")).equals(readFileSync(join(tmp, "vs-1.tsv"))) &&
        summary(runs[0]![0]!) === summary(runs[1]![0]!);
      const cell = builds.map(([name], i) => {
        const ms = runs[i]!;
        return {
          name,
          cpuMedian: median(ms.map((m) => m.cpu)),
          cpu: ms.map((m) => m.cpu),
          rss: ms.map((m) => m.rssMiB),
        };
      });
      console.log(
        `  ${s.padEnd(5)} ${cell.map((c) => `${c.name} ${c.cpuMedian.toFixed(3)} CPU-s (${Math.min(...c.cpu).toFixed(2)}–${Math.max(...c.cpu).toFixed(2)}), ${Math.max(...c.rss).toFixed(0)} MiB`).join("   ")}   ${identical ? "identical output" : "OUTPUT DIFFERS"} (load ${load()})`,
      );
      vs[s] = { identical, base: cell[0], this: cell[1] };
    }
    figures.vs = vs;
  }

  if (want("scale")) {
    const scale: Record<string, unknown> = {};
    console.log(
      `\nstreaming path memory, k = 3, depth 1 and 3 (the subset repeated in time; load ${load()}):`,
    );
    for (const copies of [3, 25]) {
      const file = join(tmp, `aol-x${copies}.tsv`);
      const rows = await repeated(input, copies, file);
      for (const depth of ["1", "3"]) {
        const m = cli([
          "anonymize",
          "--method",
          "swap",
          "--k",
          "3",
          "--depth",
          depth,
          "-q",
          file,
          "-o",
          join(tmp, "out.tsv"),
        ]);
        console.log(
          `  depth ${depth} ${rows.toLocaleString("en").padStart(11)} rows: peak RSS ${m.rssMiB.toFixed(0)} MiB, ${m.cpu.toFixed(2)} CPU-s, ${((rows / m.cpu) | 0).toLocaleString("en")} rows per CPU-s (load ${load()})`,
        );
        scale[`${rows}/${depth}`] = { peakRssMiB: m.rssMiB, cpu: m.cpu, wall: m.wall };
      }
      rmSync(file);
    }
    figures.scale = scale;
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
figures.load = loadavg();
writeResults("swap-cli", figures);
