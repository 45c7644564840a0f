import { Session } from "node:inspector/promises";
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { ROOT, sharedAolOrSkip } from "../../bench/shared-aol.ts";
import { BUNDLED_MODEL, Classifier, loadModel } from "../../src/classify/classifier.ts";
import { Embeddings } from "../../src/knowledge/embeddings.ts";
import { SnapshotKnowledgeBase } from "../../src/knowledge/knowledge-base.ts";
import { readSnapshot } from "../../src/knowledge/snapshot.ts";
import { loadLog } from "../../src/log/read.ts";

const _root = ROOT;
const aolPath = sharedAolOrSkip("classify-profile");
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
    test: (fn, url) =>
      url.includes("/classify/layer-scorer.") || (url.includes("/classify/") && fn === "decide"),
  },
  {
    name: "placing and vote (units' candidates)",
    test: (_, url) => url.includes("/classify/placing."),
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
