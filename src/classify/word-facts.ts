/**
 * The facts of a word that Algorithm 1's steps ask for (stem, reference count, places, phrase bounds, spelling),
 * looked up once per word and knowledge base and then remembered, with the slots later steps fill on first use
 * (spelling recommendation, rule bits, lexeme, learned-layer part, split). Used by the units (units.ts), the
 * query rules, the placing of units and the classifier.
 */
import type { KnowledgeBase } from "../knowledge/knowledge-base.ts";
import { stem } from "../text/stem.ts";

/**
 * What the knowledge base says about one word, looked up once per word and then remembered: a query touches
 * each of its words several times (stem, references, phrase table, weak places), and a single map look-up per
 * word costs far less than one per question.
 */
export interface WordFacts {
  /** Porter stem. */
  readonly stem: string;
  /** `kb.termStats.count(stem)`. */
  readonly count: number | undefined;
  /** `kb.lookupStems([stem])`. */
  readonly ids: readonly number[] | undefined;
  /** `kb.isWeak([stem])`. */
  readonly weak: boolean;
  /** False when no phrase of two or more stems starts with `stem` (see `KnowledgeBase.startsPhrase`). */
  readonly starts: boolean;
  /** Most stems of a phrase starting with `stem` (see `KnowledgeBase.longestPhrase`): longer n-grams need no key. */
  readonly longest: number;
  /**
   * For a word that starts phrases: their second stems, each with the most stems of such a phrase (see
   * `KnowledgeBase.phraseSeconds`), so a pair that starts none needs no key; undefined = no bound.
   */
  readonly seconds: ReadonlyMap<string, number> | undefined;
  /** `kb.spelling.knows(word)`: a vocabulary word (the query rules and the speller both ask). */
  readonly known: boolean;
  /**
   * The classifier's spelling recommendation for the word, filled on first use: "" = keep the word, undefined
   * = not computed yet (kept here so that a word costs one look-up, see `Classifier.recommend`).
   */
  recommendation: string | undefined;
  /** The query rules' word-list bits for the word (see query-rules.ts), -1 = not computed yet. */
  ruleFlags: number;
  /** wink-nlp's lexeme index of the word, -1 = not known yet (kept for `analyzeWords`, see nlp.ts). */
  lexeme: number;
  /**
   * The learned layer's part of the scores for this word (see `LayerScorer.score`), filled on first use: its
   * offset in a table of word parts (-1 = not computed yet) and that table's token (a word's part depends on the
   * model and the word vectors, and a table starts over when full), and the word's number in the word vectors
   * (-1 = none): kept here so that a word costs one look-up.
   */
  partAt: number;
  partOf: object | undefined;
  vec: number;
  /**
   * The learned layer's pair features that start with this word, by second word (null = none), filled on first
   * use for the scorer whose token is `pairsOf` (see `QueryLevelScorer.pair`): kept here so that a word costs one
   * look-up.
   */
  pairs: ReadonlyMap<string, Float64Array> | null;
  pairsOf: object | undefined;
  /**
   * `kb.spelling.split(word)`, filled on first use (`splitOf`): null = no split, undefined = not computed yet.
   * The spelling recommendation, the fallback and site names all ask, and a split costs dozens of look-ups.
   */
  split: readonly string[] | null | undefined;
  /** How the word reads as a site's name beyond `split` (`siteSplitOf`), as `split`. */
  glued: readonly string[] | null | undefined;
}

const FACTS_LIMIT = 200_000;

/**
 * The memo of one knowledge base's word facts: an open-addressing table of (entry + 1, hash of the word) pairs
 * over arrays of the words and their facts. Every word of every query is looked up here, in a table the rest of
 * a classification has pushed out of the cache: a `Map` read a bucket, then an entry, then the key of each
 * entry of the chain (two per bucket when full) before the facts; this reads a slot that holds the hash, and
 * only the word whose hash matches (595,546 look-ups of the AOL subset's words, the cache evicted between
 * batches: ~115 → ~95 ms).
 */
class FactsMemo {
  private slots = new Int32Array(2 * 1024);
  private mask = 1023;
  private readonly words: string[] = [];
  private readonly facts: WordFacts[] = [];

  get size(): number {
    return this.words.length;
  }

  get(word: string): WordFacts | undefined {
    const h = hashOf(word);
    const slots = this.slots;
    for (let slot = h & this.mask; ; slot = (slot + 1) & this.mask) {
      const e = slots[2 * slot]!;
      if (e === 0) return undefined;
      if (slots[2 * slot + 1] === h && this.words[e - 1] === word) return this.facts[e - 1];
    }
  }

  /** Add a word not in the memo. */
  set(word: string, f: WordFacts): void {
    if (2 * (this.words.length + 1) > this.mask + 1) this.grow();
    this.words.push(word);
    this.facts.push(f);
    this.put(hashOf(word), this.words.length);
  }

