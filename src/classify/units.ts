/**
 * Semantic units of a query (paper 000 Algorithm 1, `lemmatize(log)`; Sánchez et al.): the nouns and
 * adjectives of the query, grouped so that each unit names one concept. Inside a noun-phrase chunk, the longest
 * phrase the knowledge base knows is kept whole ("real estate", "video games"); other words stand alone,
 * except that an adjective joins the word after it ("european soccer"). Numbers are not units.
 *
 * Web addresses are reduced to the site name first (`www.friendster.com` → `friendster`), so navigational queries
 * reach the site table.
 */
import type { KnowledgeBase } from "../knowledge/knowledge-base.ts";
import { analyze, analyzeWords, type Token } from "../text/nlp.ts";
import { chunkBounds } from "../text/noun-phrases.ts";
import { isStopword } from "../text/stopwords.ts";
import { emptyList, mapList, splitSpaces } from "../util/elements.ts";
import { siteSplitOf, type WordFacts, wordFacts } from "./word-facts.ts";

/** One semantic unit: its words as written and their Porter stems. */
export interface Unit {
  readonly words: string[];
  readonly stems: string[];
  /** What the knowledge base says about each word (same order as `words`). */
  readonly facts: readonly WordFacts[];
  /** Position of the first word in the query, to break ties deterministically. */
  readonly at: number;
}

/**
 * A web address: its site name (group 1). The scheme may be mistyped as people type it (`hhtp://`, `http//`,
 * `//`), and a sentence's full stop may follow.
 */
const URL_PART =
  /^(?:[a-z]{2,6}:?\/\/|\/\/)?(?:www\d?\.)?([a-z0-9-]+(?:\.[a-z0-9-]+)*?)\.(?:com|net|org|edu|gov|us|info|biz|tv|co\.uk)(?:\/\S*)?\.?$/;
/** An ampersand between two words of two letters or more (`quotes&poems`; not `at&t`): written spaced. */
const GLUED_AMPERSAND = /([a-z]{2})&(?=[a-z]{2})/g;
/** Type tags left by the scrubber in tag mode, e.g. `[PERSON]`. */
const TAG = /\[[A-Z_]+\]/g;
const LONGEST = 4;
/** Whitespace that `split(/\s+/)`, `join(" ")` and `trim()` would change. */
const UNEVEN_SPACE = /^\s|\s$|\s\s|[^\S ]/;

/**
 * Normalize query text for analysis: drop scrubber tags, reduce web addresses to site names. `onSite` is told
 * each site-name word so produced.
 */
export function normalizeQuery(text: string, onSite?: (word: string) => void): string {
  // Fast path: without a tag or a dot nothing is rewritten, and text already in single spaces (as the
  // scrubber releases it) comes out of the split-and-join below unchanged.
  if (!text.includes("[") && !text.includes(".") && !text.includes("&")) {
    const lower = text.toLowerCase();
    if (!UNEVEN_SPACE.test(lower)) return lower;
  }
  const words = text.replace(TAG, " ").toLowerCase().replace(GLUED_AMPERSAND, "$1 & ").split(/\s+/);
  return mapList(words, (w) => {
    // Every rewrite below needs a dot; most words have none.
    if (!w.includes(".")) return w;
    const m = URL_PART.exec(w);
    if (m) {
      const name = m[1]!.replace(/[.-]/g, " ");
      if (onSite !== undefined) for (const s of name.split(" ")) onSite(s);
      return name;
    }
    return w.replace(/^www\./, "").replace(/^\.(com|net|org)$/, "");
  })
    .join(" ")
    .trim();
}

/**
 * A site name the knowledge base does not place, split into dictionary words when it is several run together
 * (`bakingtools` → `baking tools`): domain names are written without spaces, so even a name common on the web
 * (and so never "misspelt") usually reads as words.
 */
function splitSiteName(kb: KnowledgeBase, word: string): string | undefined {
  const f = wordFacts(kb, word);
  if (f.ids !== undefined) return undefined;
  return siteSplitOf(kb, word, f)?.join(" ");
}

const NUMBER = /^[\d.,/-]+$/;

function isNumber(t: Token): boolean {
  const c = t.text.charCodeAt(0);
  if (c >= 97 && c <= 122) return false; // starts with a letter: not a number
  return NUMBER.test(t.text);
}

function skipped(t: Token): boolean {
  return isNumber(t) || isStopword(t.text);
}

/** The phrase table's entry for stems already joined by single spaces (one map look-up when the KB offers it). */
function lookupJoined(kb: KnowledgeBase, key: string): readonly number[] | undefined {
  return kb.lookupKey !== undefined ? kb.lookupKey(key) : kb.lookupStems(key.split(" "));
}

