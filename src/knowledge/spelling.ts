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
import { STOPWORDS } from "../text/stopwords.ts";
import { fmix32 } from "../util/hash.ts";

/**
 * Function words a site's name may hold between vocabulary words (`cheapcarsforsale`, `findmyfamily`): the
 * stopwords of two to five letters but for the web's own tokens.
 */
const GLUE_WORDS: ReadonlySet<string> = new Set(
  [...STOPWORDS].filter((w) => w.length >= 2 && w.length <= 5 && !/^(www|https?|com|net|org|html?)$/.test(w)),
);

/** The longest name `splitAroundName` sets beside vocabulary words (`bramworth`, `plimaux`). */
const NAME_LETTERS = 12;

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

  constructor(private readonly data: SpellingData) {
    for (let i = 0; i < data.words.length; i++) this.freq.set(data.words[i]!, data.counts[i] ?? 0);
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

  /**
   * Split a run-together word into vocabulary words (`babiesrus` is not, but `pogogames` → `pogo games`,
   * `motorcyclepartssalvage` → `motorcycle parts salvage`): web addresses and hurried typing glue words. Pieces
   * are vocabulary words of at least 3 letters; the split with the fewest pieces, then the most frequent words,
   * wins. Undefined when no split into 2–4 pieces exists.
   *
   * With `glue` (for a site's name, where `cheapcarsforsale` or `findmyfamily` are common), function words of two
   * letters or more ({@link GLUE_WORDS}; the vocabulary has none) may stand between them, and the split is the most
   * probable under a unigram model of the vocabulary's counts (a function word as frequent as its commonest word),
   * so that `snorenomore` reads `snore no more` rather than three pieces of rarer words: 2–6 pieces, 1–4 of them
   * vocabulary words. (A typed word split around function words is mostly a foreign or misspelt word cut into
   * syllables, hence sites only.)
   */
  split(word: string, glue = false): string[] | undefined {
    const n = word.length;
    if (n < 6 || n > 40 || !/^[a-z]+$/.test(word)) return undefined;
    const lm = glue ? this.unigram() : undefined;
    // best[i]: [pieces, vocabulary pieces, score] of the best split of word[0, i).
    const pieces = new Array<number>(n + 1).fill(Number.POSITIVE_INFINITY);
    const content = new Array<number>(n + 1).fill(0);
    const score = new Array<number>(n + 1).fill(Number.NEGATIVE_INFINITY);
    const back = new Array<number>(n + 1).fill(-1);
    pieces[0] = 0;
    score[0] = 0;
    for (let i = 2; i <= n; i++) {
      for (let j = Math.max(0, i - 20); j <= i - 2; j++) {
        if (pieces[j] === Number.POSITIVE_INFINITY || (lm === undefined && i - j < 3)) continue;
        const piece = word.slice(j, i);
        const isGlue = lm !== undefined && GLUE_WORDS.has(piece);
        const f = isGlue ? lm!.glue : i - j >= 3 ? this.freq.get(piece) : undefined;
        if (f === undefined) continue;
        const c = content[j]! + (isGlue ? 0 : 1);
        if (c > 4) continue;
        const p = pieces[j]! + 1;
        if (lm !== undefined) {
          const sc = score[j]! + Math.log((f + 1) / lm.total);
          if (sc > score[i]!) {
            pieces[i] = p;
            content[i] = c;
            score[i] = sc;
            back[i] = j;
          }
          continue;
        }
        const sc = score[j]! + Math.log(f + 1);
        if (p < pieces[i]! || (p === pieces[i]! && sc > score[i]!)) {
          pieces[i] = p;
          content[i] = c;
          score[i] = sc;
          back[i] = j;
        }
      }
    }
    if (pieces[n]! < 2 || pieces[n]! > (glue ? 6 : 4) || content[n]! < 1) return undefined;
    const out: string[] = [];
    for (let i = n; i > 0; i = back[i]!) out.unshift(word.slice(back[i]!, i));
    return out;
  }

  /**
   * A site's name that is a name of its own beside vocabulary words (`bramworthcoffee` → `bramworth coffee`,
   * `qrxnetwork` → `qrx network`): one piece of at least 3 letters the vocabulary lacks, first or last, and the
   * rest a vocabulary word of at least 4 letters or a {@link split} with glue; the name has at most
   * {@link NAME_LETTERS} letters (each length tried is a split of the rest: ~100 µs per name of 20 letters). The fewest known pieces win (the
   * name is not cut into syllables that happen to be words), then the shortest unknown piece, then the unknown
   * piece first (a brand, then what it sells). Undefined when there is none: for a site's name only, after
   * `split(word, true)` found nothing.
   */
  splitAroundName(word: string): string[] | undefined {
    const n = word.length;
    if (n < 7 || n > 40 || !/^[a-z]+$/.test(word)) return undefined;
    const known = (part: string): string[] | undefined =>
      part.length >= 4 && this.freq.has(part) ? [part] : this.split(part, true);
    let best: string[] | undefined;
    let bestPieces = Number.POSITIVE_INFINITY;
    for (let unknown = 3; unknown <= Math.min(n - 4, NAME_LETTERS); unknown++) {
      const head = word.slice(0, unknown);
      const tail = word.slice(n - unknown);
      for (const first of [true, false]) {
        const name = first ? head : tail;
        if (this.freq.has(name) || GLUE_WORDS.has(name)) continue;
        const pieces = known(first ? word.slice(unknown) : word.slice(0, n - unknown));
        if (pieces === undefined || pieces.length >= bestPieces) continue;
        if (!pieces.some((p) => p.length >= 4 && !GLUE_WORDS.has(p))) continue;
        bestPieces = pieces.length;
        best = first ? [name, ...pieces] : [...pieces, name];
      }
      if (bestPieces === 1) break;
    }
    return best;
  }

  /** The vocabulary's total count and the count a glue word has (its commonest word's), made on first use. */
  private unigram(): { total: number; glue: number } {
    if (this.lm === undefined) {
      let total = 0;
      let most = 0;
      for (const c of this.freq.values()) {
        total += c;
        if (c > most) most = c;
      }
      this.lm = { total: total + 1, glue: most };
    }
    return this.lm;
  }

  private lm: { total: number; glue: number } | undefined;

  private buildIndex(): DeleteIndex {
    this.index ??= new DeleteIndex(this.data.words);
    return this.index;
  }
}

