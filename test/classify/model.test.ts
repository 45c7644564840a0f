import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import fc from "fast-check";
import { BUNDLED_MODEL, Classifier, loadModel } from "../../src/classify/classifier.ts";
import { type Features, queryFeatures, wordFeatures } from "../../src/classify/features.ts";
import { fitLinearModel } from "../../src/classify/fit.ts";
import { readLabelled, TOP_LEVELS } from "../../src/classify/labels.ts";
import { LinearModel, type ModelFile } from "../../src/classify/model.ts";
import { WordParts, WordScorer } from "../../src/classify/scoring.ts";
import { trainFromLabels } from "../../src/classify/train.ts";
import { Embeddings } from "../../src/knowledge/embeddings.ts";
import { loadKnowledgeBase } from "../../src/knowledge/knowledge-base.ts";
import { readSnapshot, snapshotContentHash } from "../../src/knowledge/snapshot.ts";
import { InputError } from "../../src/util/errors.ts";
import { writeLabels } from "../helpers/labels.ts";
import { tempDir } from "../helpers/tmp.ts";

const kb = await loadKnowledgeBase();
const dir = tempDir("qm-model-");
const labels = writeLabels(dir);

test("training is deterministic for a seed, and learns its examples", async () => {
  const rows = readLabelled(labels);
  assert.equal(rows.length, 18, "Unclassifiable rows are left out");
  const emb = Embeddings.of("test", 2, [
    ["soccer", [1, 0]],
    ["flu", [0, 1]],
  ]);
  const a = await trainFromLabels(rows, { kb, seed: 7, folds: 3, embeddings: emb });
  const b = await trainFromLabels(rows, { kb, seed: 7, folds: 3, embeddings: emb });
  assert.deepEqual(a.file, b.file);
  assert.deepEqual(a.cv?.folds, b.cv?.folds);
  const c = await trainFromLabels(rows, { kb, seed: 8, folds: 0, embeddings: emb });
  assert.equal(c.cv, undefined);
  assert.equal(c.file.trainedOn.seed, 8);
  // Every training query is classified as labelled by the model trained on them.
  const base = await Classifier.create({ kb, model: null, cacheSize: 0 });
  for (const r of rows) {
    const f = queryFeatures(base.evidence(r.query), kb.taxonomy, emb);
    assert.equal(a.model.classes[a.model.predict(f)], r.label, r.query);
  }
});

test("a model file trained on another knowledge-base snapshot is refused, with what to do", async () => {
  const run = await trainFromLabels(readLabelled(labels), { kb, folds: 0, embeddings: null });
  const stale: ModelFile = { ...run.file, kbFingerprint: "0".repeat(32) };
  const path = join(dir, "stale-model.json");
  writeFileSync(path, JSON.stringify(stale));
  assert.throws(() => loadModel(kb, path), /trained on knowledge base 0{32}.*querymask kb train/);
  assert.throws(
    () => LinearModel.fromFile({ format: "other" } as never, undefined),
    /not a querymask classifier/,
  );
  // The same file with the knowledge base's content hash loads, and the classifier uses it.
  writeFileSync(path, JSON.stringify(run.file));
  const model = loadModel(kb, path)!;
  const c = await Classifier.create({ kb, model, cacheSize: 0 });
  assert.equal(c.classify("baseball scores").category.split("/")[1], "Sports");
});

test("the bundled model matches the bundled knowledge base and is on by default", async () => {
  const file = JSON.parse(readFileSync(BUNDLED_MODEL, "utf8")) as ModelFile;
  assert.equal(file.kbFingerprint, kb.contentHash, "retrain: querymask kb train");
  assert.deepEqual(file.classes, TOP_LEVELS);
  const c = await Classifier.create({ kb, cacheSize: 0 });
  const c0 = await Classifier.create({ kb, cacheSize: 0, model: null });
  // The paper's example holds with the learned layer, and the layer changes some answers.
  const ex = c.classify("european soccer barcelona players");
  assert.equal(ex.category.split("/")[1], "Sports");
  const queries = ["myspace layouts", "britney spears", "aim buddy icons", "harry potter", "ford mustang"];
  assert.ok(queries.some((q) => c.classify(q).category !== c0.classify(q).category));
});

test("the classifier's per-word scoring gives the model's own answer on the full features", async () => {
  const c = await Classifier.create({ kb, cacheSize: 0 });
  const base = await Classifier.create({ kb, model: null, cacheSize: 0 });
  const model = loadModel(kb)!;
  const emb = Embeddings.load();
  const queries = [
    "european soccer barcelona players",
    "cheap flights to paris",
    "myspace layouts",
    "how to make a paper airplane",
    "lyrics to hotel california",
    "chicago tribune",
    "the the the",
    "kjhkjh soccer",
    "flu flu symptoms",
  ];
  for (const q of queries) {
    const top = model.classes[model.predict(queryFeatures(base.evidence(q), kb.taxonomy, emb))];
    const got = c.classify(q);
    const ev = base.evidence(q);
    if (got.category === "")
      assert.equal(ev.base, undefined, q); // nothing known: unclassified
    else if (ev.ruled === undefined) assert.equal(got.category.split("/")[1], top, q);
  }
});

