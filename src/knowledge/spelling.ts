/**
 * Spelling recommendations (paper 000 Algorithm 1, `recommendation(SU)`): the paper used a search engine's
 * "did you mean"; we use (1) a list of common misspellings (npm `@cspell/dict-en-common-misspellings`,
 * CC BY-SA 4.0, from Wikipedia's list) and (2) a frequency-weighted corrector: among vocabulary words within
 * Damerau–Levenshtein distance 2, the closest, then the most referenced.
 *
 * Candidates come from a symmetric-delete index (each vocabulary word and its one-letter deletions), queried
 * with the word's deletions up to two letters, then verified by exact distance — a few dozen map look-ups per
 * word instead of generating every edit. The index is built on first use, so loading stays fast.
 */
import { fmix32 } from "../util/hash.ts";
import { WordSplitter } from "./word-split.ts";

// Rows reused across calls: words are short, and allocation dominated the corrector's cost.
let rowA = new Int32Array(64);
let rowB = new Int32Array(64);
let rowC = new Int32Array(64);

/** Damerau–Levenshtein (optimal string alignment) distance, capped at `max + 1` (stops early above `max`). */
export function editDistance(a: string, b: string, max = 2): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const n = b.length;
  if (rowA.length <= n) {
    rowA = new Int32Array(n + 1);
    rowB = new Int32Array(n + 1);
    rowC = new Int32Array(n + 1);
  }
  let prev2 = rowA;
  let prev = rowB;
  let cur = rowC;
  for (let j = 0; j <= n; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= n; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (
        i > 1 &&
        j > 1 &&
        a.charCodeAt(i - 1) === b.charCodeAt(j - 2) &&
        a.charCodeAt(i - 2) === b.charCodeAt(j - 1)
      ) {
        v = Math.min(v, prev2[j - 2]! + 1);
      }
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    const t = prev2;
    prev2 = prev;
    prev = cur;
    cur = t;
  }
  return Math.min(prev[n]!, max + 1);
}

function deletes(word: string, depth: number, out: Set<string>): void {
  if (depth === 0 || word.length <= 1) return;
  for (let i = 0; i < word.length; i++) {
    const d = word.slice(0, i) + word.slice(i + 1);
    if (!out.has(d)) {
      out.add(d);
      deletes(d, depth - 1, out);
    }
  }
}

interface Candidate {
  readonly word: string | undefined;
  readonly dist: number;
  readonly freq: number;
}

export interface SpellingData {
  /** Vocabulary words and how often each is referenced (same order). */
  readonly words: readonly string[];
  readonly counts: readonly number[];
  /** Misspelling → correction. */
  readonly misspellings: ReadonlyMap<string, string>;
}

export class SpellingCorrector {
  private readonly freq = new Map<string, number>();
  private index: DeleteIndex | undefined;

  private readonly splitter: WordSplitter;

  constructor(private readonly data: SpellingData) {
    for (let i = 0; i < data.words.length; i++) this.freq.set(data.words[i]!, data.counts[i] ?? 0);
    this.splitter = new WordSplitter(this.freq);
  }

  get vocabularySize(): number {
    return this.freq.size;
  }

  get misspellingCount(): number {
    return this.data.misspellings.size;
  }

  /** True when `word` is a vocabulary word. */
  knows(word: string): boolean {
    return this.freq.has(word);
  }

  /** The listed correction of a known misspelling, if any. */
  listed(word: string): string | undefined {
    return this.data.misspellings.get(word);
  }

  /**
   * Best vocabulary word within edit distance 2 of `word` (closest first, then most frequent, then
   * alphabetical for determinism), or undefined. Words shorter than 4 letters, with digits or without vowels
   * are left alone (too many neighbours; vowel-less strings are keyboard noise); words under 7 letters get at
   * most one edit.
   */
  nearest(word: string): string | undefined {
    if (word.length < 4 || !/^[a-z]+$/.test(word) || !/[aeiouy]/.test(word)) return undefined;
    const index = this.buildIndex();
    // Distance-1 probes first; the wider distance-2 probes only when they find nothing.
    const near = new Set<string>([word]);
    deletes(word, 1, near);
    const seen = new Set<string>();
    const first = this.best(word, near, index, seen, { word: undefined, dist: 3, freq: -1 });
    // Two edits only for words of 7+ letters: shorter ones have too many neighbours at distance 2.
    if (first.dist <= 1 || word.length < 7) return first.dist <= 1 ? first.word : undefined;
    const far = new Set<string>();
    for (const d of near) if (d !== word) deletes(d, 1, far);
    for (const d of near) far.delete(d);
    return this.best(word, far, index, seen, first).word;
  }

