/**
 * The learned decision layer: a multinomial logistic regression over the features of features.ts that picks a
 * query's top-level ODP branch. Trained by `querymask kb train` on labelled queries (./fit.ts). The model file holds the weights of the feature names seen in training and the content hash of the
 * knowledge base whose features it was trained on (`snapshotContentHash`: its knowledge, not the code or paths
 * that built it); a model is refused for a knowledge base whose content differs.
 */
import type { Features } from "./features.ts";

/** The index of the largest of `x` (the first, on a tie). */
export function argmax(x: ArrayLike<number>): number {
  let best = 0;
  for (let c = 1; c < x.length; c++) if (x[c]! > x[best]!) best = c;
  return best;
}

/** The softmax of scores, as a new array. */
export function softmax(s: ArrayLike<number>): Float64Array {
  const out = new Float64Array(s.length);
  let m = Number.NEGATIVE_INFINITY;
  for (let c = 0; c < s.length; c++) m = Math.max(m, s[c]!);
  let z = 0;
  for (let c = 0; c < s.length; c++) z += out[c] = Math.exp(s[c]! - m);
  for (let c = 0; c < s.length; c++) out[c]! /= z;
  return out;
}

/** One labelled example: its features and the index of its class. */
export interface Example {
  readonly features: Features;
  readonly label: number;
  /** How much the example counts in training (default 1; e.g. < 1 for a pseudo-labelled one). */
  readonly weight?: number;
}

export interface TrainOptions {
  seed?: number;
  /** Passes over the data (default 12). */
  epochs?: number;
  /** AdaGrad base step (default 0.3). */
  rate?: number;
  /** L2 shrinkage per update of a weight (default 1e-2). */
  l2?: number;
  /**
   * The weights are the mean of their values at the end of the last `average` passes (default 1: the last
   * pass's): stochastic gradient leaves the weights wandering around their optimum, and the mean of several
   * passes wanders less.
   */
  average?: number;
  /** A feature seen in fewer examples is left out (default 2). */
  minCount?: number;
  /** Feature names never given weights (e.g. those that would spell out a whole training query). */
  exclude?: ReadonlySet<string>;
}

/** The model file's layout (JSON). */
export interface ModelFile {
  readonly format: "querymask-classifier-model";
  readonly version: 1;
  /** Fingerprint of the knowledge-base snapshot the features were computed with. */
  /** Content hash of the knowledge base the model was trained on (`snapshotContentHash`). */
  readonly kbFingerprint: string;
  readonly trainedOn: {
    readonly examples: number;
    readonly seed: number;
    /** The training options (without the excluded names, which would spell out the queries). */
    readonly options: Omit<TrainOptions, "exclude"> & {
      readonly excluded?: number;
      /** Self-training's settings and the number of pool queries, when it was used (self-training.ts). */
      readonly selfTraining?: {
        readonly threshold: number;
        readonly weight: number;
        readonly minUsers: number;
        readonly pool: number;
        readonly average?: number;
      };
    };
  };
  readonly classes: readonly string[];
  /** Weights × `SCALE`, rounded: per class, then per feature. */
  readonly bias: readonly number[];
  readonly weights: Readonly<Record<string, readonly number[]>>;
  /** Weights of the dense features × `SCALE`: per dimension, per class (empty without embeddings). */
  readonly dense: readonly (readonly number[])[];
  /** Where the dense features come from (`embeddingsSource()`), if any. */
  readonly embeddings?: string;
}

const SCALE = 1000;

export class LinearModel {
  private constructor(
    readonly classes: readonly string[],
    private readonly bias: Float64Array,
    private readonly weights: Map<string, Float64Array>,
    /** Dense weights, dimension-major (`d * classes + c`); length 0 = no dense features. */
    private readonly dense: Float64Array,
  ) {}

  /** Dimensions of the dense features the model was trained with (0 = none). */
  get denseDims(): number {
    return this.dense.length / this.classes.length;
  }

  /** Scores per class (unnormalized log-probabilities). */
  scores(f: Features, out: Float64Array = new Float64Array(this.classes.length)): Float64Array {
    out.set(this.bias);
    this.addWeights(f.names, f.values, out);
    if (f.dense !== undefined) this.addDense(f.dense, 1, out);
    return out;
  }

