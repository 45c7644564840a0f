/**
 * Benchmarks of semantic MDAV (paper 004) on generated users (src/synth, true ODP categories as the mapping):
 *  1. exact vs blocked on the same users (default 2,000 and 5,000): time and information loss L (vs the
 *     original, 80 clusters and Calinski–Harabasz), and the mean Ds between a user and her released log, to
 *     check the blocked variant stays within 10% of exact;
 *  2. the scale run: 100,000 users, blocked variant with worker threads (target ≤ 10 minutes on 2 cores), with
 *     the time of each phase and L estimated on a sample of users;
 *  3. the cost of the information-loss metric L itself at larger sizes (default 10,000 users).
 *
 *   node --expose-gc --max-old-space-size=8192 --import tsx bench/mdav.bench.ts
 *        [--users 100000] [--compare 2000,5000] [--block 1000] [--workers 2] [--k 3] [--lsizes 10000]
 *        [--lsample 5000]
 *
 * CPU seconds are `process.cpuUsage()` deltas, i.e. getrusage(RUSAGE_SELF): the whole process, so worker
 * threads (and GC threads) are included. The 1-minute load average is recorded before and after each run.
 * Prints a markdown table and writes bench/results/mdav.json.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { parseArgs } from "node:util";
import { Taxonomy } from "../src/knowledge/taxonomy.ts";
import type { QueryLog } from "../src/log/record.ts";
import { type MdavParams, type MdavPhase, semanticMicroaggregation } from "../src/methods/mdav/index.ts";
import { heldRows } from "../src/methods/mdav/limits.ts";
import { recordCategoryMapper } from "../src/methods/mdav/record-category-mapper.ts";
import { informationLoss } from "../src/metrics/information-loss.ts";
import type { ConceptMapper } from "../src/semantic/concept-mapper.ts";
import { mapLogs } from "../src/semantic/profiles.ts";
import { semanticUserDistance } from "../src/semantic/semantic-distance.ts";
import { userLogs } from "../src/semantic/user-logs.ts";
import { generateLog } from "../src/synth/generate.ts";
import { Rng } from "../src/util/random.ts";

const { values } = parseArgs({
  options: {
    users: { type: "string", default: "100000" },
    compare: { type: "string", default: "2000,5000" },
    block: { type: "string", default: "1000" },
    workers: { type: "string", default: "2" },
    k: { type: "string", default: "3" },
    lsizes: { type: "string", default: "10000" },
    lsample: { type: "string", default: "5000" },
  },
});
const K = Number(values.k);
const BLOCK = Number(values.block);
const WORKERS = Number(values.workers);
const list = (s: string) => (s ? s.split(",").map(Number) : []);
const taxonomy = Taxonomy.bundled();
const gc = (globalThis as { gc?: () => void }).gc;
const rssMb = () => Math.round(process.memoryUsage().rss / 2 ** 20);
const load = () => Number(loadavg()[0]!.toFixed(2));

/** Wall and CPU seconds (whole process) of `f`, with the load average before and after. */
async function timed<T>(f: () => T | Promise<T>) {
  gc?.();
  const loadBefore = load();
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const value = await f();
  const c = process.cpuUsage(c0);
  return {
    value,
    wall: (performance.now() - t0) / 1000,
    cpu: (c.user + c.system) / 1e6,
    load: [loadBefore, load()] as const,
  };
}

/** Mean over users of Ds(user, her released log): how far each user moved (what MDAV keeps small). */
function meanShift(original: QueryLog, release: QueryLog, mapper: ConceptMapper): number {
  const o = userLogs(original.records);
  const r = userLogs(release.records);
  const op = mapLogs(o, mapper).profiles;
  const released = mapLogs(r, mapper).profiles;
  const rp = new Map(r.users.map((u, i) => [u, released[i]!]));
  let sum = 0;
  o.users.forEach((u, i) => {
    const p = rp.get(u);
    sum += p ? semanticUserDistance(mapper.space, op[i]!, p) : 1;
  });
  return sum / o.users.length;
}

const pct = (x: number, ref: number) => `${x >= ref ? "+" : ""}${((100 * (x - ref)) / ref).toFixed(1)}%`;
const rows: Record<string, unknown>[] = [];
const out: string[] = [];
const say = (line: string) => {
  out.push(line);
  console.error(line);
};

// 1. exact vs blocked where both run
say("### Exact vs blocked (same users, same seed)\n");
say(
  "| users | variant | wall s | CPU s | load 1-min | RSS MB | L (80) | L (CH) | L CPU s | mean Ds(user, release) |",
);
say("|---:|---|---:|---:|---|---:|---:|---:|---:|---:|");
for (const n of list(values.compare)) {
  const log = generateLog({ seed: 7, users: n, withTruth: true });
  const mapper = recordCategoryMapper(log.records, taxonomy);
  const block = Math.min(BLOCK, Math.floor(n / 4));
  const ref: { l80?: number; lch?: number; shift?: number } = {};
  for (const variant of ["exact", "blocked"] as const) {
    const params: MdavParams = { k: K, variant, block, workers: WORKERS };
    const run = await timed(() => semanticMicroaggregation(log, params, mapper, Rng.fromSeed(1)));
    const released = run.value.log!;
    const lt = await timed(() => ({
      l80: informationLoss(log, released, { mapper, clusters: 80 }).loss,
      ch: informationLoss(log, released, { mapper }),
    }));
    const { l80, ch } = lt.value;
    const shift = meanShift(log, released, mapper);
    if (variant === "exact") Object.assign(ref, { l80, lch: ch.loss, shift });
    rows.push({
      run: "compare",
      users: n,
      variant,
      block: variant === "blocked" ? block : undefined,
      wall: run.wall,
      cpu: run.cpu,
      load: run.load,
      rss: rssMb(),
      l80,
      lch: ch.loss,
      kch: ch.clusters,
      lCpu: lt.cpu,
      shift,
    });
    const rel = (x: number, r?: number) => (variant === "blocked" && r ? ` (${pct(x, r)})` : "");
    say(
      `| ${n} | ${variant}${variant === "blocked" ? ` (block ${block})` : ""} | ${run.wall.toFixed(1)} | ${run.cpu.toFixed(1)} | ${run.load.join(" → ")} | ${rssMb()} | ${l80.toFixed(2)}${rel(l80, ref.l80)} | ${ch.loss.toFixed(2)} (K=${ch.clusters})${rel(ch.loss, ref.lch)} | ${lt.cpu.toFixed(1)} | ${shift.toFixed(4)}${rel(shift, ref.shift)} |`,
    );
  }
}

