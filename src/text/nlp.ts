/**
 * Tokens, part-of-speech tags and lemmas of a query, from wink-nlp with its English light model (both MIT).
 * Chosen over compromise for speed on short texts (~80k queries/s for POS + lemma on one core) with good tags
 * on lower-case query text. Only the POS pipe is enabled: queries have no sentences or entities worth parsing.
 *
 * The model is loaded once, lazily, on the first call.
 *
 * The document is read by `readTagged` below, wink-nlp's own `readDoc` steps for the "pos" pipe (tokenize, map
 * tokens, POS automata, POS setter) called on its modules, without the document object `readDoc` wraps the
 * result in: that object is some 50 closures per query plus a token collection per `out()`, ~2 µs of the ~8 µs
 * that wink took per query (measured on the AOL subset's distinct queries), most of it garbage. Values, tags and
 * lemmas are read with wink's own `its` functions from the same raw document data, so they are the same.
 * This reads wink-nlp's internal modules, so package.json pins wink-nlp and its model to exact versions, and
 * test/text/text.test.ts compares `analyze` with the public `readDoc`: an upgrade that changes either fails it.
 */

import { createRequire } from "node:module";
import type { PartOfSpeech } from "wink-nlp";
import { emptyList } from "../util/elements.ts";

/** One analysed word of a query. */
export interface Token {
  /** The word as written (lower-cased). */
  readonly text: string;
  /** Dictionary form from wink-nlp (`players` → `player`, `shows` → `show`). */
  readonly lemma: string;
  readonly pos: PartOfSpeech;
}

/**
 * wink-nlp's raw document data (`rdd` in its sources), as far as the "pos" pipe's steps and the `its` functions
 * used here read or write it.
 */
interface RawDoc {
  cache: unknown;
  tokens: number[];
  nonBreakingSpaces: Record<number, string>;
  numOfTokens: number;
}

type ItsFn = (index: number, rdd: RawDoc, addons?: unknown) => string;
interface Automaton {
  importJSON(json: unknown): void;
  recognize(tags: number[], transformer: unknown, tokens: number[]): unknown;
}
interface WinkCache {
  value(index: number): string;
  /** The lexeme index of `text` (one element), its contraction's expansions (four each), or null if unknown. */
  lookup(text: string): unknown[] | null;
  /** Add a lexeme for `text` (or find the one it has); returns its index. */
  add(text: string, category: number): number;
  /** Lexemes of the model; those the cache added for words it met later are numbered from here. */
  intrinsicSize(): number;
}

/** A word's slot for its wink lexeme index, kept by the caller (see {@link analyzeWords}); -1 = not known. */
export interface LexemeSlot {
  lexeme: number;
}

interface Engine {
  /** `words`/`slots`: the text's words when the caller has them split, with their lexeme slots. */
  readTagged(text: string, words?: readonly string[], slots?: readonly LexemeSlot[]): RawDoc;
  value: ItsFn;
  pos: ItsFn;
  lemma: ItsFn;
  addons: unknown;
}

let engine: Engine | undefined;

/**
 * wink-nlp's `nlp(model, ["pos"])` set-up and `readDoc` (src/wink-nlp.js, version 2.4), reduced to the steps
 * the "pos" pipe runs: the same modules called in the same order with the same arguments.
 */
