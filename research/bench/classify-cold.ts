/**
 * The bench's uncached figure alone, for one checkout, in a fresh process: the first N distinct AOL queries
 * after the bench's warm-up (the last 2,000 distinct queries, on another classifier of the same knowledge base),
 * then the next N; CPU (user + system) of the process and, read from /proc, of its main thread and of the other
 * threads (V8's optimizing compiler and GC helpers) over the first N. Alternate checkouts over several runs: on a
 * shared machine one run says little (session 15 saw ±10% between runs of the same code).
 *
 *   node --import tsx bench/classify-cold.ts [checkout, default this one] [N, default 30000]
 *
 * A checkout is a directory holding `src/`, `data/` and `package.json` (e.g. `git archive <commit> src data
 * package.json tsconfig.json | tar -x -C /tmp/a`, with a `node_modules` link); the knowledge-base snapshot and
 * word vectors are this checkout's. Not run by `npm run bench`. Reads ../shared/data; skips when it is absent.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { ROOT, sharedAolOrSkip } from "../../bench/shared-aol.ts";
import { DEFAULT_EMBEDDINGS } from "../../src/knowledge/embeddings.ts";
import { DEFAULT_SNAPSHOT } from "../../src/knowledge/snapshot.ts";
import { loadLog } from "../../src/log/read.ts";

const root = ROOT;
const aolPath = sharedAolOrSkip("classify-cold");
const dir = resolve(process.argv[2] ?? root);
const n = Number(process.argv[3] ?? 30_000);

/** CPU seconds of the main thread and of the others (from /proc; empty where there is no /proc). */
function threadCpu(): { main: number; others: number } {
  let main = 0;
  let others = 0;
  const tasks = existsSync("/proc/self/task") ? readdirSync("/proc/self/task") : [];
  for (const t of tasks) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/self/task/${t}/stat`, "utf8");
    } catch {
      continue; // a thread that ended
    }
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const s = (Number(f[11]) + Number(f[12])) / 100; // utime + stime, in clock ticks of 1/100 s
    if (t === String(process.pid)) main += s;
    else others += s;
  }
  return { main, others };
}

const src = join(dir, "src");
const { Classifier, loadModel } = await import(join(src, "classify", "classifier.ts"));
const { Embeddings } = await import(join(src, "knowledge", "embeddings.ts"));
const { SnapshotKnowledgeBase } = await import(join(src, "knowledge", "knowledge-base.ts"));
const { readSnapshot } = await import(join(src, "knowledge", "snapshot.ts"));
const kb = new SnapshotKnowledgeBase(readSnapshot(DEFAULT_SNAPSHOT));
const withModel = {
  model: loadModel(kb, join(dir, "data", "model", "classifier-model.json")),
  embeddings: Embeddings.load(DEFAULT_EMBEDDINGS),
};
const log = await loadLog([aolPath], { keepSource: false });
const queries = [...new Set(log.records.map((r) => r.query))];
const warm = await Classifier.create({ kb, cacheSize: 0, ...withModel });
for (let i = 0; i < 2000; i++) warm.classify(queries[queries.length - 1 - i]!);
const classifier = await Classifier.create({ kb, cacheSize: 0, ...withModel });
const cpuOf = (from: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(from);
  return (d.user + d.system) / 1e6;
};
const t0 = threadCpu();
let c = process.cpuUsage();
for (const q of queries.slice(0, n)) classifier.classify(q);
const first = cpuOf(c);
const t1 = threadCpu();
c = process.cpuUsage();
for (const q of queries.slice(n, 2 * n)) classifier.classify(q);
const next = cpuOf(c);
console.log(
  `${dir}: first ${n} distinct queries ${first.toFixed(3)} CPU-s, ${Math.round(n / first)} per CPU-s ` +
    `(main thread ${(t1.main - t0.main).toFixed(2)} s, other threads ${(t1.others - t0.others).toFixed(2)} s); ` +
    `next ${n} ${Math.round(n / next)} per CPU-s`,
);
