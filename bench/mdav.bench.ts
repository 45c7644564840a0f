/**
 * Benchmarks of semantic MDAV (paper 004) on generated users (src/synth, true ODP categories as the mapping):
 *  1. exact vs blocked on the same users: time and information loss L (vs the original), and the within-cluster
 *     Ds (the quantity MDAV minimizes), to check the blocked variant stays within 10% of exact;
 *  2. the scale run: 100,000 users, blocked variant with worker threads (target ≤ 10 minutes on 2 cores).
 *
 *   node --expose-gc --import tsx bench/mdav.bench.ts [--users 100000] [--compare 4000] [--block 2000]
 *
 * Prints a markdown table and writes bench/results/mdav.json.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { parseArgs } from "node:util";
import { Taxonomy } from "../src/knowledge/taxonomy.ts";
import type { QueryLog } from "../src/log/record.ts";
import type { ConceptMapper } from "../src/methods/mdav/concept-mapper.ts";
import { type MdavParams, semanticMicroaggregation } from "../src/methods/mdav/index.ts";
import { mapLogs } from "../src/methods/mdav/profiles.ts";
import { recordCategoryMapper } from "../src/methods/mdav/record-category-mapper.ts";
import { semanticUserDistance } from "../src/methods/mdav/semantic-distance.ts";
import { userLogs } from "../src/methods/mdav/user-logs.ts";
import { informationLoss } from "../src/metrics/information-loss.ts";
import { generateLog } from "../src/synth/generate.ts";
import { Rng } from "../src/util/random.ts";

const { values } = parseArgs({
  options: {
    users: { type: "string", default: "100000" },
    compare: { type: "string", default: "4000" },
    block: { type: "string", default: "2000" },
    k: { type: "string", default: "3" },
  },
});
const K = Number(values.k);
const taxonomy = Taxonomy.bundled();
const gc = (globalThis as { gc?: () => void }).gc;
const rssMb = () => Math.round(process.memoryUsage().rss / 2 ** 20);

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

async function run(log: QueryLog, mapper: ConceptMapper, params: MdavParams) {
  gc?.();
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const rel = await semanticMicroaggregation(log, params, mapper, Rng.fromSeed(1));
  const c = process.cpuUsage(c0);
  return { rel, seconds: (performance.now() - t0) / 1000, cpu: (c.user + c.system) / 1e6, rss: rssMb() };
}

const rows: Record<string, unknown>[] = [];
const table: string[] = [
  "| run | users | variant | wall s | CPU s (all threads) | RSS MB | L (80) | L (CH) | mean Ds shift |",
  "|---|---:|---|---:|---:|---:|---:|---:|---:|",
];

// 1. exact vs blocked where both run
{
  const n = Number(values.compare);
  const log = generateLog({ seed: 7, users: n, withTruth: true });
  const mapper = recordCategoryMapper(log.records, taxonomy);
  const block = Math.min(Number(values.block), Math.floor(n / 4));
  for (const variant of ["exact", "blocked"] as const) {
    const { rel, seconds, cpu, rss } = await run(log, mapper, { k: K, variant, block, workers: 2 });
    const l80 = informationLoss(log, rel.log!, { mapper, clusters: 80 }).loss;
    const lch = informationLoss(log, rel.log!, { mapper });
    const shift = meanShift(log, rel.log!, mapper);
    rows.push({
      run: "compare",
      users: n,
      variant,
      block,
      seconds,
      cpu,
      rss,
      l80,
      lch: lch.loss,
      kch: lch.clusters,
      shift,
    });
    table.push(
      `| compare | ${n} | ${variant}${variant === "blocked" ? ` (block ${block})` : ""} | ${seconds.toFixed(1)} | ${cpu.toFixed(1)} | ${rss} | ${l80.toFixed(2)} | ${lch.loss.toFixed(2)} (K=${lch.clusters}) | ${shift.toFixed(4)} |`,
    );
    console.error(table[table.length - 1]);
  }
}

// 2. the scale run
{
  const n = Number(values.users);
  const t0 = performance.now();
  let log: QueryLog | undefined = generateLog({ seed: 11, users: n, withTruth: true });
  const genSeconds = (performance.now() - t0) / 1000;
  const mapper = recordCategoryMapper(log.records, taxonomy);
  console.error(`scale: generated ${n} users, ${log.records.length} rows in ${genSeconds.toFixed(0)} s`);
  const { rel, seconds, cpu, rss } = await run(log, mapper, {
    k: K,
    variant: "blocked",
    block: Number(values.block),
    workers: 2,
  });
  rows.push({
    run: "scale",
    users: n,
    rows: log.records.length,
    variant: "blocked",
    block: Number(values.block),
    workers: 2,
    seconds,
    cpu,
    rss,
    genSeconds,
    clusters: rel.counts.clusters,
    released: rel.counts["released rows"],
  });
  table.push(
    `| scale | ${n} | blocked (block ${values.block}, 2 workers) | ${seconds.toFixed(1)} | ${cpu.toFixed(1)} | ${rss} | | | |`,
  );
  log = undefined;
  console.error(table[table.length - 1]);
}

const out = { date: new Date().toISOString(), node: process.version, cpus: cpus().length, k: K, rows };
mkdirSync(new URL("./results/", import.meta.url), { recursive: true });
writeFileSync(new URL("./results/mdav.json", import.meta.url), `${JSON.stringify(out, null, 2)}\n`);
console.log(table.join("\n"));
