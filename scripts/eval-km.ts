/**
 * `npm run eval:km`: Burghardt et al. 2010's experiment on ../shared/data/aol-top1000 — the km method for m ∈ {2, 3}, k over
 * a grid from 2 to 100 and every target function, with Burghardt et al. 2010's measures (% of log size, users, bid, clicks,
 * impressions and revenue retained), the CPU time of each run and, optionally, the independent checker's verdict.
 *
 * Writes docs/results/km.tsv (aggregates only: no query, term or user of the AOL log). Rows are appended as
 * they are measured and a (m, k, target) already in the file is skipped, so a long sweep can be split into parts
 * (e.g. one per target, each under `flock /tmp/querymask-bench.lock`) and resumed. Skips with a message when the
 * AOL data is absent.
 *
 *   node --expose-gc --max-old-space-size=8192 --import tsx scripts/eval-km.ts
 *       [--ms 2,3] [--ks 2,3,5,10,20,30,50,75,100] [--targets random,logsize,users,clicks,impressions,bid,revenue]
 *       [--check all|none|users] [--out docs/results/km.tsv] [--seed 1] [--synthetic N]
 *
 * `--synthetic N` runs on bench/km.bench.ts's Altavista-shaped generated log of N users instead of AOL (a
 * contrast: histories of ~15 term occurrences, like Burghardt et al. 2010's log, instead of AOL's heaviest users).
 *
 * **Bids.** No bid table exists for AOL (Burghardt et al. 2010 used Yahoo! Search Marketing's recommended bids, which are not
 * public), so this script makes a synthetic one in memory from term statistics of the log itself (it is never
 * written out: it would list AOL terms). See {@link syntheticBid} and docs/results/km.md.
 */
import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { synthesize } from "../bench/km.bench.ts";
import { SHARED_AOL } from "../bench/shared-aol.ts";
import { checkKmAnonymity } from "../src/audit/checks/km.ts";
import { loadLog } from "../src/log/read.ts";
import type { LogRecord } from "../src/log/record.ts";
import { kmRecords } from "../src/methods/km/index.ts";
import { TARGETS, type Target } from "../src/methods/km/targets.ts";
import { queryTerms } from "../src/methods/km/terms.ts";
import { Rng } from "../src/util/random.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const AOL = SHARED_AOL;

const { values } = parseArgs({
  options: {
    ms: { type: "string", default: "2,3" },
    ks: { type: "string", default: "2,3,5,10,20,30,50,75,100" },
    targets: { type: "string", default: TARGETS.join(",") },
    check: { type: "string", default: "users" },
    out: { type: "string", default: join(ROOT, "docs/results/km.tsv") },
    seed: { type: "string", default: "1" },
    synthetic: { type: "string" },
  },
});

const ints = (s: string): number[] => s.split(",").map((x) => Number(x.trim()));
const ms = ints(values.ms);
const ks = ints(values.ks);
const targets = values.targets.split(",").map((t) => t.trim()) as Target[];
for (const t of targets) {
  if (!(TARGETS as readonly string[]).includes(t)) throw new Error(`unknown target ${t}`);
}

/** FNV-1a of a string, as a uniform number in (0, 1). */
function hashUniform(s: string, salt: number): number {
  let h = 0x811c9dc5 ^ salt;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return ((h >>> 0) + 0.5) / 4294967296;
}

/**
 * The synthetic bid of a term (US$ per click), a deterministic function of the term and of how many users use
 * it: terms of ≤ 2 characters and purely numeric terms get 0 (few advertisers bid on "of" or "2006"); the others
 * get 0.10 × (1 + ln(1 + users)) × exp(0.75·z), z a standard normal drawn from a hash of the term, rounded to
 * cents. So bids grow slowly with popularity (as recommended bids do) with a wide log-normal spread, and no bid
 * is tied to the log's click counts (which would make the bid target a copy of the clicks target).
 */
function syntheticBid(term: string, users: number): number {
  if (term.length <= 2 || /^[0-9]+$/.test(term)) return 0;
  const u1 = hashUniform(term, 1);
  const u2 = hashUniform(term, 2);
  const z = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
  return Math.round(100 * 0.1 * (1 + Math.log(1 + users)) * Math.exp(0.75 * z)) / 100;
}

