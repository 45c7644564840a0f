/**
 * Training and cross-validating the learned decision layer (model.ts) on hand-labelled queries (labels.ts).
 * Features are computed once per query with a classifier that has no model (Algorithm 1 alone) and reused by
 * every fold; with an unlabelled pool, each model is self-trained on it (self-training.ts).
 */
import { Embeddings } from "../knowledge/embeddings.ts";
import { type KnowledgeBase, loadKnowledgeBase } from "../knowledge/knowledge-base.ts";
import { Rng } from "../util/random.ts";
import { Classifier } from "./classifier.ts";
import { queryFeatures } from "./features.ts";
import { fitLinearModel } from "./fit.ts";
import { comparable, type Labelled, TOP_LEVELS } from "./labels.ts";
import type { Example, LinearModel, ModelFile, TrainOptions } from "./model.ts";
import {
  BUNDLED_SELF_TRAINING,
  type Pool,
  poolFeatures,
  type SelfTraining,
  selfTrain,
} from "./self-training.ts";

/** Features of each labelled query (computed with `classifier`, which should have no model). */
export function featurize(classifier: Classifier, rows: readonly Labelled[], emb?: Embeddings): Example[] {
  const tax = classifier.kb.taxonomy;
  return rows.map((r) => ({
    features: queryFeatures(classifier.evidence(r.query), tax, emb),
    label: TOP_LEVELS.indexOf(r.label),
  }));
}

export function trainModel(examples: readonly Example[], opts: TrainOptions = {}): LinearModel {
  return fitLinearModel(TOP_LEVELS, examples, opts);
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
  /** Each example's fold (0 … k − 1). */
  readonly fold: Int32Array;
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
  /** Told each fold's accuracy as it is scored (fold 0 … k − 1). */
  onFold?: (fold: number, accuracy: number) => void,
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
    onFold?.(f, ok / n);
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
    fold,
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
    /** Told what it is doing, a line at a time (each fold's figure as it comes, then the final fit). */
    progress?: (line: string) => void;
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
  const st = opts.selfTraining ?? BUNDLED_SELF_TRAINING;
  const pool =
    opts.pool === undefined
      ? undefined
      : poolFeatures(classifier, opts.pool, st.minUsers, emb, st.context !== undefined);
  const queryOf = new Map(examples.map((e, i) => [e, rows[i]!.query]));
  const fit = (train: readonly Example[]) =>
    pool === undefined
      ? trainModel(train, trainOpts)
      : selfTrain(train, pool, trainOpts, st, (e) => queryOf.get(e));
  const folds = opts.folds ?? 5;
  let t = performance.now();
  const secs = () => {
    const s = ((performance.now() - t) / 1000).toFixed(1);
    t = performance.now();
    return s;
  };
  const cv =
    folds > 1
      ? crossValidate(examples, folds, trainOpts, seed, undefined, fit, (f, accuracy) =>
          opts.progress?.(
            `fold ${f + 1} of ${folds}: ${(100 * accuracy).toFixed(2)}% of its held-out queries (${secs()} s)`,
          ),
        )
      : undefined;
  opts.progress?.(`fitting the model on all ${examples.length} labelled queries…`);
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
