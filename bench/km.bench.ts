/**
 * (k,m)-anonymity by term suppression (paper 003): speed of the method and of the independent checker.
 *
 * 1. The AOL subset (../shared/data/aol-top1000, read in place, skipped when absent): m ∈ {2, 3} × k over a grid
 *    (default 2, 3, 5, 10, 20, 30, 50, 75, 100; `--ks 2..100` for every k), target "users"; then every target at m = 2,
 *    k = 10 (bid and revenue with a synthetic bid table: no real one ships). Target: each run ≤ 60 s.
 * 2. A synthetic log of 1,000,000 users shaped like the paper's Altavista log (≈ 5 queries and ≈ 15 term
 *    occurrences per user, Zipf(1.05) terms over a 1M-term vocabulary), m = 2, k = 10, through the whole method
 *    (index, greedy, rewrite, measures). Target: ≤ 10 minutes. The project's generator is not used at this size:
 *    its AOL-shaped users (≈ 35–50 rows each over a season) make ~45M records, more than a heap holds as objects.
 *
 * Wall time and CPU time (user + system of this process) are both reported: on a shared machine the wall time
 * includes waiting for a core.
 *
 *   node --expose-gc --max-old-space-size=8192 --import tsx bench/km.bench.ts [--ks 2,5,10] [--ms 2,3]
 *       [--users 1000000] [--skip-aol] [--skip-synth] [--no-targets] [--results km]
 *
 * Results are rewritten to bench/results/<--results, default km>.json after every run, so a long run that is
 * stopped keeps what it measured.
 */
import { loadavg } from "node:os";
import { pathToFileURL } from "node:url";
import { checkKmAnonymity } from "../src/audit/checks/km.ts";
import { loadLog } from "../src/log/read.ts";
import type { LogRecord, QueryLog } from "../src/log/record.ts";
import { km } from "../src/methods/km/index.ts";
import { TARGETS, type Target } from "../src/methods/km/targets.ts";
import { queryTerms } from "../src/methods/km/terms.ts";
import type { Release } from "../src/methods/method.ts";
import { silentProgress } from "../src/util/progress.ts";
import { Rng, searchCumulative } from "../src/util/random.ts";
import { writeResults } from "./results.ts";
import { SHARED_AOL, sharedAol } from "./shared-aol.ts";

const AOL = sharedAol();

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? undefined : process.argv[i + 1];
}
function list(name: string, def: number[]): number[] {
  const v = arg(name);
  if (!v) return def;
  const range = /^(\d+)\.\.(\d+)$/.exec(v);
  if (range) {
    const out: number[] = [];
    for (let x = Number(range[1]); x <= Number(range[2]); x++) out.push(x);
    return out;
  }
  return v.split(",").map(Number);
}

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const cpuSeconds = (since: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1e6;
};
const round = (x: number | undefined, d = 1) => (x === undefined ? undefined : Number(x.toFixed(d)));

interface Row {
  log: string;
  users: number;
  records: number;
  m: number;
  k: number;
  target: string;
  wallSeconds: number;
  cpuSeconds: number;
  checkSeconds: number;
  checkOk: boolean;
  termsSuppressed: number;
  eventsDropped: number;
  pctLogSize?: number;
  pctUsers?: number;
  pctClicks?: number;
  pctImpressions?: number;
  pctBid?: number;
  pctRevenue?: number;
  peakRssMiB: number;
}

const rows: Row[] = [];
const save = () => writeResults(arg("results") ?? "km", { rows, loadAverage: loadavg() });

async function runOne(name: string, log: QueryLog, m: number, k: number, target: Target, bid?: string) {
  gc();
  const params = km.parse({ k, m, target, ...(bid ? { bid } : {}) });
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const rel: Release = await km.anonymize(log, params, { rng: Rng.fromSeed(1), progress: silentProgress });
  const wall = (performance.now() - t0) / 1000;
  const cpu = cpuSeconds(c0);
  const t1 = performance.now();
  const check = checkKmAnonymity(rel.log!.records, k, m, 0);
  const checkSeconds = (performance.now() - t1) / 1000;
  const c = rel.counts;
  const row: Row = {
    log: name,
    users: c.users!,
    records: log.records.length,
    m,
    k,
    target,
    wallSeconds: round(wall, 2)!,
    cpuSeconds: round(cpu, 2)!,
    checkSeconds: round(checkSeconds, 2)!,
    checkOk: check.violations === 0,
    termsSuppressed: c["terms suppressed"]!,
    eventsDropped: c["events dropped"]!,
    pctLogSize: round(c["% log size"]),
    pctUsers: round(c["% users"]),
    pctClicks: round(c["% clicks"]),
    pctImpressions: round(c["% impressions"]),
    pctBid: round(c["% bid"]),
    pctRevenue: round(c["% revenue"]),
    peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
  };
  const show = (x: number | undefined) => (x === undefined ? "–" : String(x));
  process.stdout.write(
    `| ${name} | ${m} | ${k} | ${target} | ${row.wallSeconds} | ${row.cpuSeconds} | ${row.checkSeconds} ` +
      `| ${check.violations === 0 ? "ok" : "FAIL"} | ${show(row.pctLogSize)} | ${show(row.pctUsers)} | ${show(row.pctClicks)} ` +
      `| ${show(row.pctImpressions)} | ${show(row.pctBid)} | ${show(row.pctRevenue)} |\n`,
  );
  if (check.violations > 0) process.exitCode = 1;
  rows.push(row);
  save();
  return row;
}