/** Most stems of a phrase that starts with a word of these `seconds` and then `next` (no bound for a spaced stem). */
function secondBound(seconds: ReadonlyMap<string, number>, next: WordFacts): number {
  return next.stem.includes(" ") ? Number.POSITIVE_INFINITY : (seconds.get(next.stem) ?? 0);
}

/** Scratch n-gram keys of `segment` (index = number of stems). */
const keys: string[] = [];
/** Scratch piece boundaries of `segment`: piece p is words [cuts[p], cuts[p + 1]). */
const cuts: number[] = [];
/** Scratch words of a chunk and their facts (`segment`). */
const chunkWords: Token[] = [];
const chunkFacts: WordFacts[] = [];

/**
 * The units of the noun-phrase chunk `tokens[first, end)`. (Written with loops, scratch arrays and arrays of the exact length rather
 * than filter / map / slice / push and an object per piece: this runs on every chunk of every query, and its
 * garbage was a seventh of what a classification allocated.)
 */
function segment(
  tokens: readonly Token[],
  first: number,
  end: number,
  tokenFacts: readonly WordFacts[],
  offset: number,
  kb: KnowledgeBase,
  out: Unit[],
): void {
  const words = chunkWords;
  const facts = chunkFacts;
  let n = 0;
  for (let k = first; k < end; k++) {
    const t = tokens[k]!;
    if (skipped(t)) continue;
    words[n] = t;
    facts[n++] = tokenFacts[k]!;
  }
  let pieces = 0;
  let i = 0;
  while (i < n) {
    let to = i + 1;
    // no phrase starts with this word, or with this word and the next: its n-grams cannot match
    const seconds = facts[i]!.seconds;
    let longest = facts[i]!.starts ? Math.min(LONGEST, n - i, facts[i]!.longest) : 1;
    if (longest >= 2 && seconds !== undefined)
      longest = Math.min(longest, secondBound(seconds, facts[i + 1]!));
    if (longest >= 2) {
      // The keys of the n-grams starting here, built once from the left; the longest known one wins.
      keys[1] = facts[i]!.stem;
      for (let k = 2; k <= longest; k++) keys[k] = `${keys[k - 1]} ${facts[i + k - 1]!.stem}`;
      for (let k = longest; k >= 2; k--) {
        if (lookupJoined(kb, keys[k]!) !== undefined) {
          to = i + k;
          break;
        }
      }
    }
    cuts[pieces++] = i;
    i = to;
  }
  cuts[pieces] = n;
  // An adjective standing alone specialises the unit after it (the next piece then starts at the adjective).
  let from = 0;
  for (let p = 0; p < pieces; p++) {
    const to = cuts[p + 1]!;
    if (p + 1 < pieces && to - from === 1 && words[from]!.pos === "ADJ") continue;
    out.push(unitOf(words, facts, from, to, offset + from));
    from = to;
  }
  // (the scratch arrays keep their tokens and facts until the next chunk: both live on elsewhere anyway)
}

/**
 * The unit of `tokens[from, to)`, `at` its position. Every unit's arrays are made here, of the exact length:
 * units made two ways (arrays of the exact length, `map`) had two array maps, and code V8 optimized on one
 * kind was compiled again on meeting the other.
 */
function unitOf(
  tokens: readonly Token[],
  facts: readonly WordFacts[],
  from: number,
  to: number,
  at: number,
): Unit {
  const words = new Array<string>(to - from);
  const stems = new Array<string>(to - from);
  const unitFacts = new Array<WordFacts>(to - from);
  for (let k = from; k < to; k++) {
    words[k - from] = tokens[k]!.text;
    stems[k - from] = facts[k]!.stem;
    unitFacts[k - from] = facts[k]!;
  }
  return { words, stems, facts: unitFacts, at };
}

/**
 * The semantic units of (already scrubbed) query text. `recommend` may replace a word by its spelling
 * recommendation before units are formed (Algorithm 1, `recommendation(SU)`).
 */
