/**
 * The query-level part of the model's scores without building feature names: a `FeatureSink` that adds each
 * feature's weights to a score vector, with the weights of every (kind, key) remembered after the first look-up
 * by name, and word pairs looked up only when both words occur in some pair feature of the model. Gives the same
 * scores as `model.scores(queryLevelFeatures(…))` (test/classify/model.test.ts checks the classifier's answers).
 */
import type { Taxonomy } from "../knowledge/taxonomy.ts";
import type { FeatureSink } from "./features.ts";
import type { LinearModel } from "./model.ts";

export class QueryLevelScorer implements FeatureSink {
  private readonly memo = new Map<string, Map<string | number, Float64Array | null>>();
  private readonly firsts = new Set<string>();
  private readonly seconds = new Set<string>();
  private out: Float64Array = new Float64Array(0);

  constructor(
    private readonly model: LinearModel,
    private readonly tax: Taxonomy,
  ) {
    for (const n of model.featureNames()) {
      if (!n.startsWith("b:")) continue;
      const space = n.indexOf(" ");
      this.firsts.add(n.slice(2, space));
      this.seconds.add(n.slice(space + 1));
    }
  }

  /** Add the query-level features' weights (no bias) into `out` from now on. */
  into(out: Float64Array): this {
    this.out = out;
    return this;
  }

  private addVector(w: Float64Array | null, value: number): void {
    if (w === null) return;
    const out = this.out;
    for (let c = 0; c < w.length; c++) out[c]! += value * w[c]!;
  }

  /**
   * The weights of feature `kind:key`, remembered per (kind, key); the name is built only on the first look-up
   * (`top` ≥ 0: a branch feature, named by the branch's label). No closure per call: this runs for every
   * query-level feature of every query.
   */
  private weights(kind: string, key: string | number, top: number): Float64Array | null {
    let byKey = this.memo.get(kind);
    if (byKey === undefined) {
      byKey = new Map();
      this.memo.set(kind, byKey);
    }
    let w = byKey.get(key);
    if (w === undefined) {
      w = this.model.weightOf(top >= 0 ? `${kind}:${this.tax.label(top)}` : `${kind}:${key}`) ?? null;
      byKey.set(key, w);
    }
    return w;
  }

  branch(kind: string, top: number, value: number): void {
    this.addVector(this.weights(kind, top, top), value);
  }

  keyed(kind: string, key: string | number, value: number): void {
    this.addVector(this.weights(kind, key, -1), value);
  }

  pair(first: string, second: string): void {
    if (!this.firsts.has(first) || !this.seconds.has(second)) return;
    this.addVector(this.model.weightOf(`b:${first} ${second}`) ?? null, 1);
  }
}

/** Most word parts a table holds before it starts over (as many words as the memo of word facts keeps). */
const PARTS_LIMIT = 200_000;

/**
 * The words' parts of the learned layer's scores (`Classifier.scoreQuery`), `width` values each, side by side in
 * one table: a word's facts keep its offset (`WordFacts.partAt`) and the table's token of the time. A typed
 * array per word cost a buffer allocation per new word (4–17 µs in a classification's heap) and put the parts a
 * query reads all over memory. Full at `limit` parts, the table starts over under a new token (the parts
 * it held are computed again when next met).
 */
export class WordParts {
  values: Float64Array;
  token: object = {};
  private used = 0;

  constructor(
    readonly width: number,
    private readonly limit = PARTS_LIMIT,
  ) {
    this.values = new Float64Array(width * Math.min(1024, limit));
  }

  /** The offset of a new part, to be written in `values` (which may be a new, larger array after this). */
  add(): number {
    if (this.used === this.limit) {
      this.used = 0;
      this.token = {};
    }
    const at = this.used++ * this.width;
    if (at + this.width > this.values.length) {
      const grown = new Float64Array(Math.min(2 * this.values.length, this.limit * this.width));
      grown.set(this.values);
      this.values = grown;
    }
    return at;
  }
}
