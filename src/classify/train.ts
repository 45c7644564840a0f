/**
 * Training and cross-validating the learned decision layer (model.ts) on hand-labelled queries: a TSV with a
 * header holding the columns `query` and `label` (the ODP top level; rows labelled Unclassifiable are left
 * out), such as ../shared/data/labels/train.tsv. Features are computed once per query with a classifier that
 * has no model (Algorithm 1 alone) and reused by every fold.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { Embeddings } from "../knowledge/embeddings.ts";
import { type KnowledgeBase, loadKnowledgeBase } from "../knowledge/knowledge-base.ts";
import { hostOf } from "../log/host.ts";
import { openLog } from "../log/read.ts";
import { InputError } from "../util/errors.ts";
import { Rng } from "../util/random.ts";
import { Classifier } from "./classifier.ts";
import { type Features, queryFeatures } from "./features.ts";
import { type Example, LinearModel, type ModelFile, type TrainOptions } from "./model.ts";

/** The top-level branches a query can be labelled with (labels/GUIDE.md). */
export const TOP_LEVELS: readonly string[] = [
  "Adult",
  "Arts",
  "Business",
  "Computers",
  "Games",
  "Health",
  "Home",
  "Kids_and_Teens",
  "News",
  "Recreation",
  "Reference",
  "Regional",
  "Science",
  "Shopping",
  "Society",
  "Sports",
  "World",
];

export interface Labelled {
  readonly query: string;
  readonly label: string;
}

/** The labelled queries of a TSV file (Unclassifiable rows left out); bad rows are `file:line: reason`. */
export function readLabelled(path: string): Labelled[] {
  const lines = readFileSync(path, "utf8").split("\n");
  const header = (lines[0] ?? "").split("\t");
  const qi = header.indexOf("query");
  const li = header.indexOf("label");
  if (qi < 0 || li < 0) throw new InputError(path, 1, "the header needs 'query' and 'label' columns");
  const out: Labelled[] = [];
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === "") continue;
    const cols = line.split("\t");
    const query = cols[qi];
    const label = cols[li];
    if (query === undefined || label === undefined)
      throw new InputError(path, i + 1, `expected ${header.length} tab-separated columns`);
    if (label === "Unclassifiable") continue;
    if (!TOP_LEVELS.includes(label)) throw new InputError(path, i + 1, `unknown label ${label}`);
    out.push({ query, label });
  }
  return out;
}

/** Every query of a labelled file, Unclassifiable rows included (see `trainFromLabels`'s `withhold`). */
export function readQueries(path: string): string[] {
  const lines = readFileSync(path, "utf8").split("\n");
  const qi = (lines[0] ?? "").split("\t").indexOf("query");
  return lines
    .slice(1)
    .filter((l) => l.trim() !== "")
    .map((l) => l.split("\t")[qi] ?? "");
}

/** Features of each labelled query (computed with `classifier`, which should have no model). */
export function featurize(classifier: Classifier, rows: readonly Labelled[], emb?: Embeddings): Example[] {
  const tax = classifier.kb.taxonomy;
  return rows.map((r) => ({
    features: queryFeatures(classifier.evidence(r.query), tax, emb),
    label: TOP_LEVELS.indexOf(r.label),
  }));
}

export function trainModel(examples: readonly Example[], opts: TrainOptions = {}): LinearModel {
  return LinearModel.train(TOP_LEVELS, examples, opts);
}

/** Per-class counts of a confusion: labelled, predicted, correct. */
export interface ClassCounts {
  n: number;
  predicted: number;
  correct: number;
}

export interface Evaluation {
  readonly queries: number;
  readonly correct: number;
  readonly accuracy: number;
  readonly perClass: Record<string, ClassCounts>;
}

/** Accuracy and per-class counts of predictions (class indices, -1 = none) against labels. */
export function evaluate(labels: readonly number[], predicted: readonly number[]): Evaluation {
  const perClass: Record<string, ClassCounts> = {};
  for (const c of TOP_LEVELS) perClass[c] = { n: 0, predicted: 0, correct: 0 };
  let correct = 0;
  for (let i = 0; i < labels.length; i++) {
    const l = labels[i]!;
    const p = predicted[i]!;
    perClass[TOP_LEVELS[l]!]!.n++;
    if (p >= 0) perClass[TOP_LEVELS[p]!]!.predicted++;
    if (p === l) {
      correct++;
      perClass[TOP_LEVELS[l]!]!.correct++;
    }
  }
  return { queries: labels.length, correct, accuracy: correct / labels.length, perClass };
}

export interface CrossValidation {
  readonly folds: readonly number[];
  readonly mean: number;
  readonly sd: number;
  /** All folds' predictions together. */
  readonly pooled: Evaluation;
}

