/**
 * Query processing and conceptual mapping of paper 004 (§4.1): a query is split into semantic units (noun
 * phrases), stop words are removed, and each unit is looked up in the knowledge base; when a multi-word unit
 * maps to nothing, its leftmost word (adjective/noun modifier) is dropped and the rest is tried again
 * ("exciting water sports" → "water sports"). Each unit that maps contributes its best category.
 *
 * Methods and metrics depend only on the small {@link ConceptMapper} interface, so tests can inject a
 * hand-made mapper and the real knowledge base wires in through {@link phraseMapper}.
 */
import { nounPhrases } from "../text/noun-phrases.ts";
import { STOPWORDS } from "../text/stopwords.ts";
import type { CategorySpace } from "./category-space.ts";

export interface ConceptMapper {
  /** The taxonomy the category ids refer to. */
  readonly space: CategorySpace;
  /** ODP category ids of the query's semantic units, one per unit that mapped (repetitions allowed). */
  map(query: string): readonly number[];
}

/** Domain-independent words removed from units: the project's stop-word list (src/text). */
export const STOP_WORDS: ReadonlySet<string> = STOPWORDS;

/** Lower-case word tokens of a text. */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+(?:'[\p{L}]+)?/gu) ?? [];
}

/**
 * A stand-in for a noun-phrase chunker: maximal runs of non-stop words
 * ("diving in the mediterranean" → ["diving", "mediterranean"], Example 1 of paper 004).
 */
export function stopWordChunks(query: string): string[] {
  const out: string[] = [];
  let run: string[] = [];
  for (const w of words(query)) {
    if (STOP_WORDS.has(w)) {
      if (run.length > 0) out.push(run.join(" "));
      run = [];
    } else run.push(w);
  }
  if (run.length > 0) out.push(run.join(" "));
  return out;
}

export interface PhraseMapperOptions {
  readonly space: CategorySpace;
  /** Candidate category ids for a stop-word-free phrase, best first (empty when it maps to nothing). */
  readonly lookup: (phrase: string) => readonly number[];
  /** Semantic units of a query; defaults to the noun phrases of src/text (POS-tagged chunks). */
  readonly phrases?: (query: string) => string[];
  /** Memoize up to this many distinct queries (default 1,000,000). */
  readonly cacheSize?: number;
}

/** The mapping of one phrase with progressive removal of the leftmost modifier; undefined if nothing maps. */
export function mapPhrase(phrase: string, lookup: (phrase: string) => readonly number[]): number | undefined {
  const ws = words(phrase).filter((w) => !STOP_WORDS.has(w));
  for (let start = 0; start < ws.length; start++) {
    const ids = lookup(ws.slice(start).join(" "));
    if (ids.length > 0) return ids[0];
  }
  return undefined;
}

/** A memoizing {@link ConceptMapper} from a unit splitter and a phrase lookup. */
export function phraseMapper(opts: PhraseMapperOptions): ConceptMapper {
  const phrases = opts.phrases ?? nounPhrases;
  const cacheSize = opts.cacheSize ?? 1_000_000;
  const cache = new Map<string, readonly number[]>();
  return {
    space: opts.space,
    map(query: string): readonly number[] {
      const hit = cache.get(query);
      if (hit) return hit;
      const out: number[] = [];
      for (const p of phrases(query)) {
        const c = mapPhrase(p, opts.lookup);
        if (c !== undefined) out.push(c);
      }
      if (cache.size >= cacheSize) cache.clear();
      cache.set(query, out);
      return out;
    },
  };
}
