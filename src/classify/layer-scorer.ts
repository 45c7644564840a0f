/**
 * The learned layer's scores of one analysed query (the classifier's hot path): `model.scores(queryFeatures(…))`
 * without building the features' names. The query-level features go through `QueryLevelScorer`; each word's part
 * (its named features' scores, the projection of its vector) is computed once into a table of word parts and its
 * offset remembered with the word's facts (one table per scorer: the part depends on the model and the word
 * vectors, and the facts are shared by the knowledge base's classifiers). test/classify/model.test.ts holds it to
 * the model's own answer on the full features.
 */
import type { Embeddings } from "../knowledge/embeddings.ts";
import type { Taxonomy } from "../knowledge/taxonomy.ts";
import { isStopword } from "../text/stopwords.ts";
import { DENSE_LENGTH, type QueryLevel, queryLevelInto } from "./features.ts";
import type { LinearModel } from "./model.ts";
import { QueryLevelScorer, WordParts, WordScorer } from "./scoring.ts";
import type { WordFacts } from "./word-facts.ts";

const EMB_NONE = ["emb:none"];
const ONE = [1];

export class LayerScorer {
  /** The table of the words' parts of the scores, `2 × classes` values each. */
  private readonly parts: WordParts;
  /** Scratch of `wordPart`: one word's part, and its second half (the projection of the word's vector). */
  private readonly partScratch: Float64Array;
  private readonly denseHalf: Float64Array;
  private readonly scoreScratch: Float64Array;
  private readonly queryScorer: QueryLevelScorer;
  private readonly wordScorer: WordScorer;
  /** Scratch of `score`: the sum of the words' vectors, and the sum of their projections. */
  private readonly denseScratch: Float64Array;
  private readonly projScratch: Float64Array;

  constructor(
    private readonly model: LinearModel,
    private readonly tax: Taxonomy,
    private readonly embeddings: Embeddings | undefined,
  ) {
    const k = model.classes.length;
    this.scoreScratch = new Float64Array(k);
    this.queryScorer = new QueryLevelScorer(model, tax);
    this.wordScorer = new WordScorer(model, tax);
    this.projScratch = new Float64Array(k);
    this.denseScratch = new Float64Array(embeddings?.dims ?? 0);
    this.parts = new WordParts(2 * k);
    this.partScratch = new Float64Array(2 * k);
    this.denseHalf = this.partScratch.subarray(k);
  }

  /**
   * The model's scores of a query whose query-level evidence is `ev` and whose words' facts are `facts` (in the
   * order of `ev.words`); `known`: Algorithm 1 has an answer for it. Undefined when neither Algorithm 1 nor the
   * word vectors know anything of the query. The array is scratch: read it before the next call.
   */
  score(ev: QueryLevel, facts: readonly WordFacts[], known: boolean): Float64Array | undefined {
    const model = this.model;
    const emb = this.embeddings;
    const k = model.classes.length;
    const s = this.scoreScratch;
    model.setBias(s);
    queryLevelInto(ev, this.tax, this.queryScorer.into(s, facts));
    const acc = emb === undefined ? undefined : this.denseScratch.fill(0);
    const proj = this.projScratch.fill(0);
    const parts = this.parts;
    let found = 0;
    for (let i = 0; i < ev.words.length; i++) {
      const f = facts[i]!;
      if (f.partOf !== parts.token) {
        f.partAt = this.wordPart(ev.words[i]!, f);
        f.partOf = parts.token;
      }
      const ps = parts.values;
      const o = f.partAt;
      for (let c = 0; c < k; c++) s[c]! += ps[o + c]!;
      if (f.vec >= 0 && acc !== undefined) {
        emb!.addIndex(f.vec, acc);
        for (let c = 0; c < k; c++) proj[c]! += ps[o + k + c]!;
        found++;
      }
    }
    if (acc === undefined) return known ? s : undefined;
    let norm = 0;
    for (let d = 0; d < acc.length; d++) norm += acc[d]! * acc[d]!;
    if (found > 0 && norm > 0) {
      const scale = DENSE_LENGTH / Math.sqrt(norm);
      for (let c = 0; c < k; c++) s[c]! += proj[c]! * scale;
      return s;
    }
    if (!known) return undefined;
    model.addWeights(EMB_NONE, ONE, s);
    return s;
  }

  /**
   * A word's part of the scores, into a new entry of the table of word parts: its named features' scores, then
   * the projection of its vector; sets the word's vector number and returns the entry's offset. (A method of its
   * own, as are the other steps taken once per word or rarely: the hot methods stay small, and V8 recompiles them
   * several times over a log's first queries.)
   */
  private wordPart(w: string, f: WordFacts): number {
    const emb = this.embeddings;
    const scores = this.partScratch.fill(0);
    this.wordScorer.add(w, f.ids, scores);
    const vec = emb !== undefined && !isStopword(w) ? emb.find(w) : -1;
    if (vec >= 0) this.model.projectRow(emb!.vectors, vec * emb!.dims, this.denseHalf);
    f.vec = vec;
    const at = this.parts.add();
    this.parts.values.set(scores, at);
    return at;
  }
}
