/**
 * Classifier quality (`npm run eval:classifier`): top-level accuracy on the hand-labelled dev set
 * (../shared/data/labels/dev.tsv, rows labelled Unclassifiable left out) with a per-category table like paper
 * Pàmies-Estrems et al. 2016's Table 4, and coverage (share of query events that get a category) on the shared AOL 1000-user subset.
 *
 * Reads ../shared/data at run time only (AOL rows are never copied into the project); skips each part with a
 * message when its file is absent. Writes figures to bench/results/classifier-eval.json.
 *
 * With the learned layer (data/model/classifier-model.json, `querymask kb train`), it also reports the 5-fold
 * cross-validated accuracy (mean ± sd over folds, per-category precision and recall) on
 * ../shared/data/labels/train.tsv and on train + dev: the cross-validated figure on train, not the dev figure,
 * is what predicts accuracy on unseen queries.
 *
 * Flags: --errors prints the misclassified dev queries (do not paste them into code); --dev-only skips the AOL
 * coverage pass (and leaves bench/results/classifier-eval.json alone); --no-cv skips the cross-validation;
 * --no-model uses Algorithm 1 alone; --pool cross-validates with self-training on the AOL subset's unlabelled queries
 * (as `kb train --pool`: the bundled model's three fits; --no-context-labels: the first two), --heldout-in-pool
 * with each held-out fold's queries left in that pool (as the hidden set's are in the bundled model's), and
 * --train-only skips the cross-validation on train + dev; --paper uses Algorithm 1's least-referenced-unit rule instead of the
 * default vote (and no model); --context also gives dev's accuracy with the log context of `classify --context
 * clicks,users`, the AOL subset as the log (its dev queries get their answer in that log; the others their text's),
 * and, unless --no-cv, the cross-validation on train through what `classify` does with each fold's model: with the
 * query rules first, and with the log context (1 round and the default).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { SHARED_AOL } from "../bench/shared-aol.ts";
import { type Classification, Classifier, UNCLASSIFIED } from "../src/classify/classifier.ts";
import { assessAll, classifyLog, firstPassRecords, withLogContext } from "../src/classify/classify-log.ts";
import { comparable, labelledBeside, readLabelled, readQueries, TOP_LEVELS } from "../src/classify/labels.ts";
import { contextBranches, LOG_CONTEXT } from "../src/classify/log-context.ts";
import type { Example, LinearModel } from "../src/classify/model.ts";
import {
  BUNDLED_SELF_TRAINING,
  poolFeatures,
  readPool,
  SELF_TRAINING,
  selfTrain,
} from "../src/classify/self-training.ts";
import { crossValidate, featurize, precisionRecall, trainModel } from "../src/classify/train.ts";
import { Embeddings } from "../src/knowledge/embeddings.ts";
import { loadLog } from "../src/log/read.ts";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const shared = process.env.QUERYMASK_SHARED ?? join(root, "..", "shared", "data");
const devPath = join(shared, "labels", "dev.tsv");
const aolPath = SHARED_AOL;
const showErrors = process.argv.includes("--errors");
const devOnly = process.argv.includes("--dev-only");
const mainUnit = process.argv.includes("--paper") ? "paper" : "vote";
const noModel = process.argv.includes("--no-model") || mainUnit === "paper";
const trainPath = join(shared, "labels", "train.tsv");

const classifier = await Classifier.create(noModel ? { mainUnit, model: null } : { mainUnit });
const tax = classifier.kb.taxonomy;
const topOf = (id: number) => (id < 0 ? "Unclassified" : tax.label(tax.ancestorAt(id, 1)));
const result: Record<string, unknown> = {
  machine: { nproc: cpus().length, node: process.version },
  mainUnit,
  model: !noModel,
};

if (!noModel && !process.argv.includes("--no-cv") && existsSync(trainPath) && existsSync(devPath)) {
  const base = await Classifier.create({ kb: classifier.kb, model: null, cacheSize: 0 });
  const emb = Embeddings.load();
  const trainRows = readLabelled(trainPath);
  const devRows = readLabelled(devPath);
  const train = featurize(base, trainRows, emb);
  const dev = featurize(base, devRows, emb);
  const allRows = [...trainRows, ...devRows];
  const queryOf = new Map<Example, string>([...train, ...dev].map((e, i) => [e, allRows[i]!.query]));
  // With --pool, as `querymask kb train --pool <the AOL subset>` does: self-trained on its other queries.
  let fit: ((tr: readonly Example[]) => LinearModel) | undefined;
  if (process.argv.includes("--pool") && existsSync(aolPath)) {
    const st = process.argv.includes("--no-context-labels") ? SELF_TRAINING : BUNDLED_SELF_TRAINING;
    // --heldout-in-pool: the pool leaves out dev's queries only, and each fold's fit the queries it learns from —
    // the held-out fold's queries stay in it, as a query of the hidden set stays in the bundled model's pool.
    const heldoutIn = process.argv.includes("--heldout-in-pool");
    const pool = poolFeatures(
      base,
      await readPool(aolPath, heldoutIn ? readQueries(devPath) : labelledBeside(trainPath)),
      st.minUsers,
      emb,
      st.context !== undefined,
    );
    console.log(
      `self-training on ${pool.queries.length} distinct unlabelled AOL queries and their clicks` +
        `${st.context !== undefined ? ", then on their context labels" : ""}${heldoutIn ? " (held-out queries in the pool)" : ""}`,
    );
    fit = (tr) => {
      if (!heldoutIn) return selfTrain(tr, pool, {}, st, (e) => queryOf.get(e));
      const gold = new Set(tr.map((e) => comparable(queryOf.get(e)!)));
      const keep = pool.queries.flatMap((q, j) => (gold.has(q) ? [] : [j]));
      const queries = keep.map((j) => pool.queries[j]!);
      const features = keep.map((j) => pool.features[j]!);
      return selfTrain(tr, { ...pool, queries, features }, {}, st, (e) => queryOf.get(e));
    };
  }
  const pct = (x: number) => (100 * x).toFixed(2);
  const cvs: Record<string, unknown> = {};
  let trainFolds: { models: readonly LinearModel[]; fold: Int32Array } | undefined;
  for (const [name, examples] of [
    ["train", train],
    ["train+dev", [...train, ...dev]],
  ] as const) {
    if (name === "train+dev" && process.argv.includes("--train-only")) continue;
    // Each fold's model, in fold order (crossValidate fits fold 0, 1, … in turn), for --context below.
    const models: LinearModel[] = [];
    const cv = crossValidate(examples, 5, {}, 1, undefined, (tr) => {
      models.push(fit === undefined ? trainModel(tr, {}) : fit(tr));
      return models.at(-1)!;
    });
    if (name === "train") trainFolds = { models, fold: cv.fold };
    console.log(
      `\n## 5-fold cross-validation on ${name} (${examples.length} queries)\n\n**${pct(cv.mean)}% ± ${pct(cv.sd)}** (folds ${cv.folds.map(pct).join(", ")})\n`,
    );
    console.log("| category | queries | precision | recall |\n| --- | ---: | ---: | ---: |");
    const pr = precisionRecall(cv.pooled);
    for (const r of pr)
      console.log(`| ${r.label} | ${r.n} | ${r.precision.toFixed(2)} | ${r.recall.toFixed(2)} |`);
    cvs[name] = { folds: cv.folds, mean: cv.mean, sd: cv.sd, perCategory: pr };
  }
  result.crossValidation = cvs;
  if (process.argv.includes("--context") && existsSync(aolPath) && trainFolds !== undefined)
    result.crossValidationThroughClassify = await contextCrossValidation(
      trainRows.map((r) => r.query),
      train,
      trainFolds,
      emb,
    );
}

if (existsSync(devPath)) {
  const rows = readFileSync(devPath, "utf8").trimEnd().split("\n").slice(1);
  const per = new Map<string, { n: number; ok: number; predicted: number }>();
  let n = 0;
  let ok = 0;
  let unclassified = 0;
  for (const line of rows) {
    const [, query, label] = line.split("\t");
    if (query === undefined || label === undefined || label === "Unclassifiable") continue;
    const c = classifier.classify(query);
    const got = topOf(c.categoryId);
    n++;
    if (got === "Unclassified") unclassified++;
    const g = per.get(label) ?? { n: 0, ok: 0, predicted: 0 };
    g.n++;
    if (got === label) {
      ok++;
      g.ok++;
    } else if (showErrors)
      console.log(`  ${label.padEnd(14)} got ${got.padEnd(14)} ${query}  [${c.unit} → ${c.category}]`);
    per.set(label, g);
    const p = per.get(got) ?? { n: 0, ok: 0, predicted: 0 };
    p.predicted++;
    per.set(got, p);
  }
  console.log(`\n## Classifier accuracy on dev.tsv (top level, Unclassifiable rows excluded)\n`);
  console.log(
    `${ok}/${n} correct = **${((100 * ok) / n).toFixed(2)}%** (Pàmies-Estrems et al. 2016: 58.99% on 1,068 queries); unclassified ${unclassified}\n`,
  );
  console.log(
    "| category | queries | correct | recall | predicted | precision |\n| --- | ---: | ---: | ---: | ---: | ---: |",
  );
  const table = [...per].filter(([, g]) => g.n > 0 || g.predicted > 0).sort((a, b) => (a[0] < b[0] ? -1 : 1));
  for (const [cat, g] of table) {
    const pct = g.n > 0 ? `${((100 * g.ok) / g.n).toFixed(1)}%` : "–";
    const prec = g.predicted > 0 ? `${((100 * g.ok) / g.predicted).toFixed(1)}%` : "–";
    console.log(`| ${cat} | ${g.n} | ${g.ok} | ${pct} | ${g.predicted} | ${prec} |`);
  }
  result.dev = {
    queries: n,
    correct: ok,
    accuracy: ok / n,
    unclassified,
    perCategory: Object.fromEntries(table),
  };
} else {
  console.log(`skipping accuracy: ${devPath} not found`);
}

if (process.argv.includes("--context") && !noModel && existsSync(devPath) && existsSync(aolPath)) {
  // dev through `classify --context clicks,users` with the AOL subset as the log (the library's classifyLog: the
  // command's answers, test/classify/cli.test.ts).
  const log = await loadLog([aolPath], { keepSource: false });
  const { log: out, context } = classifyLog(classifier, log, undefined, LOG_CONTEXT);
  const inLog = new Map<string, string>();
  log.records.forEach((r, i) => {
    const category = out.records[i]!.category ?? "";
    inLog.set(r.query, category === "" ? "Unclassified" : category.split("/")[1]!);
  });
  let n = 0;
  let ok = 0;
  let found = 0;
  let foundOk = 0;
  for (const { query, label } of readLabelled(devPath)) {
    const top = inLog.get(query);
    const got = top ?? topOf(classifier.classify(query).categoryId);
    n++;
    if (got === label) ok++;
    if (top !== undefined) {
      found++;
      if (got === label) foundOk++;
    }
  }
  console.log(
    `\n## dev with the log context (classify --context clicks,users, the AOL subset as the log)\n\n${ok}/${n} correct = **${((100 * ok) / n).toFixed(2)}%**; ${found} of the queries are in the log (${((100 * foundOk) / Math.max(found, 1)).toFixed(2)}% of them right); the context moved ${context?.queriesChanged} of its distinct queries\n`,
  );
  result.devWithContext = { queries: n, correct: ok, accuracy: ok / n, inLog: found, correctInLog: foundOk };
}

/**
 * 5-fold cross-validation on train (the folds of `crossValidate`, seed 1) through what `querymask classify` does with
 * each fold's model: the layer alone; the classifier (the query rules first); and `classify --context clicks,users`
 * with the AOL subset as the log. Prints the three, fold by fold.
 */
