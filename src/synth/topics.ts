/**
 * Topics and query text. Every ODP category with a prior gets a *virtual* vocabulary: query number `rank`
 * (1 = most popular) of category `c` is a pure function of (salt, c, rank), built from the category's label,
 * its neighbours in the taxonomy and topic-free modifiers. Nothing is stored per query, so the vocabulary can
 * be as large as AOL's ten million distinct queries while memory stays flat; popularity within a category is
 * Zipf. The salt comes from the run's seeded Rng, so the seed fixes the wording as well.
 *
 * The words are the category's own words ("Top/Sports/Soccer" → "soccer", "soccer clubs dallas"), so a
 * classifier has something real to map, and the true category is known for `--truth`.
 */
import type { Taxonomy } from "../knowledge/taxonomy.ts";
import { fmix32 } from "../util/hash.ts";
import type { Rng } from "../util/random.ts";
import type { Calibration } from "./calibration.ts";
import { AliasTable, Discrete, Zipf } from "./sampling.ts";
import { GENERIC_LABELS, OPENERS, PLACES, PREFIXES, SUFFIXES } from "./words.ts";

/** "Conditions_and_Diseases" → ["conditions", "diseases"]; "Yahoo_Inc." → ["yahoo inc"]. */
export function labelPhrases(label: string): string[] {
  return label
    .toLowerCase()
    .split(/_and_|,/)
    .map((p) =>
      p
        .replace(/[_-]/g, " ")
        .replace(/[^a-z0-9 ]/g, "")
        .replace(/\s+/g, " ")
        .trim(),
    )
    .filter((p) => p.length > 1);
}

interface Terms {
  /** What the category is about: its own label, or its nearest meaningful ancestor's. */
  core: string[];
  /** Neighbouring topics: children, siblings, the ancestor. Used as extra words and by reformulations. */
  related: string[];
}

/** Ranks 1..HEAD of each category are kept once built: they take a large share of all draws. */
const HEAD = 32;

export class Topics {
  /** Category ids that can be drawn (positive weight). */
  readonly categories: Int32Array;
  private readonly global: AliasTable;
  private readonly vocab: Int32Array;
  private readonly zipfs: (Zipf | undefined)[];
  private readonly terms: (Terms | undefined)[];
  private readonly length: Discrete;
  /** Built head queries per category (a miss-heavy cache over the whole vocabulary costs more than it saves). */
  private readonly head: (string[] | undefined)[];
  /** Scratch for build(): words placed before and after the core phrase. */
  private readonly before: string[] = [];
  private readonly after: string[] = [];

  constructor(
    readonly taxonomy: Taxonomy,
    private readonly cal: Calibration,
    private readonly salt: number,
  ) {
    const weights = topicWeights(taxonomy, cal);
    const ids: number[] = [];
    const ws: number[] = [];
    for (let id = 0; id < weights.length; id++) {
      if (weights[id]! > 0) {
        ids.push(id);
        ws.push(weights[id]!);
      }
    }
    this.categories = Int32Array.from(ids);
    this.global = new AliasTable(ws);
    this.vocab = new Int32Array(taxonomy.size);
    for (let i = 0; i < ids.length; i++) {
      this.vocab[ids[i]!] = Math.max(20, Math.round(cal.queries.vocabulary * ws[i]!));
    }
    this.zipfs = new Array(taxonomy.size);
    this.terms = new Array(taxonomy.size);
    this.head = new Array(taxonomy.size);
    this.length = new Discrete(cal.queries.lengthWords);
  }

  /** A category drawn from the global topic mix. */
  sampleCategory(rng: Rng): number {
    return this.categories[this.global.sample(rng)]!;
  }

  /** A query of category `c`, by Zipf popularity. */
  sampleQuery(c: number, rng: Rng): string {
    let z = this.zipfs[c];
    if (z === undefined) {
      z = new Zipf(Math.max(1, this.vocab[c]!), this.cal.queries.zipfExponent);
      this.zipfs[c] = z;
    }
    return this.text(c, z.sample(rng));
  }

