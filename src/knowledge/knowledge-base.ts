/**
 * The loaded knowledge base: everything the classifier and the semantic methods need to give a query meaning —
 * the ODP taxonomy, the lexical bridge from phrases to categories, term specificity and spelling data.
 * Built once into a compact snapshot (see build.ts / snapshot.ts); this interface is what the rest of
 * querymask depends on.
 */
import { existsSync } from "node:fs";
import { stem } from "../text/stem.ts";
import { buildSnapshot } from "./build.ts";
import { buildFingerprint, SNAPSHOT_VERSION } from "./fingerprint.ts";
import { type CountTable, PackedCounts } from "./packed-counts.ts";
import { prebuilt } from "./prebuilt.ts";
import {
  announceBuild,
  DEFAULT_SNAPSHOT,
  eachCountRow,
  eachRow,
  type KbSnapshot,
  type Notice,
  readSnapshot,
  type SnapshotInput,
  saveSnapshot,
  snapshotContentHash,
} from "./snapshot.ts";
import { SpellingCorrector } from "./spelling.ts";
import { Taxonomy } from "./taxonomy.ts";
import { TermStats } from "./termstats.ts";

export interface KnowledgeBase {
  readonly taxonomy: Taxonomy;
  /** Term specificity (the paper's "entropy"): references per Porter stem. */
  readonly termStats: TermStats;
  readonly spelling: SpellingCorrector;
  /** Build inputs with their licences and sizes, for `kb info`. */
  readonly inputs: readonly SnapshotInput[];
  /** Fingerprint of the snapshot's build inputs (see fingerprint.ts), when known. */
  readonly fingerprint?: string;
  /** Hash of the snapshot's knowledge itself (see `snapshotContentHash`), when known: what a model binds to. */
  readonly contentHash?: string;
  /** Number of phrase keys in the lexical bridge. */
  readonly phraseCount: number;
  /**
   * Candidate ODP category ids for a (noun) phrase, best first; empty if none. Words are stemmed; when the
   * whole phrase is unknown the leftmost word is dropped until something matches (paper 004 §4.1.2:
   * "exciting water sports" → "water sports").
   */
  lookup(phrase: string): readonly number[];
  /**
   * Optional: the categories of a word as written when they differ from its Porter stem's (a named individual
   * sharing its stem with a common word: `billings` / `bill`); undefined = use the stem.
   */
  lookupWord?(word: string): { ids: readonly number[]; weak: boolean } | undefined;
  /** Exact look-up of a phrase already split into Porter stems (no shortening). */
  lookupStems(stems: readonly string[]): readonly number[] | undefined;
  /**
   * Optional: `lookupStems(key.split(" "))` for a key already joined (stems with single spaces), so a caller
   * that builds keys incrementally needs no array.
   */
  lookupKey?(key: string): readonly number[] | undefined;
  /**
   * True when the phrase (as stems) names a place or a person — a qualifier more often than a query's topic,
   * so the classifier ranks it after other units.
   */
  isWeak(stems: readonly string[]): boolean;
  /**
   * Optional fast test: false when no phrase of two or more stems can start with `stem`, so `lookupStems` and
   * `isWeak` of any such phrase are undefined / false. Callers treat a missing method as "may start".
   */
  startsPhrase?(stem: string): boolean;
  /**
   * Optional: the most stems of any phrase of two or more stems that starts with `stem` (1 when none does), so
   * that longer n-grams need no key. Callers treat a missing method as "no bound".
   */
  longestPhrase?(stem: string): number;
  /**
   * Optional: for a stem that starts phrases of two or more stems, their second stems, each with the most stems
   * of such a phrase (a second stem not in it starts none after `stem`); undefined when no bound is known.
   */
  phraseSeconds?(stem: string): ReadonlyMap<string, number> | undefined;
  /**
   * Optional: the languages other than English in whose dictionaries the word (as written, lower case) is, as a
   * bit mask over `FOREIGN_LEXICONS` (0 = none, or an English word).
   */
  foreignLanguages?(word: string): number;
}

