/**
 * Run-together words read as vocabulary words (Algorithm 1's units, for a typed word or a site's name): the
 * plain split, the split with function words a site's name may hold, and a site's name that is a name of its own
 * beside vocabulary words. Over the spelling vocabulary and its reference counts (spelling.ts, which offers these
 * as `SpellingCorrector.split` and `splitAroundName`).
 */
import { STOPWORDS } from "../text/stopwords.ts";

/**
 * Function words a site's name may hold between vocabulary words (`cheapcarsforsale`, `findmyfamily`): the
 * stopwords of two to five letters but for the web's own tokens.
 */
const GLUE_WORDS: ReadonlySet<string> = new Set(
  [...STOPWORDS].filter((w) => w.length >= 2 && w.length <= 5 && !/^(www|https?|com|net|org|html?)$/.test(w)),
);

/** The longest name `splitAroundName` sets beside vocabulary words (`bramworth`, `plimaux`). */
const NAME_LETTERS = 12;

export class WordSplitter {
  constructor(
    /** Vocabulary word → how often it is referenced. */
    private readonly freq: ReadonlyMap<string, number>,
  ) {}

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
}