  /** The text of query `rank` of category `c`: the same arguments always give the same text. */
  text(c: number, rank: number): string {
    if (rank > HEAD) return this.build(c, rank);
    let cached = this.head[c];
    if (cached === undefined) {
      cached = new Array<string>(HEAD + 1).fill("");
      this.head[c] = cached;
    }
    let q = cached[rank]!;
    if (q === "") {
      q = this.build(c, rank);
      cached[rank] = q;
    }
    return q;
  }

  /** A word or phrase related to category `c`, for reformulations and click domains. */
  relatedTerm(c: number, u: number): string {
    const t = this.termsOf(c);
    const pool = u < 0.5 ? t.related : t.core;
    return pool.length > 0 ? pool[Math.floor(((u * 2) % 1) * pool.length)]! : t.core[0]!;
  }

  /** The words a category's queries are built from. */
  termsOf(c: number): Terms {
    let t = this.terms[c];
    if (t === undefined) {
      t = computeTerms(this.taxonomy, c);
      this.terms[c] = t;
    }
    return t;
  }

  private build(c: number, rank: number): string {
    const t = this.termsOf(c);
    // A hash stream seeded by (salt, category, rank); `>>> 2` keeps values small integers for fast `%`.
    let h = fmix32(this.salt ^ Math.imul(c + 1, 0x9e3779b1) ^ fmix32(rank));
    const core = t.core[(h >>> 2) % t.core.length]!;
    if (rank === 1) return core;
    h = fmix32((h + 0x6d2b79f5) | 0);
    const target = this.length.at(h / 4294967296) + 1;
    const before = this.before;
    const after = this.after;
    let nb = 0;
    let na = 0;
    let words = countWords(core);
    let opener = "";
    for (let step = 0; step < 8 && words < target; step++) {
      h = fmix32((h + 0x6d2b79f5) | 0);
      const r = (h >>> 2) % 100;
      h = fmix32((h + 0x6d2b79f5) | 0);
      const x = h >>> 2;
      let piece: string;
      let front = false;
      if (r < 28) {
        piece = PREFIX_LIST[x % PREFIX_LIST.length]!;
        front = true;
      } else if (r < 58) {
        piece = SUFFIX_LIST[x % SUFFIX_LIST.length]!;
      } else if (r < 80 && t.related.length > 0) {
        piece = t.related[x % t.related.length]!;
        // A long neighbour label would overshoot the target length: a one-word modifier instead.
        if (words + countWords(piece) > target + 1) piece = SUFFIX_LIST[x % SUFFIX_LIST.length]!;
        front = r >= 70;
      } else if (r < 90) {
        piece = PLACE_LIST[x % PLACE_LIST.length]!;
      } else if (opener === "") {
        // Question openers go first, before any prefix ("how to make cheap soap", not "cheap how to …").
        opener = OPENER_LIST[x % OPENER_LIST.length]!;
        words += countWords(opener);
        continue;
      } else {
        piece = t.core[x % t.core.length]!;
      }
      if (piece === core || seen(before, nb, piece) || seen(after, na, piece)) continue; // no "used used models"
      if (front) before[nb++] = piece;
      else after[na++] = piece;
      words += countWords(piece);
    }
    let q = core;
    for (let i = 0; i < nb; i++) q = `${before[i]} ${q}`;
    for (let i = 0; i < na; i++) q = `${q} ${after[i]}`;
    return opener === "" ? q : `${opener} ${q}`;
  }
}

function seen(list: string[], n: number, s: string): boolean {
  for (let i = 0; i < n; i++) if (list[i] === s) return true;
  return false;
}

const PREFIX_LIST = PREFIXES;
const SUFFIX_LIST = SUFFIXES;
const PLACE_LIST = PLACES;
const OPENER_LIST = OPENERS;

