/**
 * The query-level part of the model's scores without building feature names: a `FeatureSink` that adds each
 * feature's weights to a score vector, with the weights of every (kind, key) remembered after the first look-up
 * by name, and word pairs looked up by their first word, then their second. Gives the same
 * scores as `model.scores(queryLevelFeatures(…))` (test/classify/model.test.ts checks the classifier's answers).
 * `WordScorer` does the same for a word's own features.
 */
import type { Taxonomy } from "../knowledge/taxonomy.ts";
import { isStopword } from "../text/stopwords.ts";
import type { FeatureSink } from "./features.ts";
import type { LinearModel } from "./model.ts";
import type { WordFacts } from "./word-facts.ts";

export class QueryLevelScorer implements FeatureSink {
  private readonly memo = new Map<string, Map<string | number, Float64Array | null>>();
  /** The model's pair features `b:first second`: their weights by first word, then by second. */
  private readonly pairs = new Map<string, Map<string, Float64Array>>();
  private out: Float64Array = new Float64Array(0);
  /** The facts of the words of the query being scored (`into`), when the caller has them. */
  private facts: readonly WordFacts[] | undefined;
  /** This scorer's mark on the words' facts whose `pairs` it filled (facts are shared by a KB's classifiers). */
  private readonly token = {};

  constructor(
    private readonly model: LinearModel,
    private readonly tax: Taxonomy,
  ) {
    for (const n of model.featureNames()) {
      if (!n.startsWith("b:")) continue;
      const space = n.indexOf(" ");
      const first = n.slice(2, space);
      let bySecond = this.pairs.get(first);
      if (bySecond === undefined) {
        bySecond = new Map();
        this.pairs.set(first, bySecond);
      }
      bySecond.set(n.slice(space + 1), model.weightOf(n)!);
    }
  }

  /**
   * Add the query-level features' weights (no bias) into `out` from now on; `facts`: those of the evidence's
   * words, in order, when the caller has them.
   */
  into(out: Float64Array, facts?: readonly WordFacts[]): this {
    this.out = out;
    this.facts = facts;
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

  /**
   * Looked up by the words themselves, the first word's pairs remembered with its facts: building the name
   * `b:first second` of every pair whose words both occur in some pair feature, and hashing it, was a twentieth
   * of a first pass over the AOL subset, and a look-up by the first word (in a map the rest of the query's work
   * has pushed out of the cache) still half of that. (A first word holds no space, as a name's first word is cut
   * at its first space: the same weights as by name.)
   */
  pair(first: string, second: string, at: number): void {
    const f = this.facts?.[at];
    let bySecond: ReadonlyMap<string, Float64Array> | null | undefined;
    if (f === undefined) bySecond = this.pairs.get(first);
    else {
      if (f.pairsOf !== this.token) {
        f.pairs = this.pairs.get(first) ?? null;
        f.pairsOf = this.token;
      }
      bySecond = f.pairs;
    }
    const w = bySecond?.get(second);
    if (w !== undefined) this.addVector(w, 1);
  }
}

/** Most word parts a table holds before it starts over (as many words as the memo of word facts keeps). */
const PARTS_LIMIT = 200_000;

/**
 * The words' parts of the learned layer's scores (`LayerScorer.score`, layer-scorer.ts), `width` values each, side by side in
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

/** A feature's weights, or null when the model has none. */
type Row = Float64Array | null;

/** Slots of the table of 4-grams (a power of two, at least twice the model's 4-grams). */
function gramSlots(grams: number): number {
  let size = 1024;
  while (size < 2 * grams) size *= 2;
  return size;
}

/**
 * One word's named features' weights (`wordFeatures`: `sw:`/`w:`, `wcat:`, the character 4-grams `c:`) added
 * into a score vector without building their names: words and stopwords are looked up as written, a first
 * branch by its taxonomy id, and a 4-gram of ASCII characters by its four codes packed in one number (a name
 * per 4-gram was a string built and hashed five or six times per new word). The same additions in the same
 * order as `model.addWeights` over `wordFeatures`' names and values (test/classify/model.test.ts compares them).
 * Rows are read by their offset in the model's table of weights, and the 4-grams found in an open-addressing
 * table of packed codes and offsets: a map of 4-grams to a typed array each cost a new word two or three more
 * cache misses per 4-gram (the map's bucket and entry, the array's header) on top of the row itself.
 */
export class WordScorer {
  private readonly table: Float64Array;
  private readonly k: number;
  /** Offsets of the `w:` and `sw:` rows by word. */
  private readonly words = new Map<string, number>();
  private readonly stopwords = new Map<string, number>();
  /** Per slot: the 4-gram's row offset + 1 (0 = empty slot), then its packed codes. */
  private readonly grams: Int32Array;
  private readonly gramMask: number;
  private readonly branches = new Map<number, Row>();
  private readonly noBranch: Row;

