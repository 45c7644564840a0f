/**
 * Identifier scrubbing throughput (target ≥ 150,000 queries per CPU-second) in drop and tag mode, the one-off
 * lexicon load (target ≤ 1 s, from the stored tables a first run leaves beside the knowledge base; the built lists
 * under data/scrub ≤ 50 MB), the cost of counting the log's name evidence (NameUsers over every record), and how
 * often each identifier type fires. Input: the distinct queries of the shared AOL subset
 * when ../shared/data is present (read in place, never copied), otherwise generated queries from a fixed
 * template mix (so the figure is still comparable run to run).
 */
import { readdirSync, statSync } from "node:fs";
import { loadavg } from "node:os";
import { loadLog } from "../src/log/read.ts";
import { NameUsers } from "../src/scrub/name-users.ts";
import { createScrubber } from "../src/scrub/scrubber.ts";
import { PII_TYPES, type PiiType } from "../src/scrub/types.ts";
import { Rng } from "../src/util/random.ts";
import { writeResults } from "./results.ts";
import { sharedAol } from "./shared-aol.ts";

const AOL = sharedAol();

/** The distinct queries of the shared AOL subset, read with the project's own reader. */
async function aolLog(path: string) {
  return (await loadLog([path], { keepSource: false })).records;
}

function generatedQueries(n: number): string[] {
  const rng = Rng.fromSeed(42);
  const words = [
    "cheap",
    "flights",
    "john",
    "smith",
    "lyrics",
    "oak",
    "st",
    "pizza",
    "weather",
    "ohio",
    "mary",
  ];
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const len = 1 + rng.int(5);
    const parts: string[] = [];
    for (let k = 0; k < len; k++) parts.push(rng.pick(words));
    if (i % 50 === 0) parts.push(`${200 + rng.int(700)} 555 ${1000 + rng.int(9000)}`);
    if (i % 70 === 0) parts.unshift(`${1 + rng.int(9999)}`);
    out.push(parts.join(" "));
  }
  return out;
}

const t0 = performance.now();
const cpuLoad0 = process.cpuUsage();
const probe = createScrubber();
probe.scrub("john smith"); // loads the name lexicon
const loadMs = performance.now() - t0;
const loadCpu = process.cpuUsage(cpuLoad0);
const loadCpuMs = (loadCpu.user + loadCpu.system) / 1000;

const DATA = new URL("../data/scrub/", import.meta.url);
const builtBytes = readdirSync(DATA).reduce((a, f) => a + statSync(new URL(f, DATA)).size, 0);

const fromAol = AOL !== undefined;
const records = fromAol ? await aolLog(AOL) : undefined;
const queries = records ? [...new Set(records.map((r) => r.query))] : generatedQueries(160_000);
const users = records ?? queries.map((query, i) => ({ user: String(i % 1000), query, time: i }));
const cpuCount0 = process.cpuUsage();
const evidence = new NameUsers().add(users);
const countCpu = process.cpuUsage(cpuCount0);
const countCpuS = (countCpu.user + countCpu.system) / 1e6;
const source = fromAol
  ? "distinct queries of the shared AOL subset"
  : "generated queries (shared data absent)";

const ROUNDS = 3;

interface Run {
  /** Queries per wall-clock second. */
  qps: number;
  /** Queries per second of process CPU time: steadier than wall time on a shared, loaded machine. */
  cpuQps: number;
  secs: number;
  perType: Record<PiiType, number>;
}

/** One full pass as warm-up, then the median of {@link ROUNDS} timed passes. */
function run(mode: "drop" | "tag"): Run {
  const s = createScrubber({ mode });
  for (const q of queries) s.scrub(q);
  const times: number[] = [];
  const cpu: number[] = [];
  let perType = {} as Record<PiiType, number>;
  for (let round = 0; round < ROUNDS; round++) {
    globalThis.gc?.();
    perType = Object.fromEntries(PII_TYPES.map((t) => [t, 0])) as Record<PiiType, number>;
    const start = performance.now();
    const cpu0 = process.cpuUsage();
    for (const q of queries) for (const span of s.scrub(q).spans) perType[span.type]++;
    const used = process.cpuUsage(cpu0);
    times.push((performance.now() - start) / 1000);
    cpu.push((used.user + used.system) / 1e6);
  }
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)]!;
  const secs = median(times);
  return { qps: queries.length / secs, cpuQps: queries.length / median(cpu), secs, perType };
}

const tag = run("tag");
const drop = run("drop");
const flagged = (t: PiiType) => drop.perType[t];

process.stdout.write(
  `Scrubbing ${queries.length.toLocaleString("en-US")} ${source}; lexicon load ${loadMs.toFixed(0)} ms (${loadCpuMs.toFixed(0)} CPU-ms); built lists ${(builtBytes / 1e6).toFixed(1)} MB; name evidence of ${users.length.toLocaleString("en-US")} records counted in ${countCpuS.toFixed(2)} CPU-s (${evidence.size.toLocaleString("en-US")} names)\n\n`,
);
const fmt = (x: number) => Math.round(x).toLocaleString("en-US");
process.stdout.write(
  "| mode | queries/s, wall (median of 3) | queries/CPU-second | seconds per pass |\n|---|---|---|---|\n",
);
for (const [mode, r] of [
  ["drop", drop],
  ["tag", tag],
] as const) {
  process.stdout.write(`| ${mode} | ${fmt(r.qps)} | ${fmt(r.cpuQps)} | ${r.secs.toFixed(2)} |\n`);
}
process.stdout.write("\n| type | spans found | per 10,000 queries |\n|---|---|---|\n");
for (const t of PII_TYPES) {
  process.stdout.write(`| ${t} | ${flagged(t)} | ${((flagged(t) / queries.length) * 10_000).toFixed(1)} |\n`);
}
writeResults("scrub", {
  source,
  queries: queries.length,
  lexiconLoadMs: Math.round(loadMs),
  lexiconLoadCpuMs: Math.round(loadCpuMs),
  builtListBytes: builtBytes,
  nameEvidenceRecords: users.length,
  nameEvidenceCpuSeconds: Number(countCpuS.toFixed(3)),
  dropQueriesPerSec: Math.round(drop.qps),
  tagQueriesPerSec: Math.round(tag.qps),
  dropQueriesPerCpuSec: Math.round(drop.cpuQps),
  tagQueriesPerCpuSec: Math.round(tag.cpuQps),
  spansPerType: drop.perType,
  loadAverage: loadavg()[0],
  target: {
    dropQueriesPerCpuSec: 150_000,
    met: drop.cpuQps >= 150_000 && loadCpuMs <= 1000 && builtBytes <= 50e6,
  },
});