async function contextCrossValidation(
  queries: readonly string[],
  examples: readonly Example[],
  /** The cross-validation's fold models (fold 0, 1, …) and each example's fold. */
  { models, fold }: { models: readonly LinearModel[]; fold: Int32Array },
  emb: Embeddings,
): Promise<Record<string, unknown>> {
  const log = await loadLog([aolPath], { keepSource: false });
  const { events } = await firstPassRecords(
    (async function* () {
      yield log.records;
    })(),
    { clicks: false, events: true },
  );
  if (events === undefined) throw new Error("eval: the first pass gathered no events");
  const branchOf = (c: Classification) => TOP_LEVELS.indexOf(topOf(c.categoryId));
  const settings = [{ ...LOG_CONTEXT, rounds: 1 }, LOG_CONTEXT];
  const variants = [
    "the layer alone",
    "classify (rules first)",
    ...settings.map((st) => `classify --context clicks,users --context-rounds ${st.rounds}`),
    `the same, the rules not first (rounds ${LOG_CONTEXT.rounds})`,
  ];
  const got = variants.map(() => new Int32Array(examples.length));
  const texts = new Set(events.texts);
  console.log(
    `\n## 5-fold cross-validation on train through classify, the AOL subset as the log (${events.texts.length} distinct queries; ${queries.filter((q) => texts.has(q)).length} of the ${queries.length} labelled queries are among them)\n`,
  );
  // Where the query rules decide: how often they are right, and how often the context's branch would be.
  // Per branch the rules give: queries, the rules right, the context's branch right, the layer alone right.
  type Tally = { n: number; rules: number; context: number; layer: number };
  const perRuledBranch = new Map<string, Tally>();
  for (const [f, model] of models.entries()) {
    const rules = await Classifier.create({ kb: classifier.kb, model, embeddings: emb });
    const assessed = assessAll(rules, events.texts);
    const contexts = settings.map((st) => withLogContext(rules, events, st, assessed));
    const branches = contextBranches(
      events,
      assessed.map((a) => a.probs),
      rules.branches.length,
      LOG_CONTEXT,
    );
    const byText = new Map(events.texts.map((t, q) => [t, q]));
    examples.forEach((e, i) => {
      if (fold[i] !== f) return;
      const query = queries[i]!;
      got[0]![i] = model.predict(e.features);
      got[1]![i] = branchOf(rules.classify(query));
      contexts.forEach((c, v) => {
        got[2 + v]![i] = branchOf(c.classify(query));
      });
      const q = byText.get(query);
      const own = got[2 + settings.length - 1]![i]!;
      got[2 + settings.length]![i] = q === undefined || branches[q]! < 0 ? own : branches[q]!;
      if (q !== undefined && assessed[q]!.ruled && branches[q]! >= 0) {
        const b = TOP_LEVELS[own] ?? "Unclassified";
        const r = perRuledBranch.get(b) ?? { n: 0, rules: 0, context: 0, layer: 0 };
        r.n++;
        if (own === e.label) r.rules++;
        if (branches[q] === e.label) r.context++;
        if (got[0]![i] === e.label) r.layer++;
        perRuledBranch.set(b, r);
      }
    });
    console.log(
      `  fold ${f + 1}: the context moved ${contexts.map((c, v) => `${c.queriesChanged} (rounds ${settings[v]!.rounds})`).join(", ")} distinct queries`,
    );
  }
  const ruled: Tally = { n: 0, rules: 0, context: 0, layer: 0 };
  for (const r of perRuledBranch.values())
    for (const k of ["n", "rules", "context", "layer"] as const) ruled[k] += r[k];
  console.log(
    `  where the query rules decide (${ruled.n} held-out queries): the rules right on ${ruled.rules}, the context's branch (rounds ${LOG_CONTEXT.rounds}) on ${ruled.context}, the layer alone on ${ruled.layer}`,
  );
  for (const [b, r] of [...perRuledBranch].sort((x, y) => y[1].n - x[1].n))
    console.log(
      `    the rules say ${b}: ${r.n} queries, the rules right on ${r.rules}, the layer alone on ${r.layer}`,
    );
  console.log("");
  const out: Record<string, unknown> = {};
  variants.forEach((name, v) => {
    const folds = [0, 1, 2, 3, 4].map((f) => {
      let n = 0;
      let ok = 0;
      examples.forEach((e, i) => {
        if (fold[i] !== f) return;
        n++;
        if (got[v]![i] === e.label) ok++;
      });
      return ok / n;
    });
    const mean = folds.reduce((a, b) => a + b, 0) / 5;
    const sd = Math.sqrt(folds.reduce((a, b) => a + (b - mean) ** 2, 0) / 4);
    const pct = (x: number) => (100 * x).toFixed(2);
    console.log(`${name}: **${pct(mean)}% ± ${pct(sd)}** (folds ${folds.map(pct).join(", ")})`);
    out[name] = { folds, mean, sd };
  });
  return out;
}