  /** Add the weighted named features into `out` (no bias). */
  addWeights(names: readonly string[], values: readonly number[], out: Float64Array): void {
    const k = this.classes.length;
    const rows = this.rows;
    if (rows !== undefined) {
      // A model read from a file: each feature's offset in one table (see `fromFile`).
      const m = this.table;
      for (let i = 0; i < names.length; i++) {
        const r = rows.get(names[i]!);
        if (r === undefined) continue;
        const v = values[i]!;
        for (let c = 0; c < k; c++) out[c]! += v * m[r + c]!;
      }
      return;
    }
    for (let i = 0; i < names.length; i++) {
      const w = this.weights.get(names[i]!);
      if (w === undefined) continue;
      const v = values[i]!;
      for (let c = 0; c < k; c++) out[c]! += v * w[c]!;
    }
  }

  /**
   * A model read from a file (no longer trained): every feature's weights side by side in one table, and each
   * feature's offset in it. Scoring a new word looks up ten or so features: an offset and a row of one table
   * cost a fraction of a typed array per feature, each its own allocation somewhere in memory.
   */
  private rows: Map<string, number> | undefined;
  private table: Float64Array = new Float64Array(0);

  /**
   * Add `scale` × the dense weights applied to `x` into `out`. The dense part is linear, so a caller may add the
   * projections of the words' vectors one by one and scale their sum at the end.
   */
  addDense(x: Float64Array, scale: number, out: Float64Array): void {
    const k = this.classes.length;
    const w = this.dense;
    if (w.length === 0) return;
    const n = x.length;
    for (let d = 0, o = 0; d < n; d++, o += k) {
      const v = x[d]! * scale;
      if (v === 0) continue;
      for (let c = 0; c < k; c++) out[c]! += v * w[o + c]!;
    }
  }

  /**
   * `addDense(x, 1, out)` as dot products per class over a class-major copy of the dense weights (about 10×
   * faster than the dimension-major loop; made on first use, so only for a model that is no longer trained).
   */
  projectDense(x: Float64Array, out: Float64Array): void {
    const k = this.classes.length;
    const dims = this.dense.length / k;
    if (dims === 0) return;
    const t = this.byClass();
    for (let c = 0, o = 0; c < k; c++) {
      let sum = 0;
      for (let d = 0; d < dims; d++, o++) sum += x[d]! * t[o]!;
      out[c]! += sum;
    }
  }

  /**
   * `projectDense` of the quantised vector `v[from, from + dims)` (a word's row of the word vectors), read in
   * place: the same products summed in the same order as over a copy of it in a Float64Array.
   */
  projectRow(v: Int8Array, from: number, out: Float64Array): void {
    const k = this.classes.length;
    const dims = this.dense.length / k;
    if (dims === 0) return;
    const t = this.byClass();
    // Four classes at a time: four sums, each still added in dimension order (so the same as one class at a
    // time, to the bit), run side by side instead of one long chain of dependent additions.
    let c = 0;
    for (; c + 4 <= k; c += 4) {
      const o0 = c * dims;
      const o1 = o0 + dims;
      const o2 = o1 + dims;
      const o3 = o2 + dims;
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      for (let d = 0; d < dims; d++) {
        const x = v[from + d]!;
        s0 += x * t[o0 + d]!;
        s1 += x * t[o1 + d]!;
        s2 += x * t[o2 + d]!;
        s3 += x * t[o3 + d]!;
      }
      out[c]! += s0;
      out[c + 1]! += s1;
      out[c + 2]! += s2;
      out[c + 3]! += s3;
    }
    for (; c < k; c++) {
      let sum = 0;
      for (let d = 0, o = c * dims; d < dims; d++, o++) sum += v[from + d]! * t[o]!;
      out[c]! += sum;
    }
  }

  private byClass(): Float64Array {
    let t = this.denseByClass;
    if (t === undefined) {
      const k = this.classes.length;
      const dims = this.dense.length / k;
      t = new Float64Array(this.dense.length);
      for (let d = 0; d < dims; d++) for (let c = 0; c < k; c++) t[c * dims + d] = this.dense[d * k + c]!;
      this.denseByClass = t;
    }
    return t;
  }

  private denseByClass: Float64Array | undefined;

  /** Index of the best class. */
  predict(f: Features): number {
    const s = this.scores(f);
    let best = 0;
    for (let c = 1; c < s.length; c++) if (s[c]! > s[best]!) best = c;
    return best;
  }