test("no word or pair feature of the model file spells out a whole labelled query", async () => {
  const rows = [
    { query: "ebay", label: "Shopping" },
    { query: "ebay motors", label: "Shopping" },
    { query: "cheap ebay motors", label: "Shopping" },
    { query: "Ebay  Motors parts", label: "Shopping" },
    { query: "flu", label: "Health" },
    { query: "flu shots", label: "Health" },
  ];
  const run = await trainFromLabels(rows, { kb, folds: 0, embeddings: null });
  const names = Object.keys(run.file.weights);
  assert.ok(names.includes("w:motors"), "features seen twice are kept…");
  for (const gone of ["w:ebay", "w:flu", "b:ebay motors"]) assert.ok(!names.includes(gone), gone);
  // An unlabelled query of the file is withheld too when passed.
  const more = await trainFromLabels(rows, {
    kb,
    folds: 0,
    embeddings: null,
    withhold: [...rows.map((r) => r.query), "motors"],
  });
  assert.ok(!Object.keys(more.file.weights).includes("w:motors"));
});

test("bad labelled rows are reported as file:line", () => {
  const bad = join(dir, "bad.tsv");
  writeFileSync(bad, "id\tquery\tlabel\n1\tsoccer\tSports\n2\tpasta\tCooking\n");
  assert.throws(
    () => readLabelled(bad),
    (e: unknown) => e instanceof InputError && /bad\.tsv:3: unknown label Cooking/.test(e.message),
  );
  writeFileSync(bad, "id\tquery\n1\tsoccer\n");
  assert.throws(() => readLabelled(bad), /bad\.tsv:1: the header needs/);
});

test("model scores: finite, argmax in range, and the file round trip keeps predictions", () => {
  const names = ["a", "b", "c", "d"];
  const featureArb = fc.record({
    names: fc.array(fc.constantFrom(...names), { maxLength: 6 }),
    seed: fc.nat(),
  });
  fc.assert(
    fc.property(fc.array(featureArb, { minLength: 3, maxLength: 12 }), fc.nat(1000), (raw, seed) => {
      const examples = raw.map((r, i) => ({
        features: { names: r.names, values: r.names.map(() => 1) } as Features,
        label: (r.seed + i) % 3,
      }));
      const m = fitLinearModel(["X", "Y", "Z"], examples, { seed, minCount: 1, epochs: 3 });
      const back = LinearModel.fromFile(
        m.toFile("fp", { examples: examples.length, seed, options: {} }),
        "fp",
      );
      for (const e of examples) {
        const s = m.scores(e.features);
        assert.ok(s.every(Number.isFinite));
        const p = m.predict(e.features);
        assert.ok(p >= 0 && p < 3);
        const s2 = back.scores(e.features);
        // Weights are kept to 1/1000: scores agree within the rounding of each weight.
        for (let c = 0; c < 3; c++)
          assert.ok(Math.abs(s[c]! - s2[c]!) <= 0.0005 * (e.features.names.length + 1) + 1e-9);
      }
    }),
    { numRuns: 40 },
  );
});

test("weights averaged over the last n passes are the mean of the models that stop after each of them", () => {
  const names = ["a", "b", "c", "d"];
  const featureArb = fc.record({
    names: fc.array(fc.constantFrom(...names), { minLength: 1, maxLength: 4 }),
    seed: fc.nat(),
  });
  fc.assert(
    fc.property(fc.array(featureArb, { minLength: 3, maxLength: 10 }), fc.nat(1000), (raw, seed) => {
      const examples = raw.map((r, i) => ({
        features: { names: r.names, values: r.names.map(() => 1), dense: new Float64Array([i % 2, 1]) },
        label: (r.seed + i) % 3,
      }));
      const opts = { seed, minCount: 1 };
      const averaged = fitLinearModel(["X", "Y", "Z"], examples, { ...opts, epochs: 5, average: 3 });
      // The same seed shuffles the same way pass by pass, so a run of 3, 4 or 5 passes is a prefix of the run of 5.
      const stops = [3, 4, 5].map((epochs) => fitLinearModel(["X", "Y", "Z"], examples, { ...opts, epochs }));
      const one = fitLinearModel(["X", "Y", "Z"], examples, { ...opts, epochs: 5, average: 1 });
      const last = stops[2]!;
      for (const e of examples) {
        const want = [0, 1, 2].map((c) => stops.reduce((a, m) => a + m.scores(e.features)[c]!, 0) / 3);
        const got = averaged.scores(e.features);
        for (let c = 0; c < 3; c++) assert.ok(Math.abs(got[c]! - want[c]!) < 1e-9, `${got} vs ${want}`);
        assert.deepEqual(one.scores(e.features), last.scores(e.features));
      }
    }),
    { numRuns: 30 },
  );
});

