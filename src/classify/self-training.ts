/**
 * Self-training the learned decision layer on an unlabelled log (docs/classifier.md): the
 * log's distinct queries join the labelled ones as pseudo-labelled examples, labelled through the log's click graph
 * where the labelled queries' clicks agree, else by the model when it is confident; the bundled model is then fitted
 * a third time on the labels the log context gives them (`BUNDLED_SELF_TRAINING`).
 */
import type { Embeddings } from "../knowledge/embeddings.ts";
import { EventCursor } from "../log/events.ts";
import { openLog } from "../log/read.ts";
import type { Classifier } from "./classifier.ts";
import { type Features, queryFeatures } from "./features.ts";
import { fitLinearModel } from "./fit.ts";
import { comparable, TOP_LEVELS } from "./labels.ts";
import { contextPosteriors, LOG_CONTEXT } from "./log-context.ts";
import { argmax, type Example, type LinearModel, softmax, type TrainOptions } from "./model.ts";
import { QueryEvents } from "./query-events.ts";

/**
 * Self-training on unlabelled queries (docs/classifier.md): the model of the labelled queries
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
  /**
   * Both fits' weights are the mean of their last `average` passes (`TrainOptions.average`): a retrain after a
   * change to a few examples then moves far fewer queries to another branch.
   */
  readonly average?: number;
  /** Options of the second fit (on the labelled and pseudo-labelled examples) that differ from the first's. */
  readonly refit?: Omit<TrainOptions, "exclude" | "seed">;
  /** A third fit on the labels the log context gives the pool ({@link CONTEXT_LABELS}); absent = none. */
  readonly context?: ContextLabels;
}

/**
 * The log context distilled into the text model (docs/classifier.md): the second fit's branch
 * probabilities of every query of the pool's log, reconsidered in the light of the log (`contextPosteriors` of
 * ./log-context.ts, `rounds` rounds, the other settings `LOG_CONTEXT`'s); a pool query whose posterior's largest
 * share is ≥ `threshold` joins the labelled ones with that label and weight `weight`, in place of the click graph's
 * and the model's pseudo-labels, and the model is fitted a third time. It still reads the query's text alone.
 */
export interface ContextLabels {
  readonly threshold: number;
  readonly weight: number;
  readonly rounds: number;
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
  average: 6,
};

/**
 * The context labels' settings (research/classifier-experiments `ctxdistill`): 5-fold CV on train 63.77% → 67.80%,
 * 5 of 5 folds up (docs/classifier.md).
 */
export const CONTEXT_LABELS: ContextLabels = { threshold: 0.7, weight: 0.5, rounds: LOG_CONTEXT.rounds };

/**
 * What `kb train --pool` does and the bundled model was trained with: {@link SELF_TRAINING}'s
 * two fits, then the third on the {@link CONTEXT_LABELS}. The experiments of research/classifier-experiments read
 * their changes against SELF_TRAINING's two fits, as they were written.
 */
export const BUNDLED_SELF_TRAINING: SelfTraining = { ...SELF_TRAINING, context: CONTEXT_LABELS };

/**
 * An unlabelled log for self-training: its distinct queries (lower-cased, single-spaced), the labelled ones left
 * out, with the users who typed each; and, for every query of the log (labelled ones included), the hosts its
 * clicks went to with their click counts.
 */
export interface Pool {
  readonly users: ReadonlyMap<string, ReadonlySet<string>>;
  readonly clicks: ReadonlyMap<string, ReadonlyMap<string, number>>;
  /** The log's query events and clicks, each text compared lower-cased and single-spaced (labelled ones too). */
  readonly events: QueryEvents;
}

/**
 * The pool of a log (any layout `openLog` reads; strict: a bad line is `file:line: reason`), leaving out empty
 * queries and the `labelled` ones (compared lower-cased and single-spaced) from `users`.
 */