// 2. the scale run
{
  const n = Number(values.users);
  // The users' log must fit in the heap with mdav's structures: generated up to one row past what fits, and a
  // log that reaches it stops the bench (exit 2) as the CLI stops, instead of V8 running out of heap.
  const limit = heldRows("mdav");
  const gen = await timed(() => generateLog({ seed: 11, users: n, rows: limit.most + 1, withTruth: true }));
  const log = gen.value;
  if (log.records.length > limit.most) {
    console.error(
      `mdav.bench: ${n.toLocaleString("en")} generated users: ${limit.refuse(log.records.length).message}`,
    );
    process.exit(2);
  }
  const mapper = recordCategoryMapper(log.records, taxonomy);
  say(
    `\n### Scale: ${n.toLocaleString("en")} users, ${log.records.length.toLocaleString("en")} rows, blocked (block ${BLOCK}, ${WORKERS} workers), k = ${K}\n`,
  );
  say(`generation (not part of the target): ${gen.wall.toFixed(1)} s wall, ${gen.cpu.toFixed(1)} CPU-s\n`);
  const phases: { phase: MdavPhase; wall: number; cpu: number }[] = [];
  let t = performance.now();
  let c = process.cpuUsage();
  const onPhase = (phase: MdavPhase) => {
    const dc = process.cpuUsage(c);
    phases.push({ phase, wall: (performance.now() - t) / 1000, cpu: (dc.user + dc.system) / 1e6 });
    t = performance.now();
    c = process.cpuUsage();
  };
  const params: MdavParams = { k: K, variant: "blocked", block: BLOCK, workers: WORKERS };
  const run = await timed(() => {
    t = performance.now();
    c = process.cpuUsage();
    return semanticMicroaggregation(log, params, mapper, Rng.fromSeed(1), undefined, onPhase);
  });
  const rss = rssMb();
  say("| phase | wall s | CPU s |");
  say("|---|---:|---:|");
  for (const p of phases) say(`| ${p.phase} | ${p.wall.toFixed(2)} | ${p.cpu.toFixed(2)} |`);
  say(
    `| **total** | **${run.wall.toFixed(1)}** | **${run.cpu.toFixed(1)}** |\n\nload 1-min ${run.load.join(" → ")}, RSS ${rss} MB, ${run.value.counts.clusters} clusters, ${run.value.counts["released rows"]} released rows`,
  );
  const m = Number(values.lsample);
  const lt = await timed(
    () => informationLoss(log, run.value.log!, { mapper, clusters: 80, sample: m }).loss,
  );
  say(
    `L (80 clusters) on a random sample of ${m} users: ${lt.value.toFixed(2)} (${lt.wall.toFixed(1)} s wall, ${lt.cpu.toFixed(1)} CPU-s)`,
  );
  rows.push({
    run: "scale",
    users: n,
    rows: log.records.length,
    variant: "blocked",
    block: BLOCK,
    workers: WORKERS,
    wall: run.wall,
    cpu: run.cpu,
    load: run.load,
    rss,
    phases,
    generation: { wall: gen.wall, cpu: gen.cpu },
    clusters: run.value.counts.clusters,
    released: run.value.counts["released rows"],
    lSample: { users: m, l80: lt.value, wall: lt.wall, cpu: lt.cpu },
  });
}

// 3. cost of L itself
if (list(values.lsizes).length > 0) {
  say("\n### Cost of information loss L (original and release both clustered, 80 clusters)\n");
  say("| users | wall s | CPU s | load 1-min | RSS MB | L (80) |");
  say("|---:|---:|---:|---|---:|---:|");
}
for (const n of list(values.lsizes)) {
  const log = generateLog({ seed: 13, users: n, withTruth: true });
  const mapper = recordCategoryMapper(log.records, taxonomy);
  const rel = await semanticMicroaggregation(
    log,
    { k: K, variant: "blocked", block: BLOCK, workers: WORKERS },
    mapper,
    Rng.fromSeed(1),
  );
  const lt = await timed(() => informationLoss(log, rel.log!, { mapper, clusters: 80 }).loss);
  rows.push({
    run: "loss",
    users: n,
    wall: lt.wall,
    cpu: lt.cpu,
    load: lt.load,
    rss: rssMb(),
    l80: lt.value,
  });
  say(
    `| ${n} | ${lt.wall.toFixed(1)} | ${lt.cpu.toFixed(1)} | ${lt.load.join(" → ")} | ${rssMb()} | ${lt.value.toFixed(2)} |`,
  );
}

const result = { date: new Date().toISOString(), node: process.version, cpus: cpus().length, k: K, rows };
mkdirSync(new URL("./results/", import.meta.url), { recursive: true });
writeFileSync(new URL("./results/mdav.json", import.meta.url), `${JSON.stringify(result, null, 2)}\n`);
console.log(out.join("\n"));