/** Multiplier of the polynomial string hash below (odd, so every power is odd too). */
const BASE = 0x01000193;
/** `BASE ** k` modulo 2^32, for every length a probe or vocabulary word can have (grown on demand). */
const powers: number[] = [1];

function power(k: number): number {
  while (powers.length <= k) powers.push(Math.imul(powers[powers.length - 1]!, BASE));
  return powers[k]!;
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
  suffix[n] = 0;
  for (let i = n - 1; i >= 0; i--)
    suffix[i] = (Math.imul(s.charCodeAt(i), power(n - 1 - i)) + suffix[i + 1]!) | 0;
  let prefix = 0;
  for (let g = 0; g < n; g++) {
    out[g] = fmix32((Math.imul(prefix, power(n - 1 - g)) + suffix[g + 1]!) | 0);
    prefix = (Math.imul(prefix, BASE) + s.charCodeAt(g)) | 0;
  }
}

/**
 * The symmetric-delete index: each vocabulary word under itself and under each of its one-letter deletions.
 * An entry is (word, deleted position) in a hash table of typed arrays, checked against the probe character by
 * character, so the deletions are never built as strings: a Map from ~713k deletion strings cost 0.4–1.3 s to
 * build (a tenth of a cold pass over the AOL subset) and ~100 MB; this takes a few tens of ms. A word yields
 * the same candidates as under the string keys: deleting any letter of a run of equal letters gives the same
 * deletion, which is entered once.
 */
class DeleteIndex {
  /** Bucket → first entry + 1 (0 = none). */
  private readonly heads: Int32Array;
  /** Entry → next entry of its bucket + 1. */
  private readonly next: Int32Array;
  private readonly entryWord: Int32Array;
  /** Deleted position of the entry, -1 for the word itself. */
  private readonly entryGap: Int32Array;
  private readonly mask: number;

  constructor(private readonly words: readonly string[]) {
    let entries = 0;
    for (const w of words) entries += w.length <= 1 ? 1 : 1 + runs(w);
    let size = 1;
    while (size < entries * 2) size *= 2;
    this.mask = size - 1;
    this.heads = new Int32Array(size);
    this.next = new Int32Array(entries);
    this.entryWord = new Int32Array(entries);
    this.entryGap = new Int32Array(entries);
    let e = 0;
    let gaps = new Int32Array(64);
    for (let id = 0; id < words.length; id++) {
      const w = words[id]!;
      if (gaps.length < w.length) gaps = new Int32Array(2 * w.length);
      deletionHashes(w, gaps);
      for (let gap = -1; gap < w.length; gap++) {
        if (gap >= 0 && (w.length <= 1 || (gap > 0 && w.charCodeAt(gap) === w.charCodeAt(gap - 1)))) continue;
        const b = (gap < 0 ? hashOf(w) : gaps[gap]! >>> 0) & this.mask;
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