export async function readPool(path: string, labelled: readonly string[]): Promise<Pool> {
  const exclude = new Set(labelled.map(comparable));
  const users = new Map<string, Set<string>>();
  const clicks = new Map<string, Map<string, number>>();
  const events = new QueryEvents();
  const cursor = new EventCursor();
  const log = await openLog([path], { keepSource: false });
  for await (const batch of log.batches())
    for (const r of batch) {
      const q = comparable(r.query);
      if (q === "" || q === "-") continue;
      if (cursor.next(r.user, q, r.time) !== undefined) events.add(r.user, q, r.time);
      if (r.clickUrl) {
        const h = events.click(q, r.clickUrl);
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
  return { users, clicks, events };
}

/** A feature that can carry a private word: a word, a word pair, a character 4-gram. */
const carriesWords = (name: string) =>
  name.startsWith("w:") || name.startsWith("b:") || name.startsWith("c:");

/** The pool's queries (sorted, so the order does not depend on the log's) with their features and clicks. */
export interface PoolExamples {
  readonly queries: readonly string[];
  readonly features: readonly Features[];
  readonly clicks: Pool["clicks"];
  readonly events: QueryEvents;
  /**
   * With `poolFeatures(…, texts)`: the features of each of `events.texts` (by id), all of them (not only those of ≥
   * `minUsers` users): the model reads them for the log context's probabilities ({@link contextLabelled}).
   */
  readonly textFeatures?: readonly Features[];
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
  /** Also the features of every text of the log (`textFeatures`, for the context labels). */
  texts = false,
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
  const examples = { queries, features, clicks: pool.clicks, events: pool.events };
  if (!texts) return examples;
  const at = new Map(queries.map((q, j) => [q, j]));
  const textFeatures = pool.events.texts.map((q) => {
    const j = at.get(q);
    return j !== undefined ? all[j]! : queryFeatures(classifier.evidence(q), tax, emb);
  });
  return { ...examples, textFeatures };
}

/**
 * What the click graph says of each pool query: `shares[j·k + c]`, the query's clicks on hosts weighted by the
 * share of label c among the `gold` examples (whose queries `queryOf` names) that clicked each host, and
 * `support[j]`, how many such labelled clicks stand behind it (0: none of its hosts was clicked by a labelled
 * query).
 */
export interface ClickShares {
  readonly shares: Float64Array;
  readonly support: Float64Array;
}

export function clickShares(
  gold: readonly Example[],
  queryOf: (e: Example) => string | undefined,
  pool: PoolExamples,
): ClickShares {
  const k = TOP_LEVELS.length;
  const perHost = new Map<string, Float64Array>();
  for (const e of gold) {
    const q = queryOf(e);
    const hosts = q === undefined ? undefined : pool.clicks.get(comparable(q));
    if (hosts === undefined) continue;
    for (const h of hosts.keys()) {
      let v = perHost.get(h);
      if (v === undefined) {
        v = new Float64Array(k + 1);
        perHost.set(h, v);
      }
      v[e.label]! += 1;
      v[k]! += 1;
    }
  }
  const shares = new Float64Array(pool.queries.length * k);
  const support = new Float64Array(pool.queries.length);
  pool.queries.forEach((q, j) => {
    const hosts = pool.clicks.get(q);
    if (hosts === undefined) return;
    for (const [h, clicks] of hosts) {
      const v = perHost.get(h);
      if (v === undefined) continue;
      const n = v[k]!;
      support[j]! += n;
      for (let c = 0; c < k; c++) shares[j * k + c]! += (clicks * v[c]!) / n;
    }
  });
  return { shares, support };
}

/**
 * The label the click graph gives each pool query (`ClickPropagation`), -1 where it gives none: the best label of
 * its `clickShares` when that holds ≥ `purity` of them and rests on ≥ `support` labelled clicks.
 */
export function clickLabels(
  gold: readonly Example[],
  queryOf: (e: Example) => string | undefined,
  pool: PoolExamples,
  cp: ClickPropagation,
): Int32Array {
  const k = TOP_LEVELS.length;
  const { shares, support } = clickShares(gold, queryOf, pool);
  const out = new Int32Array(pool.queries.length).fill(-1);
  for (let j = 0; j < out.length; j++) {
    if (support[j]! < cp.support || support[j] === 0) continue;
    let best = 0;
    let sum = 0;
    for (let c = 0; c < k; c++) {
      const x = shares[j * k + c]!;
      sum += x;
      if (x > shares[j * k + best]!) best = c;
    }
    if (shares[j * k + best]! >= cp.purity * sum) out[j] = best;
  }
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
 * The pool's pseudo-labelled examples (`SelfTraining`): those the click graph labels (when `st.click` is set and
 * `queryOf` names the labelled examples' queries), else those the model of the labelled examples is confident of.
 */
export function pseudoLabelled(
  gold: readonly Example[],
  pool: PoolExamples,
  opts: TrainOptions,
  st: SelfTraining = SELF_TRAINING,
  queryOf?: (e: Example) => string | undefined,
  /** Told how many pool queries joined, and how many of them through the click graph. */
  onAdded?: (added: number, byClicks: number) => void,
): Example[] {
  const first = fitLinearModel(TOP_LEVELS, gold, withAverage(opts, st));
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
  return added;
}

/**
 * `trainModel` on the labelled examples plus the pool's {@link pseudoLabelled} ones (the same arguments); with
 * `st.context`, fitted again on the labelled examples plus the pool's {@link contextLabelled} ones.
 */
export function selfTrain(...args: Parameters<typeof pseudoLabelled>): LinearModel {
  const [gold, pool, opts, st = SELF_TRAINING] = args;
  const added = pseudoLabelled(...args);
  const refit = { ...withAverage(opts, st), ...st.refit };
  const model = fitLinearModel(TOP_LEVELS, [...gold, ...added], refit);
  if (st.context === undefined) return model;
  return fitLinearModel(TOP_LEVELS, [...gold, ...contextLabelled(model, pool, st.context)], refit);
}

/** The pool's queries the log context labels ({@link ContextLabels}), from `model`'s probabilities. */
export function contextLabelled(model: LinearModel, pool: PoolExamples, cl: ContextLabels): Example[] {
  const k = TOP_LEVELS.length;
  const s = new Float64Array(k);
  if (pool.textFeatures === undefined)
    throw new Error("contextLabelled: poolFeatures(…, texts) gives textFeatures");
  const probs = pool.textFeatures.map((f) => softmax(model.scores(f, s)));
  const post = contextPosteriors(pool.events, probs, k, { ...LOG_CONTEXT, rounds: cl.rounds });
  const added: Example[] = [];
  pool.queries.forEach((q, j) => {
    const i = pool.events.id(q);
    const p = i === undefined ? undefined : post[i];
    if (p === undefined) return;
    const best = argmax(p);
    if (p[best]! >= cl.threshold) added.push({ features: pool.features[j]!, label: best, weight: cl.weight });
  });
  return added;
}

/** `opts` with the self-training's `average`, when it sets one. */
function withAverage(opts: TrainOptions, st: SelfTraining): TrainOptions {
  return st.average === undefined ? opts : { ...opts, average: st.average };
}