  private best(
    word: string,
    probes: ReadonlySet<string>,
    index: DeleteIndex,
    seen: Set<string>,
    start: Candidate,
  ): Candidate {
    let best = start.word;
    let bestDist = start.dist;
    let bestFreq = start.freq;
    const consider = (cand: string) => {
      if (seen.has(cand)) return;
      seen.add(cand);
      // Only a candidate at most as far as the best so far can win: stop its distance there (exact below it).
      const d = editDistance(word, cand, Math.min(bestDist, 2));
      if (d > 2 || d > bestDist) return;
      const f = this.freq.get(cand) ?? 0;
      if (d < bestDist || (d === bestDist && (f > bestFreq || (f === bestFreq && cand < best!)))) {
        best = cand;
        bestDist = d;
        bestFreq = f;
      }
    };
    // The winner is the least candidate in (distance, -frequency, word) order, so the order in which the
    // index yields candidates does not matter.
    for (const p of probes) index.each(p, consider);
    return { word: best, dist: bestDist, freq: bestFreq };
  }

  /** {@link WordSplitter.split} over this vocabulary. */
  split(word: string, glue = false): string[] | undefined {
    return this.splitter.split(word, glue);
  }

  /** {@link WordSplitter.splitAroundName} over this vocabulary. */
  splitAroundName(word: string): string[] | undefined {
    return this.splitter.splitAroundName(word);
  }

  private buildIndex(): DeleteIndex {
    this.index ??= new DeleteIndex(this.data.words);
    return this.index;
  }
}

/** Multiplier of the polynomial string hash below (odd, so every power is odd too). */
const BASE = 0x01000193;
/** `BASE ** k` modulo 2^32, for every length a probe or vocabulary word can have (grown on demand). */
let powers = new Int32Array([1]);

/** {@link powers} long enough for strings of `n` characters. */
function powersFor(n: number): Int32Array {
  if (powers.length < n) {
    const grown = new Int32Array(Math.max(n, 2 * powers.length));
    grown.set(powers);
    for (let k = powers.length; k < grown.length; k++) grown[k] = Math.imul(grown[k - 1]!, BASE);
    powers = grown;
  }
  return powers;
}

/**
 * Bucket hash of `s`: a polynomial string hash (`h = h * BASE + c` over the characters, modulo 2^32), its bits
 * mixed by murmur3's finalizer because the table is indexed by the low bits, which a polynomial hash spreads
 * poorly.
 */
function hashOf(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, BASE) + s.charCodeAt(i)) | 0;
  return fmix32(h);
}

/** Scratch suffix hashes of {@link deletionHashes}: `suffix[i]` = polynomial hash of `s.slice(i)`. */
let suffix = new Int32Array(64);

/**
 * `out[g]` = {@link hashOf} of `s` without its character at `g`, for every `g`, in time linear in the length:
 * the hash of a deletion is its prefix's hash shifted past the suffix plus the suffix's hash (a polynomial hash
 * composes so), where hashing each deletion afresh was quadratic and most of the index's build time.
 */
function deletionHashes(s: string, out: Int32Array): void {
  const n = s.length;
  if (suffix.length <= n) suffix = new Int32Array(2 * n + 1);
  const pow = powersFor(n);
  suffix[n] = 0;
  for (let i = n - 1; i >= 0; i--)
    suffix[i] = (Math.imul(s.charCodeAt(i), pow[n - 1 - i]!) + suffix[i + 1]!) | 0;
  let prefix = 0;
  for (let g = 0; g < n; g++) {
    out[g] = fmix32((Math.imul(prefix, pow[n - 1 - g]!) + suffix[g + 1]!) | 0);
    prefix = (Math.imul(prefix, BASE) + s.charCodeAt(g)) | 0;
  }
}

/**
 * The symmetric-delete index: each vocabulary word under itself and under each of its one-letter deletions.
 * An entry is (word, deleted position) in a hash table of typed arrays, checked against the probe character by
 * character, so the deletions are never built as strings: a Map from ~713k deletion strings cost 0.4–1.3 s to
 * build (a tenth of a cold pass over the AOL subset) and ~100 MB. A word yields the same candidates as under the
 * string keys: deleting any letter of a run of equal letters gives the same deletion, which is entered once.
 *
 * The table is split by key length, each part built on the first probe of its length: a probe of length L can
 * only match words of length L (whole) or L + 1 (less a letter). One table for all ~830k entries was 17 MB,
 * written in random order, and its cache misses were most of its ~50 ms build (~75 ms the first time, in a
 * fresh process); the largest part's table is ~1 MB, within a core's cache, and the parts together build in
 * about half the time (CPU ms, the 88.5k-word vocabulary). Short keys are never probed (`nearest` leaves words
 * under 4 letters alone), so their parts are never built.
 */
class DeleteIndex {
  /** Word ids by length: those of length `n` are `byLength[starts[n]]` up to `byLength[starts[n + 1]]`. */
  private readonly byLength: Int32Array;
  private readonly starts: Int32Array;
  private readonly parts: (DeletePart | undefined)[] = [];

