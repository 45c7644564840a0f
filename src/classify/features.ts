/**
 * Features of one query for the learned decision layer (model.ts), read off what Algorithm 1 already computed:
 * the candidate categories of each semantic unit with their specificity and weakness, the query rules' answer,
 * the rule-based answer itself, the single words' candidates, the words and their character n-grams, and the
 * kinds of identifier the scrubber removed, and the mean word vector of the content words (embeddings.ts).
 * Features are names with values, plus that dense vector; the model keeps a weight vector per name it saw in
 * training and ignores the others.
 */
import type { Embeddings } from "../knowledge/embeddings.ts";
import type { Taxonomy } from "../knowledge/taxonomy.ts";
import type { PiiSpan } from "../scrub/types.ts";
import { isStopword } from "../text/stopwords.ts";

/** A unit the knowledge base placed: its candidate categories (best first), vote weight and weakness. */
export interface PlacedUnit {
  readonly ids: readonly number[];
  /** The category the vote uses (usually `ids[0]`). */
  readonly id: number;
  /** Specificity vote, `1 + log(N / refs)`, a tenth for weak and facet units. */
  readonly w: number;
  readonly weak: boolean;
}

/** What Algorithm 1 found for a query, as the features read it. */
export interface Evidence {
  readonly placed: readonly PlacedUnit[];
  /** The query rules' answer (World, Adult, sites, …), if one applied. */
  readonly ruled: number | undefined;
  /** The rule-based classifier's final answer. */
  readonly base: number | undefined;
  /** The words after scrubbing and spelling recommendation. */
  readonly words: readonly string[];
  /** Each word's own candidate categories (undefined = none). */
  readonly wordIds: readonly (readonly number[] | undefined)[];
  readonly spans: readonly PiiSpan[];
}

/** Feature names and values, in parallel, and the dense part (undefined when no word has a vector). */
export interface Features {
  readonly names: string[];
  readonly values: number[];
  readonly dense?: Float64Array | undefined;
}

/**
 * Length of the dense vector (the mean word vector scaled to this length): chosen by 5-fold cross-validation on
 * the training queries among 1, 3, 6, 10, 20, 40 (with the model's shrinkage, a longer vector is a weaker prior
 * on its weights).
 */
export const DENSE_LENGTH = 10;

/** How many of a unit's candidate categories give features (best first). */
const CANDIDATES = 3;

/**
 * The features of a query: those of the query as a whole (`queryLevelFeatures`) and of each of its words
 * (`wordFeatures`).
 */
export function queryFeatures(ev: Evidence, tax: Taxonomy, emb?: Embeddings): Features {
  const f = queryLevelFeatures(ev, tax, emb);
  for (let i = 0; i < ev.words.length; i++) wordFeatures(ev.words[i]!, ev.wordIds[i], tax, f.names, f.values);
  return f;
}

/** True for a word that is neither a function word nor punctuation (it gets `w:`, `wcat:`, `c:` features). */
export function isContentWord(w: string): boolean {
  return /[a-z0-9]/.test(w) && !isStopword(w);
}

/**
 * The features of one word of a query: a function word itself; a content word, its first candidate branch and
 * its character 4-grams. The same word always has the same ones, so a caller may remember what they score.
 */
export function wordFeatures(
  w: string,
  ids: readonly number[] | undefined,
  tax: Taxonomy,
  names: string[],
  values: number[],
): void {
  if (!/[a-z0-9]/.test(w)) return;
  if (isStopword(w)) {
    names.push(`sw:${w}`);
    values.push(1);
    return;
  }
  names.push(`w:${w}`);
  values.push(1);
  names.push(
    ids !== undefined && ids.length > 0 ? `wcat:${tax.label(tax.ancestorAt(ids[0]!, 1))}` : "wcat:none",
  );
  values.push(1);
  const g = `^${w}$`;
  for (let k = 0; k + 4 <= g.length; k++) {
    names.push(`c:${g.slice(k, k + 4)}`);
    values.push(0.5);
  }
}

/**
 * Where the query-level features go: `queryLevelFeatures` writes them as names (`kind:key`, for training and
 * the model file), the classifier's scorer adds their weights without building the names (scoring.ts).
 */