export function semanticUnits(
  text: string,
  kb: KnowledgeBase,
  recommend?: (word: string, facts: WordFacts) => string | undefined,
): { units: Unit[]; tokens: Token[]; facts: WordFacts[] } {
  let sites: Set<string> | undefined;
  let normalized = normalizeQuery(text, (w) => {
    sites ??= new Set();
    sites.add(w);
  });
  const ws = splitSpaces(normalized);
  const wsFacts = new Array<WordFacts>(ws.length);
  let changed = false;
  for (let k = 0; k < ws.length; k++) {
    const w = ws[k]!;
    const f = wordFacts(kb, w);
    wsFacts[k] = f;
    if (recommend === undefined && sites === undefined) continue;
    const r = recommend?.(w, f) ?? (sites?.has(w) ? splitSiteName(kb, w) : undefined) ?? w;
    if (r !== w) {
      ws[k] = r;
      changed = true;
    }
  }
  let tokens: Token[];
  // Each token's facts, looked up once here for the phrases, the chunks and the query rules (a memo look-up
  // per word and question was a good part of their cost); those of the words above when the tokens are the
  // words (a word wink splits, such as a contraction, or a recommendation changes the pairing).
  let facts: WordFacts[] | undefined;
  if (changed) {
    normalized = ws.join(" ");
    tokens = analyze(normalized);
  } else {
    // Joining the words of an unchanged text again would give the text back: most queries keep every word.
    tokens = analyzeWords(normalized, ws, wsFacts);
    if (tokens.length === ws.length) {
      facts = wsFacts;
      for (let i = 0; i < tokens.length && facts !== undefined; i++)
        if (tokens[i]!.text !== ws[i]) facts = undefined;
    }
  }
  if (facts === undefined) {
    facts = new Array<WordFacts>(tokens.length);
    for (let i = 0; i < tokens.length; i++) facts[i] = wordFacts(kb, tokens[i]!.text);
  }
  const units: Unit[] = [];
  let from = 0;
  for (const span of bridgedPhrases(tokens, facts, kb)) {
    chunkRange(tokens, facts, from, span.from, kb, units);
    units.push(unitOf(tokens, facts, span.from, span.to, span.from));
    from = span.to;
  }
  chunkRange(tokens, facts, from, tokens.length, kb, units);
  return { units, tokens, facts };
}

/** Noun-phrase units of `tokens[from, to)`; their `at` counts chunk tokens on from `from`. */
function chunkRange(
  tokens: readonly Token[],
  facts: readonly WordFacts[],
  from: number,
  to: number,
  kb: KnowledgeBase,
  out: Unit[],
): void {
  if (from >= to) return;
  let offset = from;
  const chunks = chunkBounds(tokens, from, to, chunkStarts, chunkEnds);
  for (let c = 0; c < chunks; c++) {
    segment(tokens, chunkStarts[c]!, chunkEnds[c]!, facts, offset, kb, out);
    offset += chunkEnds[c]! - chunkStarts[c]!;
  }
}

/** Scratch bounds of the chunks of `chunkRange` (positions in the query's tokens). */
const chunkStarts: number[] = [];
const chunkEnds: number[] = [];

/** Most tokens of a phrase bridged by "of" ("statue of liberty", "lord of the rings"). */
const BRIDGED = 5;

/**
 * Phrases the knowledge base knows whole that hold "of" after their first word — "shortness of breath",
 * "statute of limitations", "department of education". Noun-phrase chunks end at function words, so without
 * this each would split into its content words, and "shortness" alone says nothing. A phrase starts and ends
 * with a content word; the longest one starting at a word wins. Returns the spans in query order, not
 * overlapping. Phrases joined by "and", "in", "a" are left to the chunks: in queries they mostly join two
 * things ("dogs and cats"), and the knowledge base's whole phrases of that shape are often rare senses (a plant
 * called "boys and girls", "rent a car" as renting).
 */
function bridgedPhrases(
  tokens: readonly Token[],
  facts: readonly WordFacts[],
  kb: KnowledgeBase,
): { from: number; to: number }[] {
  const spans = emptyList<{ from: number; to: number }>();
  for (let i = 0; i + 2 < tokens.length; i++) {
    if (tokens[i + 1]!.text !== "of" || isStopword(tokens[i]!.text)) continue;
    const first = facts[i]!;
    if (!first.starts || first.longest < 3) continue;
    const bound = first.seconds === undefined ? BRIDGED : secondBound(first.seconds, facts[i + 1]!);
    const max = Math.min(BRIDGED, tokens.length - i, first.longest, bound);
    if (max < 3) continue;
    let key = first.stem;
    let found = 0;
    for (let n = 2; n <= max; n++) {
      key = `${key} ${facts[i + n - 1]!.stem}`;
      if (n >= 3 && !isStopword(tokens[i + n - 1]!.text) && lookupJoined(kb, key) !== undefined) found = n;
    }
    if (found > 0) {
      spans.push({ from: i, to: i + found });
      i += found - 1;
    }
  }
  return spans;
}