/**
 * k-fold cross-validation: the examples are shuffled with `seed` and cut into k folds; each fold is predicted
 * by a model trained on the others. `predict` turns a model and an example into a class index (default the
 * model's own prediction).
 */
export function crossValidate(
  examples: readonly Example[],
  k = 5,
  opts: TrainOptions = {},
  seed = 1,
  predict: (m: LinearModel, e: Example) => number = (m, e) => m.predict(e.features),
  /** Fits a fold's model on its training examples (default `trainModel`; e.g. `selfTrain`). */
  fit: (train: readonly Example[]) => LinearModel = (train) => trainModel(train, opts),
): CrossValidation {
  const order = Rng.fromSeed(seed).shuffle(examples.map((_, i) => i));
  const fold = new Int32Array(examples.length);
  order.forEach((ex, i) => {
    fold[ex] = i % k;
  });
  const predicted = new Array<number>(examples.length).fill(-1);
  const folds: number[] = [];
  for (let f = 0; f < k; f++) {
    const train = examples.filter((_, i) => fold[i] !== f);
    const model = fit(train);
    let ok = 0;
    let n = 0;
    for (let i = 0; i < examples.length; i++) {
      if (fold[i] !== f) continue;
      const p = predict(model, examples[i]!);
      predicted[i] = p;
      n++;
      if (p === examples[i]!.label) ok++;
    }
    folds.push(ok / n);
  }
  const mean = folds.reduce((a, b) => a + b, 0) / k;
  const sd = Math.sqrt(folds.reduce((a, b) => a + (b - mean) ** 2, 0) / (k - 1));
  return {
    folds,
    mean,
    sd,
    pooled: evaluate(
      examples.map((e) => e.label),
      predicted,
    ),
  };
}

/** Per-class precision and recall of an evaluation. */
export function precisionRecall(
  e: Evaluation,
): { label: string; n: number; precision: number; recall: number }[] {
  return TOP_LEVELS.map((label) => {
    const c = e.perClass[label]!;
    return {
      label,
      n: c.n,
      precision: c.predicted > 0 ? c.correct / c.predicted : 0,
      recall: c.n > 0 ? c.correct / c.n : 0,
    };
  });
}

/**
 * Self-training on unlabelled queries (docs/classifier.md, sessions 13 and 17): the model of the labelled queries
 * labels a pool of unlabelled ones, those it gives probability ≥ `threshold` join the labelled ones with weight
 * `weight`, and the model is fitted again. Where the pool's log has clicks, a pool query whose clicked hosts were
 * also clicked by labelled queries takes their label instead (`click`, `clickLabels`). A word, word-pair or 4-gram
 * feature of a pool query is kept only when queries of at least `minUsers` distinct users of the pool's log hold
 * it: the model file learns no word that only a few people's queries carry. Chosen by 5-fold cross-validation on
 * train.tsv.
 */
export interface SelfTraining {
  readonly threshold: number;
  readonly weight: number;
  readonly minUsers: number;
  /** Labels carried through the click graph; absent = none. */
  readonly click?: ClickPropagation;
}

/**
 * A pool query takes the label of the labelled queries that clicked the same hosts: each host it clicked gives
 * the label shares of the labelled queries that clicked it, weighted by the query's clicks there. When the best
 * label holds ≥ `purity` of the sum and rests on ≥ `support` labelled queries, the query joins with weight
 * `weight`, whatever the model says of it.
 */
export interface ClickPropagation {
  readonly purity: number;
  readonly support: number;
  readonly weight: number;
}

export const SELF_TRAINING: SelfTraining = {
  threshold: 0.9,
  weight: 0.5,
  minUsers: 5,
  click: { purity: 0.95, support: 2, weight: 1 },
};

/** Lower-cased, single-spaced: the form in which queries are compared (pool vs labelled, withheld features). */
function comparable(q: string): string {
  return q.toLowerCase().trim().split(/\s+/).join(" ");
}

/**
 * The queries a self-training pool must leave out for the labels file `labels`: its own and those of a `dev.tsv`
 * beside it (the check set), when there is one.
 */
export function labelledBeside(labels: string): string[] {
  const dev = join(dirname(labels), "dev.tsv");
  return [...readQueries(labels), ...(existsSync(dev) && dev !== labels ? readQueries(dev) : [])];
}

/**
 * An unlabelled log for self-training: its distinct queries (lower-cased, single-spaced), the labelled ones left
 * out, with the users who typed each; and, for every query of the log (labelled ones included), the hosts its
 * clicks went to with their click counts.
 */
export interface Pool {
  readonly users: ReadonlyMap<string, ReadonlySet<string>>;
  readonly clicks: ReadonlyMap<string, ReadonlyMap<string, number>>;
}

/**
 * The pool of a log (any layout `openLog` reads; strict: a bad line is `file:line: reason`), leaving out empty
 * queries and the `labelled` ones (compared lower-cased and single-spaced) from `users`.
 */