  clear(): void {
    this.words.length = 0;
    this.facts.length = 0;
    this.slots = new Int32Array(2 * 1024);
    this.mask = 1023;
  }

  private put(h: number, entry: number): void {
    const slots = this.slots;
    let slot = h & this.mask;
    while (slots[2 * slot] !== 0) slot = (slot + 1) & this.mask;
    slots[2 * slot] = entry;
    slots[2 * slot + 1] = h;
  }

  private grow(): void {
    const size = 2 * (this.mask + 1);
    this.slots = new Int32Array(2 * size);
    this.mask = size - 1;
    for (let e = 0; e < this.words.length; e++) this.put(hashOf(this.words[e]!), e + 1);
  }
}

/** FNV-1a over the word's characters (the offset basis as an int32, as the other tables' hashes). */
function hashOf(word: string): number {
  let h = 0x811c9dc5 | 0;
  for (let k = 0; k < word.length; k++) h = Math.imul(h ^ word.charCodeAt(k), 0x01000193);
  return h;
}

const factsByKb = new WeakMap<KnowledgeBase, FactsMemo>();
let lastKb: KnowledgeBase | undefined;
let lastMemo: FactsMemo | undefined;

/** The facts of one word (memoized per knowledge base). */
export function wordFacts(kb: KnowledgeBase, word: string): WordFacts {
  // A query asks for its words' facts a dozen times, nearly always of the same knowledge base as last time.
  let memo = kb === lastKb ? lastMemo : factsByKb.get(kb);
  if (memo === undefined) {
    memo = new FactsMemo();
    factsByKb.set(kb, memo);
  }
  lastKb = kb;
  lastMemo = memo;
  let f = memo.get(word);
  if (f === undefined) {
    const s = stem(word);
    const one = [s];
    // A named individual sharing its stem with a common word has its own entry (`billings` vs `bill`).
    const own = kb.lookupWord?.(word);
    // One look-up answers both "does a phrase start here" and "how long can it be".
    const longest = kb.longestPhrase?.(s);
    f = {
      stem: s,
      count: kb.termStats.count(s),
      ids: own?.ids ?? kb.lookupStems(one),
      weak: own?.weak ?? kb.isWeak(one),
      starts: longest !== undefined ? longest >= 2 : (kb.startsPhrase?.(s) ?? true),
      longest: longest ?? Number.POSITIVE_INFINITY,
      seconds: longest !== undefined && longest >= 2 ? kb.phraseSeconds?.(s) : undefined,
      known: kb.spelling.knows(word),
      recommendation: undefined,
      ruleFlags: -1,
      lexeme: -1,
      partAt: -1,
      partOf: undefined,
      vec: -1,
      pairs: null,
      pairsOf: undefined,
      split: undefined,
      glued: undefined,
    };
    if (memo.size >= FACTS_LIMIT) memo.clear();
    memo.set(word, f);
  }
  return f;
}

/** `kb.spelling.split(word)` (the word run together from dictionary words), remembered with the word's facts. */
export function splitOf(
  kb: KnowledgeBase,
  word: string,
  facts: WordFacts = wordFacts(kb, word),
): readonly string[] | undefined {
  let s = facts.split;
  if (s === undefined) {
    s = kb.spelling.split(word) ?? null;
    facts.split = s;
  }
  return s ?? undefined;
}

/**
 * Estimated references of a phrase from its words' facts: exactly `kb.termStats.phraseCount(stems)` (same
 * operations in the same order), without looking the stems up again.
 */
export function phraseRefs(facts: readonly WordFacts[], documents: number): number {
  let p = 1;
  for (const f of facts) p *= (f.count ?? 1) / documents;
  return p * documents;
}

/**
 * How a site's name (`findmyfamily`, `cheapcarsforsale`) reads as words: `splitOf`, else the split that may also
 * hold function words (`kb.spelling.split(word, true)`), else a name of its own beside vocabulary words
 * (`bramworthcoffee`: `kb.spelling.splitAroundName`, for a name the web's term counts lack), remembered with the
 * word's facts.
 */
export function siteSplitOf(
  kb: KnowledgeBase,
  word: string,
  facts: WordFacts = wordFacts(kb, word),
): readonly string[] | undefined {
  const plain = splitOf(kb, word, facts);
  if (plain !== undefined) return plain;
  let s = facts.glued;
  if (s === undefined) {
    // A name the crawled pages hold as a term is a name in its own right, not a name and a word.
    s =
      kb.spelling.split(word, true) ??
      (facts.count === undefined ? kb.spelling.splitAroundName(word) : undefined) ??
      null;
    facts.glued = s;
  }
  return s ?? undefined;
}