function syntheticBids(records: readonly LogRecord[]): Map<string, number> {
  const holders = new Map<string, Set<string>>();
  for (const r of records) {
    for (const t of queryTerms(r.query)) {
      let s = holders.get(t);
      if (!s) {
        s = new Set();
        holders.set(t, s);
      }
      s.add(r.user);
    }
  }
  const bids = new Map<string, number>();
  for (const [t, s] of holders) bids.set(t, syntheticBid(t, s.size));
  return bids;
}

const COLUMNS = [
  "m",
  "k",
  "target",
  "cpu_s",
  "wall_s",
  "load1",
  "check",
  "check_cpu_s",
  "users",
  "terms",
  "user_term_pairs",
  "terms_suppressed",
  "events",
  "events_dropped",
  "pct_log_size",
  "pct_users",
  "pct_bid",
  "pct_clicks",
  "pct_impressions",
  "pct_revenue",
] as const;

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const cpu = (since: NodeJS.CpuUsage): number => {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1e6;
};
const fmt = (x: number | null | undefined, d = 2): string =>
  x === null || x === undefined ? "" : x.toFixed(d);

async function main(): Promise<void> {
  if (values.synthetic === undefined && !existsSync(AOL)) {
    process.stdout.write(`AOL subset not found at ${AOL}: nothing to do\n`);
    return;
  }
  const out = values.out;
  const done = new Set<string>();
  if (existsSync(out)) {
    const lines = readFileSync(out, "utf8").split("\n").filter(Boolean);
    for (const line of lines.slice(1)) {
      const [m, k, target] = line.split("\t");
      done.add(`${m}\t${k}\t${target}`);
    }
  } else {
    writeFileSync(out, `${COLUMNS.join("\t")}\n`);
  }
  const log =
    values.synthetic === undefined
      ? await loadLog([AOL], { keepSource: false })
      : { records: synthesize(Number(values.synthetic), 1) };
  const bids = syntheticBids(log.records);
  let withBid = 0;
  for (const v of bids.values()) if (v > 0) withBid++;
  process.stderr.write(
    `${values.synthetic === undefined ? "AOL subset" : "synthetic log"}: ${log.records.length} rows, ${bids.size} distinct terms, ${withBid} with a synthetic bid > 0\n`,
  );
  for (const target of targets) {
    for (const m of ms) {
      for (const k of ks) {
        const key = `${m}\t${k}\t${target}`;
        if (done.has(key)) continue;
        gc();
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        const r = kmRecords(log.records, { k, m, target }, Rng.fromSeed(Number(values.seed)), bids);
        const wall = (performance.now() - t0) / 1000;
        const cpuS = cpu(c0);
        let verdict = "";
        let checkS: number | undefined;
        if (values.check === "all" || (values.check === "users" && target === "users")) {
          const c1 = process.cpuUsage();
          const check = checkKmAnonymity(r.records, k, m, 0);
          checkS = cpu(c1);
          verdict = check.violations === 0 ? "ok" : `FAIL(${check.violations})`;
          if (check.violations > 0) process.exitCode = 1;
        }
        const c = r.counts;
        const ret = r.retained;
        const row = [
          m,
          k,
          target,
          fmt(cpuS),
          fmt(wall),
          fmt(loadavg()[0], 1),
          verdict,
          fmt(checkS),
          c.users,
          c["distinct terms"],
          c["user-term pairs"],
          c["terms suppressed"],
          c.events,
          c["events dropped"],
          fmt(ret.logSize),
          fmt(ret.users),
          fmt(ret.bid),
          fmt(ret.clicks),
          fmt(ret.impressions),
          fmt(ret.revenue),
        ];
        appendFileSync(out, `${row.join("\t")}\n`);
        process.stdout.write(
          `m=${m} k=${k} ${target}: ${fmt(cpuS)} CPU-s (${fmt(wall)} s wall) ${verdict} ` +
            `log ${fmt(ret.logSize, 1)}% users ${fmt(ret.users, 1)}% bid ${fmt(ret.bid, 1)}% ` +
            `clicks ${fmt(ret.clicks, 1)}% impr ${fmt(ret.impressions, 1)}% rev ${fmt(ret.revenue, 1)}%\n`,
        );
      }
    }
  }
}

await main();