if (devOnly) {
  console.log("skipping coverage: --dev-only");
} else if (existsSync(aolPath)) {
  const t0 = performance.now();
  const log = await loadLog([aolPath], { keepSource: false });
  const t1 = performance.now();
  const { counts } = classifyLog(classifier, log);
  const t2 = performance.now();
  const events = counts.events ?? 0;
  const coverage = 1 - (counts[UNCLASSIFIED] ?? 0) / events;
  console.log(`\n## Coverage on the AOL 1000-user subset\n`);
  console.log(
    `${events} query events, ${counts[UNCLASSIFIED]} unclassified: coverage **${(100 * coverage).toFixed(2)}%** (paper: 85%)`,
  );
  console.log(
    `read ${((t1 - t0) / 1000).toFixed(1)} s, classified ${log.records.length} rows in ${((t2 - t1) / 1000).toFixed(1)} s (cache on)\n`,
  );
  console.log("| top level | events | share |\n| --- | ---: | ---: |");
  for (const [k, v] of Object.entries(counts).sort((a, b) => b[1] - a[1])) {
    if (k === "events" || k === "scrubbed") continue;
    console.log(`| ${k} | ${v} | ${((100 * v) / events).toFixed(1)}% |`);
  }
  result.aol = { events, rows: log.records.length, coverage, counts, seconds: (t2 - t1) / 1000 };
} else {
  console.log(`skipping coverage: ${aolPath} not found`);
}

if (!devOnly) {
  mkdirSync(join(root, "bench", "results"), { recursive: true });
  writeFileSync(
    join(root, "bench", "results", "classifier-eval.json"),
    `${JSON.stringify(result, null, 2)}\n`,
  );
}