  constructor(
    private readonly model: LinearModel,
    private readonly tax: Taxonomy,
  ) {
    const { table, rows } = model.weightTable();
    this.table = table;
    this.k = model.classes.length;
    const packed: [number, number][] = [];
    for (const [n, o] of rows) {
      if (n.startsWith("w:")) this.words.set(n.slice(2), o);
      else if (n.startsWith("sw:")) this.stopwords.set(n.slice(3), o);
      else if (n.startsWith("c:") && n.length === 6) {
        const key = packGram(n, 2);
        if (key >= 0) packed.push([key, o]);
      }
    }
    const size = gramSlots(packed.length);
    this.gramMask = size - 1;
    this.grams = new Int32Array(2 * size);
    for (const [key, o] of packed) {
      let slot = gramHash(key) & this.gramMask;
      while (this.grams[2 * slot] !== 0 && this.grams[2 * slot + 1] !== key)
        slot = (slot + 1) & this.gramMask;
      this.grams[2 * slot] = o + 1;
      this.grams[2 * slot + 1] = key;
    }
    this.noBranch = model.weightOf("wcat:none") ?? null;
  }

  /** Add the weights of `wordFeatures(w, ids, …)` into `out`. */
  add(w: string, ids: readonly number[] | undefined, out: Float64Array): void {
    if (!CONTENT.test(w)) return;
    if (isStopword(w)) {
      this.addAt(out, this.stopwords.get(w) ?? -1, 1);
      return;
    }
    this.addAt(out, this.words.get(w) ?? -1, 1);
    addRow(
      out,
      ids !== undefined && ids.length > 0 ? this.branch(this.tax.ancestorAt(ids[0]!, 1)) : this.noBranch,
      1,
    );
    // The 4-grams of `^w$`, packed as the model's `c:` names are; a window with a non-ASCII character by name.
    const marked = `^${w}$`;
    for (let k = 0; k + 4 <= marked.length; k++) {
      const key = packGram(marked, k);
      if (key >= 0) this.addAt(out, this.gramRow(key), 0.5);
      else addRow(out, this.model.weightOf(`c:${marked.slice(k, k + 4)}`) ?? null, 0.5);
    }
  }

  /** The offset of the row of the packed 4-gram `key`, or -1 when the model has none. */
  private gramRow(key: number): number {
    const g = this.grams;
    for (let slot = gramHash(key) & this.gramMask; ; slot = (slot + 1) & this.gramMask) {
      const o = g[2 * slot]!;
      if (o === 0) return -1;
      if (g[2 * slot + 1] === key) return o - 1;
    }
  }

  /** `addRow` of the table's row at offset `o` (none when -1). */
  private addAt(out: Float64Array, o: number, value: number): void {
    if (o < 0) return;
    const t = this.table;
    for (let c = 0; c < this.k; c++) out[c]! += value * t[o + c]!;
  }

  private branch(top: number): Row {
    let w = this.branches.get(top);
    if (w === undefined) {
      w = this.model.weightOf(`wcat:${this.tax.label(top)}`) ?? null;
      this.branches.set(top, w);
    }
    return w;
  }
}

/** A packed 4-gram's slot hash (murmur3's finalizer: the packed codes' low bits are the last character's). */
function gramHash(key: number): number {
  let h = key;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h;
}

/** What `wordFeatures` asks of a word before giving it features. */
const CONTENT = /[a-z0-9]/;

/** The four characters of `s` from `at`, seven bits each (the first in the high bits); -1 if one is not ASCII. */
function packGram(s: string, at: number): number {
  let key = 0;
  for (let j = 0; j < 4; j++) {
    const c = s.charCodeAt(at + j);
    if (c >= 128) return -1;
    key = (key << 7) | c;
  }
  return key;
}

function addRow(out: Float64Array, w: Row, value: number): void {
  if (w === null) return;
  for (let c = 0; c < w.length; c++) out[c]! += value * w[c]!;
}