const EMPTY: readonly number[] = Object.freeze([]);
const EMPTY_SECONDS: ReadonlyMap<string, number> = new Map();

/** A knowledge base held in memory, made from a snapshot. */
export class SnapshotKnowledgeBase implements KnowledgeBase {
  readonly taxonomy: Taxonomy;
  readonly termStats: TermStats;
  readonly spelling: SpellingCorrector;
  readonly inputs: readonly SnapshotInput[];
  readonly fingerprint: string | undefined;
  readonly contentHash: string;
  private readonly phrases = new Map<string, readonly number[]>();
  private readonly weak = new Set<string>();
  /**
   * First stems of the phrases of two or more words, with the most words of such a phrase: most words start
   * none, so their n-grams need no key, and the others start none longer than this.
   */
  private readonly multiFirst = new Map<string, number>();
  /** The same per first and second stem (see `phraseSeconds`). */
  private readonly multiSecond = new Map<string, Map<string, number>>();
  private readonly foreign: CountTable;

  constructor(snapshot: KbSnapshot, taxonomy = Taxonomy.bundled()) {
    this.taxonomy = taxonomy;
    this.inputs = snapshot.inputs;
    this.fingerprint = snapshot.fingerprint;
    this.contentHash = snapshotContentHash(snapshot);
    const ids = snapshot.categories.map((p) => {
      const id = taxonomy.id(p);
      if (id === undefined)
        throw new Error(`knowledge-base snapshot names unknown category ${p}; rebuild it`);
      return id;
    });
    // Most phrases map to one category: share one frozen array per category rather than one per phrase.
    const single = new Map<number, readonly number[]>();
    eachRow(snapshot.phrases, (key, value) => {
      const weak = value.charCodeAt(0) === 126; // "~"
      if (weak) this.weak.add(key);
      const refs = weak ? value.slice(1) : value;
      let list: readonly number[];
      if (refs.indexOf(",") < 0) {
        const id = ids[Number(refs)]!;
        let l = single.get(id);
        if (l === undefined) {
          l = Object.freeze([id]);
          single.set(id, l);
        }
        list = l;
      } else list = Object.freeze(refs.split(",").map((r) => ids[Number(r)]!));
      this.phrases.set(key, list);
      const space = key.indexOf(" ");
      if (space >= 0) {
        const first = key.slice(0, space);
        const secondEnd = key.indexOf(" ", space + 1);
        let n = 2;
        for (let at = secondEnd; at >= 0; at = key.indexOf(" ", at + 1)) n++;
        if (n > (this.multiFirst.get(first) ?? 0)) this.multiFirst.set(first, n);
        const second = key.slice(space + 1, secondEnd < 0 ? key.length : secondEnd);
        let seconds = this.multiSecond.get(first);
        if (seconds === undefined) {
          seconds = new Map();
          this.multiSecond.set(first, seconds);
        }
        if (n > (seconds.get(second) ?? 0)) seconds.set(second, n);
      }
    });
    this.termStats = TermStats.fromTable(
      snapshot.termstats.entries,
      snapshot.termstats.documents,
      snapshot.termstats.source,
    );
    const words: string[] = [];
    const freqs: number[] = [];
    eachCountRow(snapshot.spelling, (k, v) => {
      words.push(k);
      freqs.push(v);
    });
    const misspellings = new Map<string, string>();
    eachRow(snapshot.misspellings, (k, v) => {
      misspellings.set(k, v);
    });
    this.spelling = new SpellingCorrector({ words, counts: freqs, misspellings });
    this.foreign = new PackedCounts(snapshot.foreign ?? "");
  }

  foreignLanguages(word: string): number {
    return this.foreign.get(word) ?? 0;
  }

  get phraseCount(): number {
    return this.phrases.size;
  }

  lookupStems(stems: readonly string[]): readonly number[] | undefined {
    if (stems.length === 1) return this.phrases.get(stems[0]!);
    if (!this.mayStartPhrase(stems)) return undefined;
    return this.phrases.get(stems.join(" "));
  }