function load(): Engine {
  if (engine !== undefined) return engine;
  const require = createRequire(import.meta.url);
  const src = (m: string) => require(`wink-nlp/src/${m}`);
  const DocDataWrapper = src("dd-wrapper.js") as (rdd: RawDoc) => { clean(): void };
  const Cache = src("cache.js") as (core: unknown, featureFn: unknown) => WinkCache;
  const tokenizer = src("tokenizer.js") as (
    trex: unknown,
    categories: unknown,
    preserve: unknown,
  ) => (doc: unknown, text: string) => void;
  const compileTRex = src("compile-trex.js") as (trex: unknown) => unknown;
  const mappers = src("tokens-mappers.js") as Record<string, (rdd: RawDoc) => number[]>;
  const its = src("its.js") as Record<string, ItsFn>;
  const constants = src("constants.js") as { tkSize: number; bits4lemma: number };
  const fsm = src("automaton.js") as (cache: unknown, token2Ignore?: string) => Automaton;
  // Required here, not imported: the model takes ~100 ms to load, and only the first call needs it.
  const m = require("wink-eng-lite-web-model") as unknown as {
    core(): { trex: unknown; tcat: { hash: unknown }; preserve: unknown };
    pos(): {
      machines: unknown[];
      transformers: unknown[];
      setter(rdd: RawDoc, tags: number[], tkSize: number, bits4lemma: number): void;
      updater(px: unknown, cache: unknown, tags: number[], normals: number[]): void;
    };
    featureFn: unknown;
    addons: unknown;
  };
  const core = m.core();
  const cache = Cache(core, m.featureFn);
  const tokenizeAny = tokenizer(compileTRex(core.trex), core.tcat.hash, core.preserve);
  // wink's lexicon grows with every word it has not met (`q.x` in `q.x zorblax`), and its tokenizer splits a word
  // differently once a part of it is a lexeme (`q.x.` whole in a fresh process, `q.x` + `.` after that query): the
  // tokens of a query would depend on the queries read before it. So while tokenizing, the cache answers for the
  // model's own lexemes only, as in a fresh process (but not to the feature functions of a lexeme it adds, which
  // look the new lexeme up); the document's tokens still point to the lexemes added.
  const lookup = cache.lookup;
  const add = cache.add;
  const intrinsic = cache.intrinsicSize();
  let tokenizing = false;
  cache.lookup = (text) => {
    const found = lookup(text);
    return tokenizing && found !== null && found.length === 1 && (found[0] as number) >= intrinsic
      ? null
      : found;
  };
  cache.add = (text, category) => {
    const was = tokenizing;
    tokenizing = false;
    try {
      return add(text, category);
    } finally {
      tokenizing = was;
    }
  };
  const tokenize = (doc: unknown, text: string) => {
    tokenizing = true;
    try {
      tokenizeAny(doc, text);
    } finally {
      tokenizing = false;
    }
  };
  const posModel = m.pos();
  const automata = posModel.machines.map((json) => {
    const a = fsm(cache, cache.value(0));
    a.importJSON(json);
    return a;
  });
  const { tkSize, bits4lemma } = constants;
  // One document record and one wrapper serve every query (wink makes both, a dictionary-mode object and four
  // closures, per document; ~0.75 KB of the ~11 KB a classification allocated): the wrapper holds the token
  // array, which is emptied for each query. The steps read nothing else of the record (see RawDoc).
  const rdd: RawDoc = { cache, tokens: [], nonBreakingSpaces: Object.create(null), numOfTokens: 0 };
  const wrapped = DocDataWrapper(rdd);
  const byWord = wordTokenizer(rdd, cache, (word) => tokenize(wrapped, word));
  const readTagged = (text: string, words?: readonly string[], slots?: readonly LexemeSlot[]): RawDoc => {
    rdd.tokens.length = 0;
    // Written only for non-breaking spaces: a fresh record for them after a query that had some.
    for (const _ in rdd.nonBreakingSpaces) {
      rdd.nonBreakingSpaces = Object.create(null);
      break;
    }
    if (!SINGLE_SPACED.test(text)) tokenize(wrapped, text);
    else if (words !== undefined && slots !== undefined) byWord.words(words, slots);
    else byWord.text(text);
    rdd.numOfTokens = rdd.tokens.length / tkSize;
    const normals = mappers.mapRawTokens2UIdOfNormal!(rdd);
    const tags = mappers.mapRawTokens2UIdOfDefaultPOS!(rdd);
    // wink-nlp passes the first machine's transformers to every machine; so do we.
    for (const a of automata)
      posModel.updater(a.recognize(tags, posModel.transformers[0], rdd.tokens), cache, tags, normals);
    posModel.setter(rdd, tags, tkSize, bits4lemma);
    return rdd;
  };
  engine = { readTagged, value: its.value!, pos: its.pos!, lemma: its.lemma!, addons: m.addons };
  return engine;
}

/** Words separated by single ASCII spaces, no other white space (wink splits only at white space). */
const SINGLE_SPACED = /^\S+(?: \S+)*$/;
const KNOWN_LIMIT = 200_000;

/**
 * wink's tokenizer for single-spaced text, word by word: wink's own `tokenize` splits the text at white space
 * with a regular expression and handles each word on its own (only the count of spaces before it carries over,
 * into its first token), looking the word up in its lexicon first — a property look-up on a large dictionary
 * object, a test for non-breaking spaces by regular expression per word, ~2 µs per query of the ~5 µs analysis.
 * Here a word wink's lexicon holds whole (as one lexeme, not a contraction) is remembered with its lexeme index
 * and pushed as wink pushes it, `(index, spaces before, 0, 0)`; any other word goes through wink's `tokenize`
 * alone, and its first token gets the space before it. wink's lexicon only grows, so a remembered word stays
 * what wink would find.
 */