/** A deterministic stand-in bid table (no real one ships): a pseudo-random value in [0, 5) per term. */
async function syntheticBids(log: QueryLog): Promise<string> {
  const { mkdtemp, writeFile } = await import("node:fs/promises");
  const { tmpdir } = await import("node:os");
  const terms = new Set<string>();
  for (const r of log.records) for (const t of queryTerms(r.query)) terms.add(t);
  const rng = Rng.fromSeed(7);
  const lines = [...terms].sort().map((t) => `${t}\t${(rng.float() * 5).toFixed(2)}`);
  const path = `${await mkdtemp(`${tmpdir()}/km-bench-`)}/bids.tsv`;
  await writeFile(path, `${lines.join("\n")}\n`);
  return path;
}

/** Altavista-shaped synthetic records: geometric(mean 5) queries per user, 1–4 Zipf(1.05) terms each. */
export function synthesize(users: number, seed: number): LogRecord[] {
  const V = 1_000_000;
  const cum = new Float64Array(V);
  let s = 0;
  for (let i = 0; i < V; i++) {
    s += 1 / (i + 1) ** 1.05;
    cum[i] = s;
  }
  const draw = (rng: Rng): number => searchCumulative(cum, rng.float() * s);
  const rng = Rng.fromSeed(seed);
  const records: LogRecord[] = [];
  let time = 1_141_171_200;
  for (let u = 0; u < users; u++) {
    const user = String(1_000_000 + u);
    let q = 1;
    while (rng.float() < 0.8) q++;
    for (let i = 0; i < q; i++) {
      const n = 1 + rng.int(4);
      const terms: string[] = [];
      for (let j = 0; j < n; j++) terms.push(`w${draw(rng).toString(36)}`);
      time += 1 + rng.int(60);
      const query = terms.join(" ");
      records.push({ user, query, time });
      if (rng.float() < 0.4) records.push({ user, query, time, clickUrl: "http://example.com" });
    }
  }
  return records;
}

const HEAD =
  "| log | m | k | target | wall s | CPU s | check s | checker | % log size | % users | % clicks | % impressions | % bid | % revenue |\n" +
  "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";

async function main(): Promise<void> {
  process.stdout.write(
    `load average at start: ${loadavg()
      .map((x) => x.toFixed(1))
      .join(" ")}\n\n${HEAD}`,
  );
  if (!process.argv.includes("--skip-aol")) {
    if (AOL === undefined) {
      process.stdout.write(`(AOL subset not found at ${SHARED_AOL}: AOL rows skipped)\n`);
    } else {
      const log = await loadLog([AOL], { keepSource: false });
      for (const m of list("ms", [2, 3])) {
        for (const k of list("ks", [2, 3, 5, 10, 20, 30, 50, 75, 100]))
          await runOne("aol-top1000", log, m, k, "users");
      }
      if (!process.argv.includes("--no-targets")) {
        const bid = await syntheticBids(log);
        for (const target of TARGETS) {
          if (target === "users") continue;
          await runOne("aol-top1000", log, 2, 10, target, bid);
        }
      }
    }
  }
  if (!process.argv.includes("--skip-synth")) {
    const users = Number(arg("users") ?? 1_000_000);
    const t0 = performance.now();
    const records = synthesize(users, 1);
    const made = ((performance.now() - t0) / 1000).toFixed(1);
    process.stderr.write(`synthesized ${records.length.toLocaleString("en")} records in ${made}s\n`);
    const name = `synthetic ${users.toLocaleString("en")} users`;
    await runOne(name, { records, format: "aol" }, 2, 10, "users");
  }
  process.stdout.write(
    `\nload average at end: ${loadavg()
      .map((x) => x.toFixed(1))
      .join(" ")}\n`,
  );
  save();
}

// Run only when executed (scripts/eval-km.ts imports synthesize).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