  lookupKey(key: string): readonly number[] | undefined {
    return this.phrases.get(key);
  }

  isWeak(stems: readonly string[]): boolean {
    if (stems.length === 1) return this.weak.has(stems[0]!);
    if (!this.mayStartPhrase(stems)) return false;
    return this.weak.has(stems.join(" "));
  }

  lookupWord(word: string): { ids: readonly number[]; weak: boolean } | undefined {
    const key = `=${word}`;
    const ids = this.phrases.get(key);
    return ids === undefined ? undefined : { ids, weak: this.weak.has(key) };
  }

  startsPhrase(stem: string): boolean {
    return this.longestPhrase(stem) >= 2;
  }

  longestPhrase(stem: string): number {
    // A stem holding a space could be the start of any key: no bound.
    if (stem.includes(" ")) return Number.POSITIVE_INFINITY;
    return this.multiFirst.get(stem) ?? 1;
  }

  phraseSeconds(stem: string): ReadonlyMap<string, number> | undefined {
    // A stem holding a space could start any key: no bound.
    return stem.includes(" ") ? undefined : (this.multiSecond.get(stem) ?? EMPTY_SECONDS);
  }

  /** False when no key of two or more words can equal `stems.join(" ")` (a cheap test before building it). */
  private mayStartPhrase(stems: readonly string[]): boolean {
    return stems.length === 0 || this.startsPhrase(stems[0]!);
  }

  lookup(phrase: string): readonly number[] {
    const words = phrase
      .toLowerCase()
      .split(/[^a-z0-9']+/)
      .filter((w) => w !== "");
    const stems = words.map(stem);
    for (let i = 0; i < stems.length; i++) {
      const own = i === stems.length - 1 ? this.lookupWord(words[i]!) : undefined;
      if (own !== undefined) return own.ids;
      const hit = this.phrases.get(stems.slice(i).join(" "));
      if (hit !== undefined) return hit;
    }
    return EMPTY;
  }
}

/** Build the snapshot from the bundled inputs and save it (what `querymask kb build` does). */
export function buildKnowledgeBase(path = DEFAULT_SNAPSHOT, opts: { termstats?: string } = {}): KbSnapshot {
  const snapshot = buildSnapshot(opts);
  saveSnapshot(snapshot, path);
  return snapshot;
}

/**
 * A snapshot is stale when its layout version or (in a checkout) its inputs' fingerprint (build code, bundled
 * tables, package versions) differ from the current ones.
 */
export function isStale(snap: KbSnapshot): boolean {
  if (snap.version !== SNAPSHOT_VERSION) return true;
  // An installed package's code and bundled tables cannot change under a snapshot it shipped or built.
  if (prebuilt() !== undefined) return false;
  const termstats = snap.termstatsFile;
  return (
    snap.fingerprint !==
    buildFingerprint(termstats !== undefined && existsSync(termstats) ? termstats : undefined)
  );
}

const loaded = new Map<string, Promise<KnowledgeBase>>();

/**
 * Load the knowledge base from its snapshot, building the snapshot first if it is missing or stale (saying so to
 * `notice`, stderr by default). Loaded once per process and path; later calls share it.
 */
export function loadKnowledgeBase(path = DEFAULT_SNAPSHOT, notice?: Notice): Promise<KnowledgeBase> {
  let p = loaded.get(path);
  if (p === undefined) {
    p = (async () => {
      let snap = readSnapshot(path);
      if (snap === undefined || isStale(snap)) {
        const termstats = snap?.termstatsFile;
        const built = announceBuild(path, snap === undefined ? "missing" : "stale", notice);
        snap = buildKnowledgeBase(
          path,
          termstats !== undefined && existsSync(termstats) ? { termstats } : {},
        );
        built();
      }
      return new SnapshotKnowledgeBase(snap);
    })();
    loaded.set(path, p);
    p.catch(() => loaded.delete(path));
  }
  return p;
}