export async function readPool(path: string, labelled: readonly string[]): Promise<Pool> {
  const exclude = new Set(labelled.map(comparable));
  const users = new Map<string, Set<string>>();
  const clicks = new Map<string, Map<string, number>>();
  const log = await openLog([path], { keepSource: false });
  for await (const batch of log.batches())
    for (const r of batch) {
      const q = comparable(r.query);
      if (q === "" || q === "-") continue;
      if (r.clickUrl !== undefined && r.clickUrl !== "") {
        const h = hostOf(r.clickUrl);
        if (h !== "") {
          let m = clicks.get(q);
          if (m === undefined) {
            m = new Map();
            clicks.set(q, m);
          }
          m.set(h, (m.get(h) ?? 0) + 1);
        }
      }
      if (exclude.has(q)) continue;
      const s = users.get(q);
      if (s === undefined) users.set(q, new Set([r.user]));
      else s.add(r.user);
    }
  return { users, clicks };
}

/** A feature that can carry a private word: a word, a word pair, a character 4-gram. */
const carriesWords = (name: string) =>
  name.startsWith("w:") || name.startsWith("b:") || name.startsWith("c:");

/** The pool's queries (sorted, so the order does not depend on the log's) with their features and clicks. */
export interface PoolExamples {
  readonly queries: readonly string[];
  readonly features: readonly Features[];
  readonly clicks: Pool["clicks"];
}

/**
 * The features of the pool's queries, without the word, pair and 4-gram features that fewer than `minUsers`
 * distinct users' queries hold.
 */
export function poolFeatures(
  classifier: Classifier,
  pool: Pool,
  minUsers: number,
  emb?: Embeddings,
): PoolExamples {
  const tax = classifier.kb.taxonomy;
  const queries = [...pool.users.keys()].sort();
  const intern = new Map<string, string>();
  const usersOf = new Map<string, Set<string>>();
  const all = queries.map((q) => {
    const f = queryFeatures(classifier.evidence(q), tax, emb);
    const names = f.names.map((x) => {
      const h = intern.get(x);
      if (h !== undefined) return h;
      intern.set(x, x);
      return x;
    });
    for (const name of new Set(names))
      if (carriesWords(name)) {
        const s = usersOf.get(name);
        if (s === undefined) usersOf.set(name, new Set(pool.users.get(q)));
        else if (s.size < minUsers) for (const u of pool.users.get(q)!) s.add(u);
      }
    return { names, values: f.values, dense: f.dense };
  });
  const features = all.map((f) => {
    const names: string[] = [];
    const values: number[] = [];
    f.names.forEach((name, j) => {
      if (!carriesWords(name) || (usersOf.get(name)?.size ?? 0) >= minUsers) {
        names.push(name);
        values.push(f.values[j]!);
      }
    });
    return { names, values, dense: f.dense };
  });
  return { queries, features, clicks: pool.clicks };
}

/**
 * The label the click graph gives each pool query (`ClickPropagation`), -1 where it gives none: the hosts' label
 * counts come from the `gold` examples, whose queries `queryOf` names.
 */
export function clickLabels(
  gold: readonly Example[],
  queryOf: (e: Example) => string | undefined,
  pool: PoolExamples,
  cp: ClickPropagation,
): Int32Array {
  const k = TOP_LEVELS.length;
  const perHost = new Map<string, Float64Array>();
  for (const e of gold) {
    const q = queryOf(e);
    const hosts = q === undefined ? undefined : pool.clicks.get(comparable(q));
    if (hosts === undefined) continue;
    for (const h of hosts.keys()) {
      let v = perHost.get(h);
      if (v === undefined) {
        v = new Float64Array(k);
        perHost.set(h, v);
      }
      v[e.label]! += 1;
    }
  }
  const out = new Int32Array(pool.queries.length).fill(-1);
  const share = new Float64Array(k);
  pool.queries.forEach((q, j) => {
    const hosts = pool.clicks.get(q);
    if (hosts === undefined) return;
    share.fill(0);
    let support = 0;
    for (const [h, clicks] of hosts) {
      const v = perHost.get(h);
      if (v === undefined) continue;
      let n = 0;
      for (let c = 0; c < k; c++) n += v[c]!;
      support += n;
      for (let c = 0; c < k; c++) share[c]! += (clicks * v[c]!) / n;
    }
    if (support < cp.support) return;
    let best = 0;
    let sum = 0;
    for (let c = 0; c < k; c++) {
      sum += share[c]!;
      if (share[c]! > share[best]!) best = c;
    }
    if (share[best]! >= cp.purity * sum) out[j] = best;
  });
  return out;
}