  /**
   * Every feature's weights side by side (`classes.length` values each) and each feature's offset in that table:
   * a file's own table, or for a trained model a copy of its weights as they are now (a scorer reads rows by
   * offset).
   */
  weightTable(): { readonly table: Float64Array; readonly rows: ReadonlyMap<string, number> } {
    if (this.rows === undefined) {
      const k = this.classes.length;
      const rows = new Map<string, number>();
      const table = new Float64Array(this.weights.size * k);
      let o = 0;
      for (const [n, w] of this.weights) {
        table.set(w, o);
        rows.set(n, o);
        o += k;
      }
      return { table, rows };
    }
    return { table: this.table, rows: this.rows };
  }

  /** The weights of a named feature (per class), or undefined when the model has none. */
  weightOf(name: string): Float64Array | undefined {
    return this.weights.get(name);
  }

  /** The names of the features with weights. */
  featureNames(): IterableIterator<string> {
    return this.weights.keys();
  }

  /** Set `out` to the biases. */
  setBias(out: Float64Array): void {
    out.set(this.bias);
  }

  /** Number of features with weights. */
  get size(): number {
    return this.weights.size;
  }

  /** A model of these weights (`fitLinearModel` in ./fit.ts trains one in place). */
  static of(
    classes: readonly string[],
    bias: Float64Array,
    weights: Map<string, Float64Array>,
    dense: Float64Array,
  ): LinearModel {
    return new LinearModel(classes, bias, weights, dense);
  }

  /** The model file's JSON object; weights rounded to 1/1000, features whose weights all round to 0 left out. */
  toFile(kbFingerprint: string, trainedOn: ModelFile["trainedOn"], embeddings?: string): ModelFile {
    const q = (w: Float64Array) => Array.from(w, (x) => Math.round(x * SCALE));
    const weights: Record<string, number[]> = {};
    for (const n of [...this.weights.keys()].sort()) {
      const w = q(this.weights.get(n)!);
      if (w.some((x) => x !== 0)) weights[n] = w;
    }
    return {
      format: "querymask-classifier-model",
      version: 1,
      kbFingerprint,
      trainedOn,
      classes: this.classes,
      bias: q(this.bias),
      weights,
      dense: Array.from({ length: this.denseDims }, (_, d) =>
        q(this.dense.subarray(d * this.classes.length, (d + 1) * this.classes.length)),
      ),
      ...(embeddings !== undefined ? { embeddings } : {}),
    };
  }

  /**
   * The model of a model file, refused (with what to do) when it is not one or was trained on another
   * knowledge-base snapshot than `kbFingerprint`.
   */
  static fromFile(file: ModelFile, kbFingerprint: string | undefined, source = "<model>"): LinearModel {
    if (file?.format !== "querymask-classifier-model" || file.version !== 1)
      throw new Error(`${source}: not a querymask classifier model (format/version)`);
    if (kbFingerprint !== undefined && file.kbFingerprint !== kbFingerprint)
      throw new Error(
        `${source}: the classifier model was trained on knowledge base ${file.kbFingerprint}, but the snapshot is ${kbFingerprint}; ` +
          "retrain it with `querymask kb train` (or classify without the model: --no-model)",
      );
    const k = file.classes.length;
    const vec = (w: readonly number[], what: string) => {
      if (w.length !== k) throw new Error(`${source}: ${what} has ${w.length} weights, expected ${k}`);
      return Float64Array.from(w, (x) => x / SCALE);
    };
    // Straight into one table (a typed array per feature, made and copied, cost most of the load).
    const names = Object.keys(file.weights);
    const table = new Float64Array(names.length * k);
    const rows = new Map<string, number>();
    const weights = new Map<string, Float64Array>();
    for (let i = 0, o = 0; i < names.length; i++, o += k) {
      const n = names[i]!;
      const w = file.weights[n]!;
      if (w.length !== k) throw new Error(`${source}: feature ${n} has ${w.length} weights, expected ${k}`);
      for (let c = 0; c < k; c++) table[o + c] = w[c]! / SCALE;
      rows.set(n, o);
      weights.set(n, table.subarray(o, o + k));
    }
    const dense = new Float64Array((file.dense ?? []).length * k);
    (file.dense ?? []).forEach((w, d) => {
      dense.set(vec(w, `dense dimension ${d}`), d * k);
    });
    const model = new LinearModel(file.classes, vec(file.bias, "bias"), weights, dense);
    model.rows = rows;
    model.table = table;
    return model;
  }
}
