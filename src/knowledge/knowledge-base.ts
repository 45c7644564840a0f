/**
 * The loaded knowledge base: everything the classifier and the semantic methods need to give a query meaning —
 * the ODP taxonomy, the lexical bridge from phrases to categories, term specificity and spelling data.
 * Built once into a compact snapshot (see build.ts / snapshot.ts); this interface is what the rest of
 * querymask depends on.
 */
import { stem } from "../text/stem.ts";
import { buildSnapshot, SNAPSHOT_VERSION } from "./build.ts";
import {
  DEFAULT_SNAPSHOT,
  type KbSnapshot,
  readSnapshot,
  type SnapshotInput,
  saveSnapshot,
  tableRows,
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
  /** Number of phrase keys in the lexical bridge. */
  readonly phraseCount: number;
  /**
   * Candidate ODP category ids for a (noun) phrase, best first; empty if none. Words are stemmed; when the
   * whole phrase is unknown the leftmost word is dropped until something matches (paper 004 §4.1.2:
   * "exciting water sports" → "water sports").
   */
  lookup(phrase: string): readonly number[];
  /** Exact look-up of a phrase already split into Porter stems (no shortening). */
  lookupStems(stems: readonly string[]): readonly number[] | undefined;
  /**
   * True when the phrase (as stems) names a place or a person — a qualifier more often than a query's topic,
   * so the classifier ranks it after other units.
   */
  isWeak(stems: readonly string[]): boolean;
}

const EMPTY: readonly number[] = Object.freeze([]);

/** A knowledge base held in memory, made from a snapshot. */
export class SnapshotKnowledgeBase implements KnowledgeBase {
  readonly taxonomy: Taxonomy;
  readonly termStats: TermStats;
  readonly spelling: SpellingCorrector;
  readonly inputs: readonly SnapshotInput[];
  private readonly phrases = new Map<string, readonly number[]>();
  private readonly weak = new Set<string>();

  constructor(snapshot: KbSnapshot, taxonomy = Taxonomy.bundled()) {
    this.taxonomy = taxonomy;
    this.inputs = snapshot.inputs;
    const ids = snapshot.categories.map((p) => {
      const id = taxonomy.id(p);
      if (id === undefined)
        throw new Error(`knowledge-base snapshot names unknown category ${p}; rebuild it`);
      return id;
    });
    for (const [key, value] of tableRows(snapshot.phrases)) {
      const weak = value.startsWith("~");
      if (weak) this.weak.add(key);
      const refs = weak ? value.slice(1) : value;
      this.phrases.set(key, Object.freeze(refs.split(",").map((r) => ids[Number(r)]!)));
    }
    const counts: [string, number][] = [];
    for (const [k, v] of tableRows(snapshot.termstats.entries)) counts.push([k, Number(v)]);
    this.termStats = TermStats.fromEntries(counts, snapshot.termstats.documents, snapshot.termstats.source);
    const words: string[] = [];
    const freqs: number[] = [];
    for (const [k, v] of tableRows(snapshot.spelling)) {
      words.push(k);
      freqs.push(Number(v));
    }
    this.spelling = new SpellingCorrector({
      words,
      counts: freqs,
      misspellings: new Map(tableRows(snapshot.misspellings)),
    });
  }

  get phraseCount(): number {
    return this.phrases.size;
  }

  lookupStems(stems: readonly string[]): readonly number[] | undefined {
    return this.phrases.get(stems.join(" "));
  }

  isWeak(stems: readonly string[]): boolean {
    return this.weak.has(stems.join(" "));
  }

  lookup(phrase: string): readonly number[] {
    const stems = phrase
      .toLowerCase()
      .split(/[^a-z0-9']+/)
      .filter((w) => w !== "")
      .map(stem);
    for (let i = 0; i < stems.length; i++) {
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

const loaded = new Map<string, Promise<KnowledgeBase>>();

/**
 * Load the knowledge base from its snapshot, building the snapshot first if it is missing or stale. Loaded
 * once per process and path; later calls share it.
 */
export function loadKnowledgeBase(path = DEFAULT_SNAPSHOT): Promise<KnowledgeBase> {
  let p = loaded.get(path);
  if (p === undefined) {
    p = (async () => {
      let snap = readSnapshot(path);
      if (snap === undefined || snap.version !== SNAPSHOT_VERSION) snap = buildKnowledgeBase(path);
      return new SnapshotKnowledgeBase(snap);
    })();
    loaded.set(path, p);
    p.catch(() => loaded.delete(path));
  }
  return p;
}