  constructor(private readonly words: readonly string[]) {
    let longest = 0;
    for (const w of words) if (w.length > longest) longest = w.length;
    const starts = new Int32Array(longest + 3);
    for (const w of words) starts[w.length + 1]!++;
    for (let n = 1; n < starts.length; n++) starts[n]! += starts[n - 1]!;
    const fill = starts.slice();
    const byLength = new Int32Array(words.length);
    for (let id = 0; id < words.length; id++) byLength[fill[words[id]!.length]!++] = id;
    this.byLength = byLength;
    this.starts = starts;
  }

  /** Call `f` with each word entered under `key` (a word more than once when several of its entries match). */
  each(key: string, f: (word: string) => void): void {
    const n = key.length;
    if (n + 2 >= this.starts.length) return;
    let part = this.parts[n];
    if (part === undefined) {
      part = new DeletePart(this.words, this.byLength, this.starts, n);
      this.parts[n] = part;
    }
    part.each(key, f);
  }
}

/** The entries of {@link DeleteIndex} under keys of one length. */
class DeletePart {
  /** Bucket → first entry + 1 (0 = none). */
  private readonly heads: Int32Array;
  /** Entry → next entry of its bucket + 1. */
  private readonly next: Int32Array;
  private readonly entryWord: Int32Array;
  /** Deleted position of the entry, -1 for the word itself. */
  private readonly entryGap: Int32Array;
  private readonly mask: number;

  /** Words of length `n` whole, and those of length `n + 1` less each letter (a word of one letter has none). */
  constructor(
    private readonly words: readonly string[],
    byLength: Int32Array,
    starts: Int32Array,
    n: number,
  ) {
    const deleting = n >= 1;
    let entries = starts[n + 1]! - starts[n]!;
    if (deleting) for (let k = starts[n + 1]!; k < starts[n + 2]!; k++) entries += runs(words[byLength[k]!]!);
    let size = 1;
    while (size < entries * 2) size *= 2;
    this.mask = size - 1;
    this.heads = new Int32Array(size);
    this.next = new Int32Array(entries);
    this.entryWord = new Int32Array(entries);
    this.entryGap = new Int32Array(entries);
    let e = 0;
    for (let k = starts[n]!; k < starts[n + 1]!; k++) {
      const id = byLength[k]!;
      const b = hashOf(words[id]!) & this.mask;
      this.entryWord[e] = id;
      this.entryGap[e] = -1;
      this.next[e] = this.heads[b]!;
      this.heads[b] = ++e;
    }
    if (!deleting) return;
    const gaps = new Int32Array(n + 1);
    for (let k = starts[n + 1]!; k < starts[n + 2]!; k++) {
      const id = byLength[k]!;
      const w = words[id]!;
      deletionHashes(w, gaps);
      for (let gap = 0; gap <= n; gap++) {
        if (gap > 0 && w.charCodeAt(gap) === w.charCodeAt(gap - 1)) continue;
        const b = gaps[gap]! & this.mask;
        this.entryWord[e] = id;
        this.entryGap[e] = gap;
        this.next[e] = this.heads[b]!;
        this.heads[b] = ++e;
      }
    }
  }

  /** Call `f` with each word entered under `key` (a word more than once when several of its entries match). */
  each(key: string, f: (word: string) => void): void {
    for (let e = this.heads[hashOf(key) & this.mask]!; e !== 0; e = this.next[e - 1]!) {
      const w = this.words[this.entryWord[e - 1]!]!;
      const gap = this.entryGap[e - 1]!;
      if (w.length - (gap >= 0 ? 1 : 0) !== key.length) continue;
      let same = true;
      for (let i = 0, j = 0; i < key.length; i++, j++) {
        if (j === gap) j++;
        if (key.charCodeAt(i) !== w.charCodeAt(j)) {
          same = false;
          break;
        }
      }
      if (same) f(w);
    }
  }
}

/** Number of runs of equal letters in `w` (`hello` has 4): its distinct one-letter deletions. */
function runs(w: string): number {
  let n = 1;
  for (let i = 1; i < w.length; i++) if (w.charCodeAt(i) !== w.charCodeAt(i - 1)) n++;
  return n;
}

/** Parse the cspell `suggestWords` entries (`wrong->right, other`); the first suggestion is taken. */
export function parseMisspellings(entries: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of entries) {
    const arrow = e.indexOf("->");
    if (arrow <= 0) continue;
    const wrong = e.slice(0, arrow).trim().toLowerCase();
    const right = e
      .slice(arrow + 2)
      .split(",")[0]!
      .trim()
      .toLowerCase();
    if (wrong !== "" && right !== "" && /^[a-z' -]+$/.test(wrong)) out.set(wrong, right);
  }
  return out;
}
