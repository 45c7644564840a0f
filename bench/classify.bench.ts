/**
 * Classifier speed and memory: knowledge-base load time and heap, the learned layer's load (model file and word
 * vectors), uncached throughput on distinct queries, cached throughput on the AOL subset's natural repetition
 * (every row, in log order). Uncached is measured twice: on the first 30,000 distinct queries (after a 2,000-query
 * warm-up, the memos of words still filling) and on the next 30,000 (the memos as a running process has them).
 * The classifiers are the default ones, Algorithm 1 with the bundled model; with `--no-model`, Algorithm 1 alone
 * (to compare under the same load).
 * Run: `node --expose-gc --import tsx bench/classify.bench.ts` (uses ../shared/data when present; otherwise
 * the bundled Excite sample is not available either, so it falls back to synthetic queries from the KB).
 * `--dump FILE` also writes every distinct query with its classification (JSON lines, first-seen order) to FILE,
 * so that a speed change can be checked for identical output (`cmp` two dumps). FILE holds AOL queries: keep it
 * outside the repository.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import os, { cpus } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { BUNDLED_MODEL, Classifier, loadModel } from "../src/classify/classifier.ts";
import { DEFAULT_EMBEDDINGS, Embeddings } from "../src/knowledge/embeddings.ts";
import { loadKnowledgeBase, SnapshotKnowledgeBase } from "../src/knowledge/knowledge-base.ts";
import { readSnapshot } from "../src/knowledge/snapshot.ts";
import { loadLog } from "../src/log/read.ts";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const aolPath = join(
  process.env.QUERYMASK_SHARED ?? join(root, "..", "shared", "data"),
  "aol-top1000",
  "aol_top1000_users.tsv.gz",
);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

await loadKnowledgeBase(); // make sure the snapshot exists (first run builds it)
if (existsSync(BUNDLED_MODEL) && !existsSync(DEFAULT_EMBEDDINGS) && !process.argv.includes("--no-model"))
  Embeddings.load(); // and the word vectors' cache

gc();
const heap0 = process.memoryUsage().heapUsed;
const rss0 = process.memoryUsage().rss;
const t0 = performance.now();
const cpu0 = process.cpuUsage();
const snap = readSnapshot()!;
const kb = new SnapshotKnowledgeBase(snap);
const loadMs = performance.now() - t0;
const cpu1 = process.cpuUsage(cpu0);
const loadCpuMs = (cpu1.user + cpu1.system) / 1000;
gc();
const kbHeapMb = (process.memoryUsage().heapUsed - heap0) / 2 ** 20;
const kbRssMb = (process.memoryUsage().rss - rss0) / 2 ** 20;

// The learned layer's model and word vectors (their cache file is built on first use, before this bench).
const rssM = process.memoryUsage().rss;
const tm = performance.now();
const cpuM = process.cpuUsage();
const model = process.argv.includes("--no-model") ? undefined : loadModel(kb);
const embeddings = model === undefined ? undefined : Embeddings.load();
const modelLoadMs = performance.now() - tm;
const modelCpu = process.cpuUsage(cpuM);
const modelLoadCpuMs = (modelCpu.user + modelCpu.system) / 1000;
gc();
const modelRssMb = (process.memoryUsage().rss - rssM) / 2 ** 20;
const withModel = { model: model ?? null, ...(embeddings !== undefined ? { embeddings } : {}) };

let queries: string[];
let rows: string[];
if (existsSync(aolPath)) {
  const log = await loadLog([aolPath], { keepSource: false });
  rows = log.records.map((r) => r.query);
  queries = [...new Set(rows)];
} else {
  console.log(`(${aolPath} absent: using synthetic queries)`);
  const words = [
    "soccer",
    "players",
    "cheap",
    "hotels",
    "chicago",
    "recipes",
    "chicken",
    "free",
    "games",
    "lyrics",
  ];
  queries = Array.from({ length: 20000 }, (_, i) => `${words[i % 10]} ${words[(i * 7) % 10]} ${i}`);
  rows = Array.from({ length: 200000 }, (_, i) => queries[(i * i) % 2000]!);
}

// Steady state of a running process: the JIT, the spelling index and the memos of common words warmed on
// queries outside the measured sample (the last 2,000 distinct ones).
const warm = await Classifier.create({ kb, cacheSize: 0, ...withModel });
for (let i = 0; i < 2000; i++) warm.classify(queries[queries.length - 1 - (i % queries.length)]!);
const sample = queries.slice(0, 30_000);
const uncached = await Classifier.create({ kb, cacheSize: 0, ...withModel });
/** CPU seconds (user + system) since `from`: the machine is shared, so wall time alone misleads. */
const cpuSince = (from: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(from);
  return (d.user + d.system) / 1e6;
};
let t = performance.now();
let c = process.cpuUsage();
for (const q of sample) uncached.classify(q);
const uncachedQps = sample.length / ((performance.now() - t) / 1000);
const uncachedCpuQps = sample.length / cpuSince(c);
// The same classifier on the next 30,000 distinct queries: still no query repeats, but the memos of common
// words (facts, spelling, the scrubber's and the learned layer's word parts) are as a running process has them.
const further = queries.slice(30_000, 60_000);
c = process.cpuUsage();
for (const q of further) uncached.classify(q);
const furtherCpuQps = further.length / cpuSince(c);