test("the model binds to what the knowledge base knows, not to where or by which code it was built", () => {
  const snap = readSnapshot()!;
  const moved = { ...snap, fingerprint: "f".repeat(32), termstatsFile: "/elsewhere/terms.tsv", inputs: [] };
  assert.equal(snapshotContentHash(moved), snapshotContentHash(snap));
  assert.notEqual(
    snapshotContentHash({ ...snap, categories: snap.categories.slice(1) }),
    snapshotContentHash(snap),
  );
});

test("a model read from a file adds each feature's weights as its weightOf row gives them", () => {
  const model = loadModel(kb)!;
  const names = [...model.featureNames()];
  const k = model.classes.length;
  fc.assert(
    fc.property(
      fc.array(
        fc.record({
          at: fc.nat(names.length - 1),
          unknown: fc.boolean(),
          value: fc.double({ min: -2, max: 2, noNaN: true }),
        }),
        { maxLength: 12 },
      ),
      (picks) => {
        const ns = picks.map((p) => (p.unknown ? `zz:not a feature ${p.at}` : names[p.at]!));
        const vs = picks.map((p) => p.value);
        const got = new Float64Array(k);
        model.addWeights(ns, vs, got);
        const want = new Float64Array(k);
        ns.forEach((n, i) => {
          const w = model.weightOf(n);
          if (w !== undefined) for (let c = 0; c < k; c++) want[c]! += vs[i]! * w[c]!;
        });
        assert.deepEqual(got, want);
      },
    ),
  );
});

test("the table of word parts keeps every part until it starts over, under a new token, when full", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 40 }),
      fc.integer({ min: 1, max: 5 }),
      fc.nat(200),
      (limit, width, n) => {
        const parts = new WordParts(width, limit);
        const held: { at: number; token: object; fill: number }[] = [];
        for (let i = 0; i < n; i++) {
          const before = parts.token;
          const at = parts.add();
          // The token changes exactly when `limit` parts were held.
          assert.equal(parts.token !== before, i > 0 && i % limit === 0);
          assert.equal(at, (i % limit) * width);
          parts.values.fill(i + 1, at, at + width);
          held.push({ at, token: parts.token, fill: i + 1 });
        }
        // Every part written under the current token reads back intact (growing the table kept it).
        for (const h of held)
          if (h.token === parts.token)
            assert.deepEqual([...parts.values.subarray(h.at, h.at + width)], new Array(width).fill(h.fill));
      },
    ),
  );
});

/** The bytes of a score vector: equal bytes, equal scores to the last bit. */
const bits = (a: Float64Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString("hex");

test("a word's scores without feature names are, to the bit, those of its named features", () => {
  const model = loadModel(kb)!;
  const scorer = new WordScorer(model, kb.taxonomy);
  const k = model.classes.length;
  // Words the model knows (whole or by their 4-grams), stopwords, and any text (non-ASCII, punctuation, digits).
  const known = [...model.featureNames()]
    .filter((n) => /^(w|sw|c):/.test(n))
    .map((n) => n.replace(/^\w+:/, ""));
  const ids = kb.taxonomy.ids().filter((_, i) => i % 40 === 0);
  const word = fc.oneof(
    fc.constantFrom(...known),
    fc.array(fc.constantFrom(...known), { minLength: 1, maxLength: 3 }).map((a) => a.join("")),
    fc.string({ maxLength: 12 }),
    fc.string({ unit: "grapheme", maxLength: 8 }),
    fc.constantFrom("the", "of", "é", "naïve", "^^$$", "a$b^c", "123", "-"),
  );
  const cats = fc.option(fc.array(fc.constantFrom(...ids), { maxLength: 3 }), { nil: undefined });
  fc.assert(
    fc.property(word, cats, (w, c) => {
      const names: string[] = [];
      const values: number[] = [];
      wordFeatures(w, c, kb.taxonomy, names, values);
      const want = new Float64Array(k);
      model.addWeights(names, values, want);
      const got = new Float64Array(k);
      scorer.add(w, c, got);
      assert.equal(bits(got), bits(want), JSON.stringify(w));
    }),
    { numRuns: 3000 },
  );
});

test("a word vector's projection read in place is, to the bit, that of its copy", () => {
  const model = loadModel(kb)!;
  const k = model.classes.length;
  const dims = model.denseDims;
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: -127, max: 127 }), { minLength: 3 * dims, maxLength: 3 * dims }),
      fc.integer({ min: 0, max: 2 }),
      (values, row) => {
        const v = Int8Array.from(values);
        const x = new Float64Array(dims);
        for (let d = 0; d < dims; d++) x[d]! += v[row * dims + d]!;
        const want = new Float64Array(k).fill(0.25);
        model.projectDense(x, want);
        const got = new Float64Array(k).fill(0.25);
        model.projectRow(v, row * dims, got);
        assert.equal(bits(got), bits(want));
      },
    ),
  );
});
