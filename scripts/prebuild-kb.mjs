#!/usr/bin/env node
// Part of `npm run build` (scripts/build.mjs runs it after compiling): the knowledge an installed package ships
// built, in dist/kb/ — the knowledge-base snapshot, the word vectors the classifier's model reads, the
// scrubber's word tables and the audit's own word lists — with manifest.json (each file's SHA-256, the snapshot's content hash, the versions of
// the packages they came from). An installed querymask loads them as they are (src/knowledge/prebuilt.ts), so
// none of the packages they are built from needs installing with it.
//
// The checkout's own .cache/kb/ seeds the folder: the compiled loaders (with QUERYMASK_KB pointing here) keep what
// is current and rebuild only what is stale, so a build after a classify run takes seconds. Then the classifier
// runs over the bundled Excite sample, which loads every table the classifier and the scrubber derive. The build
// fails when the snapshot is not the one the bundled model was trained on: that package would refuse its model.
import { createHash } from "node:crypto";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const out = join(root, "dist", "kb");
const snapshotPath = join(out, "knowledge-base.json");
/**
 * What the folder holds: the snapshot, the vectors, the scrubber's tables (stored.ts names them scrub-*.json) and
 * the audit's lists (src/audit/detector/lexicon.ts).
 */
const KEPT = /^(knowledge-base\.json|embeddings\.bin|scrub-[a-z0-9-]+\.json|audit-lexicon\.json)$/;
/** The audit's lists: built here each time (~0.5 s), never seeded from or kept in the checkout's cache. */
const AUDIT = "audit-lexicon.json";

mkdirSync(out, { recursive: true });
const cache = join(root, ".cache", "kb");
if (existsSync(cache))
  for (const f of readdirSync(cache))
    if (KEPT.test(f) && f !== AUDIT) copyFileSync(join(cache, f), join(out, f));

// Before the compiled modules are loaded: they read the location when they load.
process.env.QUERYMASK_KB = snapshotPath;
const dist = (m) => import(new URL(`../dist/${m}`, import.meta.url).href);
const { loadKnowledgeBase } = await dist("knowledge/knowledge-base.js");
const { Embeddings } = await dist("knowledge/embeddings.js");
const { snapshotContentHash, readSnapshot } = await dist("knowledge/snapshot.js");
const { SNAPSHOT_VERSION, buildFingerprint } = await dist("knowledge/fingerprint.js");
const { Classifier, BUNDLED_MODEL } = await dist("classify/classifier.js");
const { loadLog } = await dist("log/read.js");
const { storeAuditLexicon } = await dist("audit/detector/lexicon.js");

const sha256 = (path) => createHash("sha256").update(readFileSync(path)).digest("hex");
const say = (line) => process.stderr.write(`${line}\n`);
await loadKnowledgeBase(snapshotPath, say);
Embeddings.load(join(out, "embeddings.bin"));
const classifier = await Classifier.create({ cacheSize: 0 });
const sample = await loadLog([join(root, "data", "excite", "excite-small.log")]);
for (const r of sample.records) classifier.classify(r.query);
storeAuditLexicon(join(out, AUDIT));

// What had to be built here was missing or stale in the checkout's own cache: it gets the current files (before
// the paths below change), each whole or not at all for a process reading it meanwhile.
mkdirSync(cache, { recursive: true });
for (const f of readdirSync(out)) {
  if (!KEPT.test(f) || f === AUDIT) continue;
  const to = join(cache, f);
  if (existsSync(to) && sha256(to) === sha256(join(out, f))) continue;
  copyFileSync(join(out, f), `${to}.${process.pid}.tmp`);
  renameSync(`${to}.${process.pid}.tmp`, to);
}

// The snapshot names where it was built from; shipped, those are paths inside the package.
const snap = readSnapshot(snapshotPath);
const rel = (p) => (typeof p === "string" && p.startsWith(root) ? relative(root, p) : p);
const shipped = {
  ...snap,
  termstatsFile: rel(snap.termstatsFile),
  inputs: snap.inputs.map((i) => ({ ...i, source: i.source.split(", ").map(rel).join(", ") })),
};
const contentHash = snapshotContentHash(shipped);
const model = JSON.parse(readFileSync(BUNDLED_MODEL, "utf8"));
if (model.kbFingerprint !== contentHash) {
  say(
    `prebuild-kb: the knowledge base built (${contentHash}) is not the one ${relative(root, BUNDLED_MODEL)} was ` +
      `trained on (${model.kbFingerprint}): retrain the model (querymask kb train) or restore the build's inputs`,
  );
  process.exit(1);
}
writeFileSync(snapshotPath, JSON.stringify(shipped));

for (const f of readdirSync(out)) if (!KEPT.test(f)) rmSync(join(out, f), { recursive: true, force: true });
const files = Object.fromEntries(
  readdirSync(out)
    .sort()
    .map((f) => [f, sha256(join(out, f))]),
);

// Every package the project names, as installed here: the tables' keys read these versions in an installed package.
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const require = createRequire(join(root, "package.json"));
const packages = {};
for (const name of Object.keys({
  ...pkg.dependencies,
  ...pkg.optionalDependencies,
  ...pkg.devDependencies,
}).sort()) {
  let pj;
  try {
    pj = require.resolve(`${name}/package.json`);
  } catch {
    let dir = dirname(require.resolve(name));
    while (!existsSync(join(dir, "package.json"))) dir = dirname(dir);
    pj = join(dir, "package.json");
  }
  const meta = JSON.parse(readFileSync(pj, "utf8"));
  packages[name] = { version: meta.version, license: meta.license ?? "?" };
}
const manifest = {
  snapshotVersion: SNAPSHOT_VERSION,
  fingerprint: buildFingerprint(),
  contentHash,
  files,
  packages,
};
writeFileSync(join(out, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
const bytes = readdirSync(out).reduce((n, f) => n + readFileSync(join(out, f)).length, 0);
say(
  `prebuild-kb: ${relative(root, out)}: ${Object.keys(files).length} files, ${(bytes / 1e6).toFixed(1)} MB`,
);