function wordTokenizer(
  rdd: RawDoc,
  cache: WinkCache,
  tokenizeOne: (word: string) => void,
): { text(text: string): void; words(words: readonly string[], slots: readonly LexemeSlot[]): void } {
  const known = new Map<string, number>();
  /** One word with `spaces` before it: its remembered index, else through wink (and remembered if whole). */
  const push = (word: string, spaces: number): number => {
    const tokens = rdd.tokens;
    let index = known.get(word);
    if (index !== undefined) {
      tokens.push(index, spaces, 0, 0);
      return index;
    }
    const at = tokens.length;
    tokenizeOne(word);
    // (spaces before the first token are in its low bits, under a contraction's pointer when it is one)
    if (tokens.length > at) tokens[at + 1]! |= spaces;
    const found = cache.lookup(word);
    if (found === null || found.length !== 1 || typeof found[0] !== "number" || found[0] < 0) return -1;
    index = found[0];
    if (known.size >= KNOWN_LIMIT) known.clear();
    known.set(word, index);
    return index;
  };
  return {
    text(text) {
      let from = 0;
      for (let spaces = 0; from <= text.length; spaces = 1) {
        let to = text.indexOf(" ", from);
        if (to < 0) to = text.length;
        push(text.slice(from, to), spaces);
        from = to + 1;
      }
    },
    // The caller's slot answers without a look-up here (the caller has already looked the word up for its
    // own purposes, and a map look-up per word and question is most of what is left of tokenizing).
    words(words, slots) {
      const tokens = rdd.tokens;
      for (let k = 0; k < words.length; k++) {
        const slot = slots[k]!;
        if (slot.lexeme >= 0) tokens.push(slot.lexeme, k === 0 ? 0 : 1, 0, 0);
        else slot.lexeme = push(words[k]!, k === 0 ? 0 : 1);
      }
    },
  };
}

/**
 * The lemmas of one analysed query, read from wink-nlp only when a token's lemma is first asked for (from a copy
 * of the query's raw tokens: the document record is reused by the next query).
 */
class Lemmas {
  private values: string[] | undefined;

  constructor(private readonly rdd: RawDoc) {}

  at(i: number): string | undefined {
    if (this.values === undefined) {
      const { lemma, addons } = load();
      this.values = [];
      for (let k = 0; k < this.rdd.numOfTokens; k++) this.values.push(lemma(k, this.rdd, addons));
    }
    return this.values[i];
  }
}

/** A token whose lemma is computed lazily: most callers only need text and tag. */
class AnalyzedToken implements Token {
  constructor(
    readonly text: string,
    readonly pos: PartOfSpeech,
    private readonly lemmas: Lemmas,
    private readonly index: number,
  ) {}

  get lemma(): string {
    return (this.lemmas.at(this.index) ?? this.text).toLowerCase();
  }
}

/** Tokenize, tag and lemmatize a query. Whitespace and punctuation tokens are dropped. */
export function analyze(query: string): Token[] {
  return tagged(load().readTagged(query.toLowerCase()));
}

/**
 * `analyze(text)` for lower-case text that is `words` joined by single spaces, each word with a slot the caller
 * keeps for it (a field of its own per-word record): the slot remembers the word's wink lexeme index, so a word
 * seen before needs no look-up here. Same tokens as `analyze(text)`.
 */
export function analyzeWords(text: string, words: readonly string[], slots: readonly LexemeSlot[]): Token[] {
  const lower = text.toLowerCase();
  return tagged(lower === text ? load().readTagged(text, words, slots) : load().readTagged(lower));
}

/** The tokens of a document `readTagged` has just read. */
function tagged(rdd: RawDoc): Token[] {
  const { value, pos } = load();
  const lemmas = new Lemmas({
    cache: rdd.cache,
    tokens: rdd.tokens.slice(),
    nonBreakingSpaces: rdd.nonBreakingSpaces,
    numOfTokens: rdd.numOfTokens,
  });
  const out = emptyList<Token>();
  for (let i = 0; i < rdd.numOfTokens; i++) {
    const tag = pos(i, rdd) as PartOfSpeech;
    if (tag === "PUNCT" || tag === "SPACE") continue;
    out.push(new AnalyzedToken(value(i, rdd), tag, lemmas, i));
  }
  return out;
}

/** The tokens' texts, as a new array of one elements kind whether empty or not (see util/elements.ts). */
export function textsOf(tokens: readonly Token[]): string[] {
  const out = emptyList<string>();
  for (let i = 0; i < tokens.length; i++) out.push(tokens[i]!.text);
  return out;
}
