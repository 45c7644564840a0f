/**
 * A knowledge base with phrases of its caller's over another: the public figures of a user's allow list filed under
 * a category (`dale brickner TAB Sports`), so the classifier places such a name as it places the people the bundled
 * lists hold (Pantheon, faker, data/scrub/famous-people.txt): one unit, filed under the person's field. Every other
 * answer is the base's, and so is its content hash — the learned layer reads a listed name as it reads a name of the
 * snapshot, so the model of the snapshot still applies.
 */
import { stem } from "../text/stem.ts";
import type { KnowledgeBase } from "./knowledge-base.ts";

/** A phrase to add: its words (lower case) and its categories (taxonomy ids, best first). */
export interface ExtraPhrase {
  readonly words: readonly string[];
  readonly ids: readonly number[];
}

/** `base` with `phrases` added (a phrase the base has too takes the added categories). */
export function withPhrases(base: KnowledgeBase, phrases: readonly ExtraPhrase[]): KnowledgeBase {
  return phrases.length === 0 ? base : new ExtendedKnowledgeBase(base, phrases);
}

class ExtendedKnowledgeBase implements KnowledgeBase {
  /** Stemmed key → categories. */
  private readonly extra = new Map<string, readonly number[]>();
  /** First stem of an added phrase of two or more → its most stems. */
  private readonly first = new Map<string, number>();
  /** `phraseSeconds` of the first stems of added phrases: the base's merged with the added ones. */
  private readonly seconds = new Map<string, ReadonlyMap<string, number> | undefined>();

  constructor(
    private readonly base: KnowledgeBase,
    phrases: readonly ExtraPhrase[],
  ) {
    const added = new Map<string, Map<string, number>>();
    for (const p of phrases) {
      const stems = p.words.map((w) => stem(w));
      this.extra.set(stems.join(" "), p.ids);
      if (stems.length < 2) continue;
      const [a, b] = stems as [string, string];
      this.first.set(a, Math.max(this.first.get(a) ?? 1, stems.length));
      let m = added.get(a);
      if (m === undefined) {
        m = new Map();
        added.set(a, m);
      }
      m.set(b, Math.max(m.get(b) ?? 0, stems.length));
    }
    for (const [a, mine] of added) {
      const theirs = base.phraseSeconds === undefined ? undefined : base.phraseSeconds(a);
      if (base.phraseSeconds !== undefined && theirs === undefined) {
        this.seconds.set(a, undefined); // the base knows no bound for this stem: neither do we
        continue;
      }
      const merged = new Map(theirs ?? []);
      for (const [b, n] of mine) merged.set(b, Math.max(merged.get(b) ?? 0, n));
      this.seconds.set(a, merged);
    }
  }

  get taxonomy() {
    return this.base.taxonomy;
  }
  get termStats() {
    return this.base.termStats;
  }
  get spelling() {
    return this.base.spelling;
  }
  get inputs() {
    return this.base.inputs;
  }
  get fingerprint() {
    return this.base.fingerprint;
  }
  get contentHash() {
    return this.base.contentHash;
  }
  get phraseCount(): number {
    return this.base.phraseCount + this.extra.size;
  }

  lookup(phrase: string): readonly number[] {
    const stems = phrase
      .toLowerCase()
      .split(/[^a-z0-9']+/)
      .filter((w) => w !== "")
      .map((w) => stem(w));
    for (let i = 0; i < stems.length; i++) {
      const hit = this.extra.get(stems.slice(i).join(" "));
      if (hit !== undefined) return hit;
    }
    return this.base.lookup(phrase);
  }

  lookupWord(word: string): { ids: readonly number[]; weak: boolean } | undefined {
    if (this.extra.has(stem(word))) return undefined; // the added phrase of the word's stem answers
    return this.base.lookupWord?.(word);
  }

  lookupStems(stems: readonly string[]): readonly number[] | undefined {
    return this.extra.get(stems.join(" ")) ?? this.base.lookupStems(stems);
  }

  lookupKey(key: string): readonly number[] | undefined {
    const hit = this.extra.get(key);
    if (hit !== undefined) return hit;
    return this.base.lookupKey !== undefined
      ? this.base.lookupKey(key)
      : this.base.lookupStems(key.split(" "));
  }

  isWeak(stems: readonly string[]): boolean {
    return !this.extra.has(stems.join(" ")) && this.base.isWeak(stems);
  }

  startsPhrase(stem: string): boolean {
    return this.first.has(stem) || (this.base.startsPhrase?.(stem) ?? true);
  }

  longestPhrase(stem: string): number {
    const theirs = this.base.longestPhrase?.(stem) ?? Number.POSITIVE_INFINITY;
    return Math.max(theirs, this.first.get(stem) ?? 1);
  }

  phraseSeconds(stem: string): ReadonlyMap<string, number> | undefined {
    if (this.seconds.has(stem)) return this.seconds.get(stem);
    return this.base.phraseSeconds?.(stem);
  }

  foreignLanguages(word: string): number {
    return this.base.foreignLanguages?.(word) ?? 0;
  }
}