export interface FeatureSink {
  /** A feature of a top-level branch: `kind:<label of the branch of id top>`. */
  branch(kind: string, top: number, value: number): void;
  /** A feature with a key: `kind:key`. */
  keyed(kind: string, key: string | number, value: number): void;
  /** A pair of adjacent words: `b:first second`; `at`, the first word's index in the evidence's words. */
  pair(first: string, second: string, at: number): void;
}

/** What the query-level features read of the evidence (not the words' own candidates). */
export type QueryLevel = Omit<Evidence, "wordIds">;

/**
 * Scratch of `queryLevelInto` (the branches voted for, their votes, a unit's candidate branches so far), filled
 * from the start by each call: three arrays per query, and a reallocation of the third per unit, were a tenth of
 * what a classification allocated. Only `queryLevelInto` uses them, and only until it returns.
 */
const voteTops: number[] = [];
const voteSums: number[] = [];
const seenTops: number[] = [];

/**
 * The features of the query as a whole, into `sink`: Algorithm 1's answer, the rules', the units' candidates
 * and votes, the word pairs, the number of units and of content words, the identifier kinds.
 */
export function queryLevelInto(ev: QueryLevel, tax: Taxonomy, sink: FeatureSink): void {
  if (ev.base === undefined) sink.keyed("base", "none", 1);
  else sink.branch("base", tax.ancestorAt(ev.base, 1), 1);
  if (ev.ruled !== undefined) sink.branch("rule", tax.ancestorAt(ev.ruled, 1), 1);
  // The vote, per branch, relative to the largest (the winner has 1), and each unit's candidates by rank.
  const tops = voteTops;
  const votes = voteSums;
  const seen = seenTops;
  let branches = 0;
  for (let u = 0; u < ev.placed.length; u++) {
    const p = ev.placed[u]!;
    const t = tax.ancestorAt(p.id, 1);
    let at = 0;
    while (at < branches && tops[at] !== t) at++;
    if (at === branches) {
      tops[branches] = t;
      votes[branches++] = p.w;
    } else votes[at]! += p.w;
    let seens = 0;
    for (let r = 0; r < p.ids.length && r < CANDIDATES; r++) {
      const c = tax.ancestorAt(p.ids[r]!, 1);
      let k = 0;
      while (k < seens && seen[k] !== c) k++;
      if (k < seens) continue;
      seen[seens++] = c;
      sink.branch(p.weak ? (r === 0 ? "weak1" : "weakn") : r === 0 ? "unit1" : "unitn", c, 1);
    }
  }
  let best = 0;
  for (let i = 0; i < branches; i++) best = Math.max(best, votes[i]!);
  for (let i = 0; i < branches; i++) sink.branch("vote", tops[i]!, votes[i]! / best);
  sink.keyed("units", Math.min(ev.placed.length, 3), 1);
  const words = ev.words;
  let content = 0;
  for (const w of words) if (isContentWord(w)) content++;
  for (let i = 0; i + 1 < words.length; i++) sink.pair(words[i]!, words[i + 1]!, i);
  sink.keyed("len", Math.min(content, 4), 1);
  for (const s of ev.spans) sink.keyed("pii", s.type, 1);
}

/**
 * The features of the query as a whole as names (`queryLevelInto`); with `emb`, also the mean word vector of
 * the content words (or `emb:none` when no word has one).
 */
export function queryLevelFeatures(ev: Evidence, tax: Taxonomy, emb?: Embeddings): Features {
  const names: string[] = [];
  const values: number[] = [];
  const add = (name: string, value: number) => {
    names.push(name);
    values.push(value);
  };
  queryLevelInto(ev, tax, {
    branch: (kind, top, value) => add(`${kind}:${tax.label(top)}`, value),
    keyed: (kind, key, value) => add(`${kind}:${key}`, value),
    pair: (first, second) => add(`b:${first} ${second}`, 1),
  });
  const words = ev.words;
  const add1 = (name: string) => add(name, 1);
  let dense: Float64Array | undefined;
  if (emb !== undefined) {
    const acc = new Float64Array(emb.dims);
    let found = 0;
    for (const w of words) if (!isStopword(w) && emb.addTo(w, acc)) found++;
    let norm = 0;
    for (let d = 0; d < acc.length; d++) norm += acc[d]! * acc[d]!;
    if (found > 0 && norm > 0) {
      const k = DENSE_LENGTH / Math.sqrt(norm);
      for (let d = 0; d < acc.length; d++) acc[d]! *= k;
      dense = acc;
    } else add1("emb:none");
  }
  return { names, values, dense };
}