function countWords(s: string): number {
  let n = 1;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) === 32) n++;
  return n;
}

interface LabelInfo {
  phrases: string[][];
  /** Whether a label names a topic (not "Directories", not a letter bin). */
  meaningful: Uint8Array;
}

/** Label phrases of every category, computed once per taxonomy (siblings are visited many times). */
const labelCache = new WeakMap<Taxonomy, LabelInfo>();

function labelInfo(taxonomy: Taxonomy): LabelInfo {
  let info = labelCache.get(taxonomy);
  if (info === undefined) {
    const phrases = taxonomy.ids().map((i) => labelPhrases(taxonomy.label(i)));
    const meaningful = new Uint8Array(phrases.length);
    for (let i = 0; i < phrases.length; i++) {
      meaningful[i] = !GENERIC_LABELS.has(taxonomy.label(i).toLowerCase()) && phrases[i]!.length > 0 ? 1 : 0;
    }
    info = { phrases, meaningful };
    labelCache.set(taxonomy, info);
  }
  return info;
}

function phrasesOf(taxonomy: Taxonomy, id: number): string[] {
  return labelInfo(taxonomy).phrases[id]!;
}

function isMeaningful(taxonomy: Taxonomy, id: number): boolean {
  return labelInfo(taxonomy).meaningful[id] === 1;
}

function computeTerms(taxonomy: Taxonomy, c: number): Terms {
  let up = taxonomy.parent(c);
  while (up > 0 && !isMeaningful(taxonomy, up)) up = taxonomy.parent(up);
  const upPhrases = up > 0 ? phrasesOf(taxonomy, up) : [];
  const ownMeaningful = isMeaningful(taxonomy, c);
  const own = ownMeaningful ? phrasesOf(taxonomy, c) : [];
  let core = own.length > 0 ? own : upPhrases;
  if (core.length === 0)
    core = [
      taxonomy
        .label(c)
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, " ")
        .trim() || "web",
    ];
  const related = new Set<string>();
  const add = (id: number) => {
    if (isMeaningful(taxonomy, id)) for (const p of phrasesOf(taxonomy, id)) related.add(p);
  };
  for (const k of taxonomy.children(c)) add(k);
  const parent = taxonomy.parent(c);
  if (parent > 0) for (const s of taxonomy.children(parent)) if (s !== c && related.size < 24) add(s);
  for (const p of upPhrases) related.add(p);
  if (!ownMeaningful) for (const p of phrasesOf(taxonomy, c)) related.add(p);
  for (const p of core) related.delete(p);
  return { core, related: [...related] };
}

/**
 * Weight of each category: the calibration's top-level mix, shared within each top level by the taxonomy
 * priors. A top level with a share but no priors below it (e.g. Regional in the bundled skeleton) gets its
 * share on the top-level node itself.
 */
export function topicWeights(taxonomy: Taxonomy, cal: Calibration): Float64Array {
  const w = new Float64Array(taxonomy.size);
  const subtotal = new Float64Array(taxonomy.size);
  for (const id of taxonomy.ids()) {
    if (taxonomy.depth(id) === 0) continue;
    const top = taxonomy.ancestorAt(id, 1);
    subtotal[top] = subtotal[top]! + taxonomy.prior(id);
  }
  let total = 0;
  for (const id of taxonomy.ids()) {
    if (taxonomy.depth(id) === 0) continue;
    const top = taxonomy.ancestorAt(id, 1);
    const share = cal.topics.topLevelMix[taxonomy.label(top)] ?? 0;
    if (share <= 0) continue;
    if (subtotal[top]! > 0) w[id] = (share * taxonomy.prior(id)) / subtotal[top]!;
    else if (id === top) w[id] = share;
    total += w[id]!;
  }
  if (!(total > 0)) throw new Error("calibration topics.topLevelMix gives no category a positive weight");
  for (let i = 0; i < w.length; i++) w[i] = w[i]! / total;
  return w;
}
