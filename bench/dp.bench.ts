/**
 * The dp method on a generated 100,000-user log, as a user runs it: `querymask generate --users 100000 --seed 5`
 * (4.97M rows) then `querymask anonymize --method dp …` with the default parameters (ε = 1, δ = 1e-5, the default
 * selection and d, clicks, cryptographic noise) and with `--selection korolova --d 20`, the 2009 baseline, at the
 * same (ε, δ). Both commands run as child processes (`--json` summary); the figures are distinct queries and
 * query-click pairs released, wall and CPU seconds and peak RSS (from /usr/bin/time when present). Targets: the
 * default releases ≥ 2,000 distinct queries (median of the runs), in ≤ 60 s wall and ≤ 1 GiB peak RSS; with
 * `--big`, a 10M-row log (`querymask generate --rows 10000000 --seed 11`) in ≤ 3 min wall. Wall time on a shared
 * machine is noisy: the 1-minute load average is recorded beside each run.
 *
 *   node --import tsx bench/dp.bench.ts [--users 100000] [--seed 5] [--runs 3] [--log existing.tsv]
 *       [--big /work/data-cache/gen-rows10000000-seed11.tsv]
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { writeResults } from "./results.ts";

const CLI = fileURLToPath(new URL("../src/cli/main.ts", import.meta.url));
const arg = (name: string, def: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? def : process.argv[i + 1]!;
};
const users = arg("users", "100000");
const seed = arg("seed", "5");
const runs = Number(arg("runs", "3"));

const dir = mkdtempSync(join(tmpdir(), "dp-bench-"));
const TIME = existsSync("/usr/bin/time") ? "/usr/bin/time" : undefined;

/** Run the CLI; the parsed --json summary (if any), wall seconds, CPU seconds of the child (if measurable). */
function cli(args: string[]): {
  summary?: Record<string, unknown>;
  wall: number;
  cpu?: number;
  rssMiB?: number;
} {
  const cmd = [process.execPath, "--max-old-space-size=8192", "--import", "tsx", CLI, ...args];
  const t0 = performance.now();
  const r = TIME
    ? spawnSync(TIME, ["-f", "CPU %U %S RSS %M", ...cmd], { encoding: "utf8", maxBuffer: 1 << 26 })
    : spawnSync(cmd[0]!, cmd.slice(1), { encoding: "utf8", maxBuffer: 1 << 26 });
  const wall = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`querymask ${args.join(" ")} failed (${r.status}): ${r.stderr}`);
  const m = /CPU ([\d.]+) ([\d.]+) RSS (\d+)/.exec(r.stderr);
  const cpu = m ? Number(m[1]) + Number(m[2]) : undefined;
  const rssMiB = m ? Math.round(Number(m[3]) / 1024) : undefined;
  const json = r.stdout.trim();
  return { summary: json.startsWith("{") ? JSON.parse(json) : undefined, wall, cpu, rssMiB };
}

try {
  let log = arg("log", "");
  if (!log) {
    log = join(dir, "gen.tsv");
    const g = cli(["generate", "--users", users, "--seed", seed, "-o", log, "-q"]);
    process.stdout.write(`generate --users ${users} --seed ${seed}: ${g.wall.toFixed(1)} s wall\n`);
  }
  // The generated log is grouped by user, so the command reads it one user at a time (two passes).
  const big = arg("big", "");
  const configs: [string, string[], number, string][] = [
    ["default", [], runs, log],
    ["korolova d=20", ["--selection", "korolova", "--d", "20"], 1, log],
    ...(big ? [["default, 10M rows", [], 1, big] as [string, string[], number, string]] : []),
  ];
  const rows: Record<string, unknown>[] = [];
  for (const [name, flags, n, input] of configs) {
    for (let i = 0; i < n; i++) {
      const load = loadavg()[0]!;
      const r = cli([
        "anonymize",
        "--method",
        "dp",
        ...flags,
        input,
        "-o",
        join(dir, "counts.tsv"),
        "--json",
        "-q",
      ]);
      const s = r.summary!;
      const row = {
        config: name,
        selection: (s.params as { selection: string }).selection,
        d: (s.params as { d: number }).d,
        queries: s["queries released"],
        pairs: s["click pairs released"],
        guarantee: s.guarantee,
        wallSeconds: Number(r.wall.toFixed(1)),
        cpuSeconds: r.cpu === undefined ? undefined : Number(r.cpu.toFixed(1)),
        peakRssMiB: r.rssMiB,
        load1: Number(load.toFixed(1)),
      };
      rows.push(row);
      process.stdout.write(`${JSON.stringify(row)}\n`);
    }
  }
  const median = (name: string) => {
    const xs = rows
      .filter((r) => r.config === name)
      .map((r) => r.queries as number)
      .sort((a, b) => a - b);
    return xs[Math.floor(xs.length / 2)]!;
  };
  const ratio = median("default") / Math.max(1, median("korolova d=20"));
  const defaults = rows.filter((r) => r.config === "default");
  const targets = {
    "default releases ≥ 2,000 distinct queries (median)": median("default") >= 2000,
    "100k users in ≤ 60 s wall (every run)": defaults.every((r) => (r.wallSeconds as number) <= 60),
    "≤ 1 GiB peak RSS (every run)": defaults.every(
      (r) => r.peakRssMiB === undefined || (r.peakRssMiB as number) <= 1024,
    ),
    ...(big
      ? {
          "10M rows in ≤ 3 min wall": rows
            .filter((r) => r.config === "default, 10M rows")
            .every((r) => (r.wallSeconds as number) <= 180),
        }
      : {}),
  };
  process.stdout.write(
    `median distinct queries released: default ${median("default")}, korolova ${median("korolova d=20")} ` +
      `(${ratio.toFixed(2)}×)\n${Object.entries(targets)
        .map(([t, ok]) => `  ${ok ? "met" : "NOT met"}: ${t}`)
        .join("\n")}\n`,
  );
  writeResults("dp", { users: Number(users), seed: Number(seed), rows, ratio, targets });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