// The cache on the log's natural repetition: every row in log order, first pass cold (misses are computed;
// a fresh knowledge-base instance, so no word is remembered from the uncached run), second pass over the same
// rows warm (the steady state of a long-running stream).
const cached = await Classifier.create({
  kb: new SnapshotKnowledgeBase(snap),
  cacheSize: 200_000,
  ...withModel,
});
t = performance.now();
c = process.cpuUsage();
for (const q of rows) cached.classify(q);
const coldQps = rows.length / ((performance.now() - t) / 1000);
const coldCpuQps = rows.length / cpuSince(c);
t = performance.now();
c = process.cpuUsage();
for (const q of rows) cached.classify(q);
const warmQps = rows.length / ((performance.now() - t) / 1000);
const warmCpuQps = rows.length / cpuSince(c);
const distinctInSlice = new Set(rows).size;
const dumpAt = process.argv.indexOf("--dump");
if (dumpAt >= 0) {
  const lines: string[] = [];
  for (const q of new Set(rows)) lines.push(JSON.stringify([q, cached.classify(q)]));
  writeFileSync(process.argv[dumpAt + 1]!, `${lines.join("\n")}\n`);
}
gc();

const figures = {
  machine: {
    nproc: cpus().length,
    node: process.version,
    loadavg: os.loadavg().map((x) => Math.round(x * 10) / 10),
  },
  kbLoadMs: Math.round(loadMs),
  kbLoadCpuMs: Math.round(loadCpuMs),
  kbHeapMb: Math.round(kbHeapMb),
  kbRssMb: Math.round(kbRssMb),
  model: model !== undefined,
  modelLoadMs: Math.round(modelLoadMs),
  modelLoadCpuMs: Math.round(modelLoadCpuMs),
  modelRssMb: Math.round(modelRssMb),
  uncachedQueries: sample.length,
  uncachedQps: Math.round(uncachedQps),
  uncachedCpuQps: Math.round(uncachedCpuQps),
  uncachedFurtherQueries: further.length,
  uncachedFurtherCpuQps: Math.round(furtherCpuQps),
  cachedRows: rows.length,
  cachedDistinct: distinctInSlice,
  cachedColdQps: Math.round(coldQps),
  cachedColdCpuQps: Math.round(coldCpuQps),
  cachedWarmQps: Math.round(warmQps),
  cachedWarmCpuQps: Math.round(warmCpuQps),
  rssAfterMb: Math.round(process.memoryUsage().rss / 2 ** 20),
};
console.log(
  `\n## classify (nproc ${figures.machine.nproc}, node ${figures.machine.node}, load ${figures.machine.loadavg.join(" ")})\n`,
);
console.log("| figure | value |\n| --- | ---: |");
console.log(`| KB snapshot load (wall / CPU) | ${figures.kbLoadMs} ms / ${figures.kbLoadCpuMs} ms |`);
console.log(`| KB heap after load | ${figures.kbHeapMb} MB |`);
console.log(
  `| learned layer load (model + word vectors; wall / CPU / RSS) | ${figures.modelLoadMs} ms / ${figures.modelLoadCpuMs} ms / ${figures.modelRssMb} MB |`,
);
console.log("| (throughput: queries per wall second / per CPU second) | |");
console.log(
  `| uncached, ${figures.uncachedQueries} distinct queries | ${figures.uncachedQps} / ${figures.uncachedCpuQps} queries/s |`,
);
console.log(
  `| uncached, the next ${figures.uncachedFurtherQueries} distinct queries (word memos warm; per CPU second) | ${figures.uncachedFurtherCpuQps} queries/s |`,
);
console.log(
  `| cache, ${figures.cachedRows} rows in log order (${figures.cachedDistinct} distinct), first pass | ${figures.cachedColdQps} / ${figures.cachedColdCpuQps} queries/s |`,
);
console.log(
  `| cache, same rows again (warm) | ${figures.cachedWarmQps} / ${figures.cachedWarmCpuQps} queries/s |`,
);
console.log(`| process RSS at end | ${figures.rssAfterMb} MB |`);
mkdirSync(join(root, "bench", "results"), { recursive: true });
writeFileSync(join(root, "bench", "results", "classify.json"), `${JSON.stringify(figures, null, 2)}\n`);
