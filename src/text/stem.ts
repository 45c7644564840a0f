/**
 * Porter stemming, the same algorithm (Porter 1980) that produced the stems of the bundled term-specificity
 * table (data/termstats/web-document-frequency.tsv), so a query word and the table meet on the same key. Uses the
 * maintained `stemmer` package (MIT); results are memoized because queries repeat words heavily.
 */
import { stemmer } from "stemmer";

const memo = new Map<string, string>();
const MEMO_LIMIT = 200_000;

/** Porter stem of one lower-case word, e.g. `players` → `player`, `european` → `european`. */
export function stem(word: string): string {
  let s = memo.get(word);
  if (s === undefined) {
    s = stemmer(word);
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(word, s);
  }
  return s;
}

/** Stem every word of a phrase and join with single spaces: the lookup key of a phrase. */
export function stemKey(words: readonly string[]): string {
  return words.map(stem).join(" ");
}