/** The model's best class for `f` when its probability is ≥ `threshold`, else -1 (`scratch`: k scores). */
export function confidentClass(
  m: LinearModel,
  f: Features,
  threshold: number,
  scratch: Float64Array,
): number {
  m.scores(f, scratch);
  const k = scratch.length;
  let best = 0;
  for (let c = 1; c < k; c++) if (scratch[c]! > scratch[best]!) best = c;
  let z = 0;
  for (let c = 0; c < k; c++) z += Math.exp(scratch[c]! - scratch[best]!);
  return 1 / z >= threshold ? best : -1;
}

/**
 * `trainModel` on the labelled examples plus the pool's pseudo-labelled ones (`SelfTraining`): those the click
 * graph labels (when `st.click` is set and `queryOf` names the labelled examples' queries), else those the first
 * model is confident of.
 */
export function selfTrain(
  gold: readonly Example[],
  pool: PoolExamples,
  opts: TrainOptions,
  st: SelfTraining = SELF_TRAINING,
  queryOf?: (e: Example) => string | undefined,
  /** Told how many pool queries joined, and how many of them through the click graph. */
  onAdded?: (added: number, byClicks: number) => void,
): LinearModel {
  const first = trainModel(gold, opts);
  const k = TOP_LEVELS.length;
  const byClicks =
    st.click !== undefined && queryOf !== undefined ? clickLabels(gold, queryOf, pool, st.click) : undefined;
  const s = new Float64Array(k);
  const added: Example[] = [];
  let clicked = 0;
  pool.features.forEach((f, j) => {
    const c = byClicks?.[j] ?? -1;
    if (c >= 0) {
      added.push({ features: f, label: c, weight: st.click!.weight });
      clicked++;
      return;
    }
    const best = confidentClass(first, f, st.threshold, s);
    if (best >= 0) added.push({ features: f, label: best, weight: st.weight });
  });
  onAdded?.(added.length, clicked);
  return trainModel([...gold, ...added], opts);
}

export interface TrainRun {
  readonly file: ModelFile;
  readonly model: LinearModel;
  readonly examples: number;
  /** Cross-validation on the same examples (when folds > 1). */
  readonly cv: CrossValidation | undefined;
}

/**
 * What `querymask kb train` does: features of the labelled queries (Algorithm 1 without a model, the word
 * vectors), an optional k-fold cross-validation, and the model trained on all of them; with `pool` (unlabelled
 * queries and their users, `readPool`), each model is self-trained on it (`selfTrain`).
 */
export async function trainFromLabels(
  rows: readonly Labelled[],
  opts: {
    kb?: KnowledgeBase;
    seed?: number;
    folds?: number;
    embeddings?: Embeddings | null;
    /** Queries no word or pair feature may spell out (default: the rows'; pass every query of the file). */
    withhold?: readonly string[];
    /** An unlabelled log's queries, users and clicks, for self-training (none = labelled queries only). */
    pool?: Pool;
    selfTraining?: SelfTraining;
  } = {},
): Promise<TrainRun> {
  const kb = opts.kb ?? (await loadKnowledgeBase());
  if (kb.contentHash === undefined)
    throw new Error("the knowledge base has no content hash to bind the model to");
  const classifier = await Classifier.create({ kb, model: null, cacheSize: 0 });
  const emb = opts.embeddings === null ? undefined : (opts.embeddings ?? Embeddings.load());
  const examples = featurize(classifier, rows, emb);
  const seed = opts.seed ?? 1;
  // No word or word-pair feature spells out a whole labelled query: the model file must not hold the queries.
  const exclude = new Set<string>();
  for (const query of opts.withhold ?? rows.map((r) => r.query)) {
    const q = comparable(query);
    exclude.add(`w:${q}`);
    exclude.add(`b:${q}`);
  }
  const trainOpts: TrainOptions = { seed, exclude };
  const st = opts.selfTraining ?? SELF_TRAINING;
  const pool = opts.pool === undefined ? undefined : poolFeatures(classifier, opts.pool, st.minUsers, emb);
  const queryOf = new Map(examples.map((e, i) => [e, rows[i]!.query]));
  const fit = (train: readonly Example[]) =>
    pool === undefined
      ? trainModel(train, trainOpts)
      : selfTrain(train, pool, trainOpts, st, (e) => queryOf.get(e));
  const folds = opts.folds ?? 5;
  const cv = folds > 1 ? crossValidate(examples, folds, trainOpts, seed, undefined, fit) : undefined;
  const model = fit(examples);
  const file = model.toFile(
    kb.contentHash,
    {
      examples: examples.length,
      seed,
      options: {
        seed,
        excluded: exclude.size,
        ...(pool !== undefined ? { selfTraining: { ...st, pool: pool.queries.length } } : {}),
      },
    },
    emb?.source,
  );
  return { file, model, examples: examples.length, cv };
}
