/**
 * Where the classifier's time goes, by stage: a CPU profile (node:inspector, 200 µs samples) of one uncached run
 * over distinct AOL queries, after the bench's warm-up (the last 2,000 distinct queries, on another classifier of
 * the same knowledge base), each sample given to the innermost stage on its stack: scrub, tagging (wink-nlp),
 * word facts (the memo of a word's knowledge-base facts), spelling recommendation, units (segmentation and
 * phrase look-ups), query rules, placing and vote, the learned layer's word parts (computed once per word) and
 * its per-query scoring, the query cache. Shares are of the main thread's samples: the CPU of V8's background
 * threads (optimizing compiler, GC helpers) is only in the process CPU printed beside them (`--trace-opt` shows
 * the compiler's part). Sampling slows the run: rates come from classify.bench.ts. Not run by `npm run bench`.
 *
 *   node --import tsx bench/classify-profile.ts [--from N] [--queries N] [--again] [--no-model] [--top N]
 *
 * `--from`: start at the N-th distinct query (classifying those before it unprofiled: word memos warm);
 * `--again`: profile a second pass over the same queries (every word memo filled: the per-query cost alone);
 * `--top`: how many functions by self time to list (default 20). Reads ../shared/data; skips when it is absent.
 */
import { existsSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { BUNDLED_MODEL, Classifier, loadModel } from "../src/classify/classifier.ts";
import { Embeddings } from "../src/knowledge/embeddings.ts";
import { SnapshotKnowledgeBase } from "../src/knowledge/knowledge-base.ts";
import { readSnapshot } from "../src/knowledge/snapshot.ts";
import { loadLog } from "../src/log/read.ts";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const aolPath = join(
  process.env.QUERYMASK_SHARED ?? join(root, "..", "shared", "data"),
  "aol-top1000",
  "aol_top1000_users.tsv.gz",
);
if (!existsSync(aolPath)) {
  console.log(`classify-profile skipped: needs the shared AOL subset (${aolPath})`);
  process.exit(0);
}
const { values: opts } = parseArgs({
  options: {
    from: { type: "string", default: "0" },
    queries: { type: "string", default: "30000" },
    again: { type: "boolean", default: false },
    "no-model": { type: "boolean", default: false },
    top: { type: "string", default: "20" },
  },
});
const from = Number(opts.from);
const count = Number(opts.queries);

const snap = readSnapshot();
if (snap === undefined) throw new Error("no knowledge-base snapshot: run `querymask kb build` first");
const kb = new SnapshotKnowledgeBase(snap);
const model = opts["no-model"] ? null : (loadModel(kb, BUNDLED_MODEL) ?? null);
const withModel = model === null ? { model } : { model, embeddings: Embeddings.load() };
const log = await loadLog([aolPath], { keepSource: false });
const queries = [...new Set(log.records.map((r) => r.query))];
const warm = await Classifier.create({ kb, cacheSize: 0, ...withModel });
for (let i = 0; i < 2000; i++) warm.classify(queries[queries.length - 1 - i]!);
const classifier = await Classifier.create({ kb, cacheSize: 0, ...withModel });
const sample = queries.slice(from, from + count);
for (let i = 0; i < from; i++) classifier.classify(queries[i]!);
if (opts.again) for (const q of sample) classifier.classify(q);

const session = new Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.setSamplingInterval", { interval: 200 });
await session.post("Profiler.start");
const cpu0 = process.cpuUsage();
const t0 = performance.now();
for (const q of sample) classifier.classify(q);
const wallS = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
const { profile } = await session.post("Profiler.stop");
const cpuS = (cpu.user + cpu.system) / 1e6;

/** The stages, innermost first: a sample goes to the first stage found walking up from its leaf frame. */
const STAGES: readonly { name: string; test: (fn: string, url: string) => boolean }[] = [
  { name: "query cache (lru-cache)", test: (_, url) => url.includes("/lru-cache/") },
  { name: "spelling recommendation", test: (fn, url) => fn === "recommend" && url.includes("/classify/") },
  { name: "word facts (memo, first look-ups)", test: (fn) => fn === "wordFacts" },
  { name: "tagging (wink-nlp)", test: (_, url) => url.includes("/text/nlp.") || url.includes("/wink-") },
  { name: "scrub", test: (_, url) => url.includes("/scrub/") },
  { name: "query rules", test: (_, url) => url.includes("/classify/query-rules.") },
  { name: "learned layer: word parts (once per word)", test: (fn) => fn === "wordPart" },
  {
    name: "learned layer: query features and scores",
    test: (fn, url) => url.includes("/classify/") && (fn === "scoreQuery" || fn === "decide"),
  },
  {
    name: "placing and vote (units' candidates)",
    test: (fn, url) =>
      url.includes("/classify/classifier.") &&
      ["placeUnits", "voteUnit", "mainUnit", "fallback", "lookupUnit", "phraseThenWords"].includes(fn),
  },
  { name: "units (segmentation, phrases)", test: (fn) => fn === "semanticUnits" },
];

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
const nodes = new Map<number, Node>();
const parent = new Map<number, number>();
for (const n of profile.nodes as Node[]) {
  nodes.set(n.id, n);
  for (const c of n.children ?? []) parent.set(c, n.id);
}
const samples = profile.samples ?? [];
const deltas = profile.timeDeltas ?? [];
const byStage = new Map<string, number>();
const bySelf = new Map<string, number>();
let busy = 0;
for (let i = 0; i < samples.length; i++) {
  const us = deltas[i] ?? 0;
  let id: number | undefined = samples[i]!;
  const leaf = nodes.get(id)!.callFrame;
  if (leaf.functionName === "(idle)" || leaf.functionName === "(program)") continue;
  let stage = "other (classify's own steps)";
  let inClassify = false;
  let staged = false;
  for (; id !== undefined; id = parent.get(id)) {
    const f = nodes.get(id)!.callFrame;
    if (!staged) {
      const s = STAGES.find((x) => x.test(f.functionName, f.url));
      if (s !== undefined) {
        stage = s.name;
        staged = true;
      }
    }
    if (f.functionName === "classify" && f.url.includes("/classify/classifier.")) inClassify = true;
  }
  if (!inClassify) {
    if (leaf.functionName !== "(garbage collector)") continue; // the profiler's own messages
    stage = "GC (main thread)";
  }
  busy += us;
  byStage.set(stage, (byStage.get(stage) ?? 0) + us);
  const key = `${leaf.functionName || "(anonymous)"} ${leaf.url.replace(/^.*\/(src|node_modules)\//, "$1/")}`;
  bySelf.set(key, (bySelf.get(key) ?? 0) + us);
}

const pct = (us: number) => `${((100 * us) / busy).toFixed(1)}%`;
console.log(
  `\n## classify profile (${sample.length} distinct queries from #${from}${opts.again ? ", second pass" : ""}, ${model === null ? "Algorithm 1 alone" : "with the learned layer"}; load ${loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")})\n`,
);
console.log(
  `process CPU ${cpuS.toFixed(2)} s (${Math.round(sample.length / cpuS)} queries per CPU-s while profiled), wall ${wallS.toFixed(2)} s, main thread in classify ${(busy / 1e6).toFixed(2)} s\n`,
);
console.log("| stage (main thread) | ms | share |\n| --- | ---: | ---: |");
for (const [s, us] of [...byStage].sort((a, b) => b[1] - a[1]))
  console.log(`| ${s} | ${Math.round(us / 1000)} | ${pct(us)} |`);
console.log("\n| function (self time) | ms | share |\n| --- | ---: | ---: |");
for (const [f, us] of [...bySelf].sort((a, b) => b[1] - a[1]).slice(0, Number(opts.top)))
  console.log(`| ${f} | ${Math.round(us / 1000)} | ${pct(us)} |`);
