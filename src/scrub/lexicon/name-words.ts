/**
 * How much a word of a query counts as a first name and as a surname (0..1), for the person-name recognizer
 * (../recognizers/person-name.ts): from the census name lists, how common the word is in English (a first name
 * that is also a common word — "will", "rose", "dot" — counts for less), and the places it may name instead.
 * Memoized per word with its famous-name lengths.
 */
import { cityNames } from "./cities.ts";
import { INSTITUTION_AFTER, PRIVATE_CUES, PUBLIC_CUES } from "./name-cues.ts";
import { nameHash } from "./name-hash.ts";
import type { NameLexicon } from "./names.ts";
import {
  COUNTRIES_AND_NATIONALITIES,
  STATE_ABBREVIATIONS,
  STATE_LAST_WORDS,
  STATE_OLD_ABBREVIATIONS,
} from "./places.ts";

const ALPHA = /^[a-z]+(?:'[a-z]+)?$/;
/** Surname particles and foreign function words: part of a name ("van zandt") but never a surname alone. */
// biome-ignore format: a word list reads better packed
const PARTICLES = new Set([
  "de", "del", "della", "la", "le", "los", "las", "el", "van", "von", "da", "di", "du", "des", "der", "den", "al",
  "bin", "ibn", "y", "e", "mac", "st", "rio", "san", "santa", "das", "dos",
]);

/**
 * Per-word scores are pure functions of the word and the lexicon, and query words repeat a lot, so they are
 * memoized (the person-name recognizer is the scrubber's hot path), with the word's famous-name lengths: one
 * record per word, so that a query's token costs one look-up (a map per score was two or three look-ups per
 * token, each in a map the rest of a classification had pushed out of the cache). The memo is dropped when it
 * grows past a bound.
 */
const MEMO_LIMIT = 200_000;

export interface NameWord {
  /** {@link firstNameness}. */
  readonly first: number;
  /** A first name the census lacks (humannames), for the recognizer to weigh (`NameWeights.otherFirstName`). */
  readonly other: boolean;
  /** The lengths of the famous names that start with the word (`NameLexicon.famousLengths`, `publicLengths`). */
  readonly famous: number;
  /** {@link surnameness}, computed on first use (NaN until then). */
  last: number;
}

const wordMemo = new Map<string, NameWord>();

/** The memoized record of `w`. */
export function nameWord(lex: NameLexicon, w: string): NameWord {
  let r = wordMemo.get(w);
  if (r === undefined) {
    if (wordMemo.size >= MEMO_LIMIT) wordMemo.clear();
    r = {
      first: firstNameness(lex, w),
      other: w.length >= 3 && !lex.first.has(w) && lex.otherNames.has(nameHash(w)) && !PARTICLES.has(w),
      famous: (lex.famousLengths.get(w) ?? 0) | (lex.publicLengths.get(nameHash(w)) ?? 0),
      last: Number.NaN,
    };
    wordMemo.set(w, r);
  }
  return r;
}

/** Memoized {@link firstNameness}. */
export function firstScore(lex: NameLexicon, w: string): number {
  return nameWord(lex, w).first;
}

/** {@link surnameness} of a word's record. */
export function lastOf(lex: NameLexicon, r: NameWord, w: string): number {
  if (Number.isNaN(r.last)) r.last = surnameness(lex, w);
  return r.last;
}

/** Memoized {@link surnameness}. */
export function lastScore(lex: NameLexicon, w: string): number {
  return lastOf(lex, nameWord(lex, w), w);
}

/** How much a word counts as a first name (0..1): a common English word counts for less. */
function firstNameness(lex: NameLexicon, w: string): number {
  if (!lex.first.has(w) || w.length < 2 || !ALPHA.test(w)) return 0;
  if (PARTICLES.has(w) || COUNTRIES_AND_NATIONALITIES.has(w)) return 0;
  const rank = lex.first.get(w)!;
  // "georgia", "virginia", "denver", "austin" are more often the place than the person (but not "charlotte")
  if (STATE_LAST_WORDS.has(w) || (cityNames().big.has(w) && rank >= 300)) return 0.3;
  if (w.length === 2 && rank >= 300) return 0; // "un", "le": a two-letter first name must be a common one
  const discount = wordDiscount(lex, w);
  // One of the 100 most frequent first names that is also a less common word ("maria", "john") is a name;
  // the commonest words ("mark", "will", level 10) keep their discount.
  if (rank < 100 && (lex.wordLevel.get(w) ?? 99) >= 20) return Math.max(discount, 0.8);
  // rare first names (census rank past 1,500) are as often a foreign word or a fragment
  return discount * (rank < 300 ? 1 : rank < 1500 ? 0.9 : 0.75);
}

/** How much a word counts as a surname (0..1). Unknown words shaped like names count for a little. */
function surnameness(lex: NameLexicon, w: string): number {
  if (w.length < 2 || PARTICLES.has(w) || !ALPHA.test(w)) return 0;
  if (STATE_ABBREVIATIONS.has(w) || STATE_LAST_WORDS.has(w) || STATE_OLD_ABBREVIATIONS.has(w)) return 0;
  if (COUNTRIES_AND_NATIONALITIES.has(w)) return 0;
  if (PRIVATE_CUES.has(w) || PUBLIC_CUES.has(w) || INSTITUTION_AFTER.has(w)) return 0;
  const rank = lex.last.get(w);
  // "beverly chicago": a big city's name is the place, unless it is also a frequent surname ("houston")
  if (cityNames().big.has(w) && (rank === undefined || rank >= 1000)) return 0;
  // A very frequent surname that is also a word ("smith", "miller", "young") is still most likely a surname
  // right after a first name.
  if (rank !== undefined) return Math.max(wordDiscount(lex, w), rank < 500 ? 0.6 : rank < 3000 ? 0.4 : 0);
  if (lex.wordLevel.has(w) || lex.first.has(w)) return 0;
  // Not a census surname and not an English word: a rare surname, or a brand, a typo or a foreign word.
  return w.length >= 4 ? 0.6 : 0;
}

function wordDiscount(lex: NameLexicon, w: string): number {
  const level = lex.wordLevel.get(w);
  if (level === undefined || level >= 40) return 1;
  if (level >= 35) return 0.5;
  if (level >= 20) return 0.3;
  return 0.1;
}
