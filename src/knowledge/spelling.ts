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
  /**
   * Symmetric-delete index: key → the vocabulary words it comes from, in vocabulary order. A key with one word
   * (nine keys in ten) holds the bare string: one array per key made building the index (~713k keys) cost
   * 0.5–1.3 s, a tenth of a cold classification pass.
   */
  private index: Map<string, string | string[]> | undefined;

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
    index: Map<string, string | string[]>,
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
    for (const p of probes) {
      const hits = index.get(p);
      if (hits === undefined) continue;
      if (typeof hits === "string") consider(hits);
      else for (const cand of hits) consider(cand);
    }
    return { word: best, dist: bestDist, freq: bestFreq };
  }

  /**
   * Split a run-together word into vocabulary words (`babiesrus` is not, but `pogogames` → `pogo games`,
   * `motorcyclepartssalvage` → `motorcycle parts salvage`): web addresses and hurried typing glue words.
   * Pieces have at least 3 letters; the split with the fewest pieces, then the most frequent words, wins.
   * Undefined when no split into at most 4 known pieces exists.
   */
  split(word: string): string[] | undefined {
    const n = word.length;
    if (n < 6 || n > 40 || !/^[a-z]+$/.test(word)) return undefined;
    // best[i]: [pieces, score] of the best split of word[0, i).
    const pieces = new Array<number>(n + 1).fill(Number.POSITIVE_INFINITY);
    const score = new Array<number>(n + 1).fill(Number.NEGATIVE_INFINITY);
    const back = new Array<number>(n + 1).fill(-1);
    pieces[0] = 0;
    score[0] = 0;
    for (let i = 3; i <= n; i++) {
      for (let j = Math.max(0, i - 20); j <= i - 3; j++) {
        if (pieces[j] === Number.POSITIVE_INFINITY) continue;
        const f = this.freq.get(word.slice(j, i));
        if (f === undefined) continue;
        const p = pieces[j]! + 1;
        const sc = score[j]! + Math.log(f + 1);
        if (p < pieces[i]! || (p === pieces[i]! && sc > score[i]!)) {
          pieces[i] = p;
          score[i] = sc;
          back[i] = j;
        }
      }
    }
    if (pieces[n]! < 2 || pieces[n]! > 4) return undefined;
    const out: string[] = [];
    for (let i = n; i > 0; i = back[i]!) out.unshift(word.slice(back[i]!, i));
    return out;
  }

  private buildIndex(): Map<string, string | string[]> {
    if (this.index !== undefined) return this.index;
    const index = new Map<string, string | string[]>();
    // A word's deletions are added one after the other, so a repeated deletion (`hello` → `helo` twice) finds
    // the word already last in its list: no set of the word's deletions is needed.
    const add = (k: string, w: string) => {
      const l = index.get(k);
      if (l === undefined) index.set(k, w);
      else if (typeof l === "string") {
        if (l !== w) index.set(k, [l, w]);
      } else if (l[l.length - 1] !== w) l.push(w);
    };
    for (const w of this.freq.keys()) {
      add(w, w);
      if (w.length <= 1) continue;
      for (let i = 0; i < w.length; i++) add(w.slice(0, i) + w.slice(i + 1), w);
    }
    this.index = index;
    return index;
  }
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
