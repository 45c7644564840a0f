/**
 * Classifier A/B on a shared, loaded machine: two checkouts' classifiers in one process, so that load swings hit
 * both alike. Each checkout is its own module graph (its own knowledge-base instance, word memos, scrubber memos
 * and compiled code) over the same snapshot, model and word vectors (this checkout's); the distinct queries of the
 * AOL subset, after a 2,000-query warm-up, go in chunks of 5,000 to A then B, the order swapped every chunk, no
 * query cache; CPU (user + system) is summed per side. Prints queries per CPU second of each and B/A (> 1: B
 * faster). Run it both ways round: the side created second tends to be a few percent slower (the same code
 * against itself gave 0.96–0.98, session 12).
 *
 *   node --import tsx bench/classify-ab.ts <checkout A> <checkout B> [queries, default 150000]
 *
 * A checkout is a directory holding `src/` (e.g. `git archive <commit> src data | tar -x -C /tmp/a`, with a
 * `node_modules` link). Not run by `npm run bench` (it needs two checkouts). Reads ../shared/data; skips with a
 * message when it is absent.
 */
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { BUNDLED_MODEL } from "../../src/classify/classifier.ts";
import { DEFAULT_EMBEDDINGS } from "../../src/knowledge/embeddings.ts";
import { DEFAULT_SNAPSHOT } from "../../src/knowledge/snapshot.ts";
import { loadLog } from "../../src/log/read.ts";

interface Classifies {
  classify(query: string): unknown;
}

const root = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const aolPath = join(
  process.env.QUERYMASK_SHARED ?? join(root, "..", "shared", "data"),
  "aol-top1000",
  "aol_top1000_users.tsv.gz",
);
const [dirA, dirB, limit] = process.argv.slice(2);
if (dirA === undefined || dirB === undefined) {
  process.stderr.write("usage: node --import tsx bench/classify-ab.ts <checkout A> <checkout B> [queries]\n");
  process.exit(2);
}
if (!existsSync(aolPath)) {
  process.stdout.write(`classify-ab: ${aolPath} absent; skipping\n`);
  process.exit(0);
}

async function classifierOf(dir: string): Promise<Classifies> {
  const src = join(resolve(dir), "src");
  const { Classifier, loadModel } = await import(join(src, "classify", "classifier.ts"));
  const { Embeddings } = await import(join(src, "knowledge", "embeddings.ts"));
  const { SnapshotKnowledgeBase } = await import(join(src, "knowledge", "knowledge-base.ts"));
  const { readSnapshot } = await import(join(src, "knowledge", "snapshot.ts"));
  const kb = new SnapshotKnowledgeBase(readSnapshot(DEFAULT_SNAPSHOT));
  return Classifier.create({
    kb,
    cacheSize: 0,
    model: loadModel(kb, BUNDLED_MODEL),
    embeddings: Embeddings.load(DEFAULT_EMBEDDINGS),
  });
}

const log = await loadLog([aolPath], { keepSource: false });
const queries = [...new Set(log.records.map((r) => r.query))];
const a = await classifierOf(dirA);
const b = await classifierOf(dirB);
const warm = queries.slice(-2000);
for (const q of warm) {
  a.classify(q);
  b.classify(q);
}
const n = Math.min(queries.length - warm.length, Number(limit ?? 150_000));
const cpu = [0, 0];
const run = (c: Classifies, chunk: readonly string[], side: 0 | 1) => {
  const from = process.cpuUsage();
  for (const q of chunk) c.classify(q);
  const d = process.cpuUsage(from);
  cpu[side]! += (d.user + d.system) / 1e6;
};
for (let at = 0, k = 0; at < n; at += 5000, k++) {
  const chunk = queries.slice(at, Math.min(at + 5000, n));
  if (k % 2 === 0) {
    run(a, chunk, 0);
    run(b, chunk, 1);
  } else {
    run(b, chunk, 1);
    run(a, chunk, 0);
  }
}
const [ca, cb] = cpu as [number, number];
process.stdout.write(
  `${n} distinct queries: A ${dirA} ${Math.round(n / ca)} per CPU-s, B ${dirB} ${Math.round(n / cb)} per CPU-s, B/A ${(ca / cb).toFixed(3)}\n`,
);
