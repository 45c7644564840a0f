/**
 * WordNet senses → ODP categories, the core of the lexical bridge (the build in build.ts assembles the phrase
 * table from it). A sense is placed by its own anchor (anchors.ts) or ODP label, else by the first anchor or
 * topic domain met walking up its hypernym / instance-hypernym chain, else by its lexicographer file; a word's
 * senses are then ranked by tag count, sense order and the search prior of their top-level branch.
 */
import { stemKey } from "../text/stem.ts";
import { anchors } from "./anchors.ts";
import type { Taxonomy } from "./taxonomy.ts";
import { words } from "./word-lists.ts";
import type { Synset, WordNet } from "./wordnet.ts";

/** ODP facet labels that name a kind of site, not a subject; never matched to words. */
const FACET_LABELS = new Set(
  "directories|resources|news and media|chats and forums|organizations|education|people|software|weblogs|personal pages|employment|associations|history|reference|publications|events|women|web rings|faqs|help|and tutorials|search engines|regional|international|companies|products and services|related|other|online|services|supplies|equipment|general|guides|consultants|by region|magazines and e-zines|ask an expert|directory|links|home|kids and teens|world|top|youth|clubs|support groups|issues|lifestyle choices|local|future|work|disabled|animal|women's health|men's health|personal|resources and services|information services|other sports|multi-sports|informal sports".split(
    "|",
  ),
);

/** When a synset's hypernym walk meets no anchor, its lexicographer file decides (nouns only). */
const LEXNAME_FALLBACK: Record<string, string> = {
  "noun.location": "Regional",
  "noun.food": "Home/Cooking",
  "noun.plant": "Home/Gardening",
  "noun.animal": "Recreation/Pets",
  "noun.body": "Health",
  "noun.artifact": "Shopping",
  "noun.possession": "Business",
  "noun.person": "Society/People",
};

/** Lexicographer files of synsets that can be places. */
const PLACE_LEXNAMES = new Set(["noun.location", "noun.object", "noun.group"]);

/**
 * Longest chain of hypernym / domain links through which a sense reaches a Science anchor; through a longer one
 * the sense takes its lexicographer file or label instead (`dales`, `span`, `beta` are not Science queries; a
 * topic domain is one link). On the dev set: Science predicted 8 times instead of 14 for 6 true, accuracy
 * unchanged; on the AOL subset the share of distinct queries filed under Science falls from 4.6% to 2.8%; a
 * limit of 1 link also cut clear science queries (cell biology, chemical formulas).
 */
export const SCIENCE_MAX_CHAIN = 2;

/**
 * Lexicographer files of senses that may reach Science through a hypernym chain: ideas, phenomena, processes,
 * quantities, relations, shapes and animals are what a science studies. A thing, a substance or a person that
 * reaches Science only as a kind of compound, rock or scientist (`cleanser`, a boulder) is searched for what it
 * is used for, not for its science; such a sense takes its lexicographer file or label instead, unless a topic
 * domain of its own is a Science anchor. Dev 318 → 320/515 (Science predicted 8 → 6); on 40,000 sampled AOL
 * queries Science's share falls from 2.81% to 1.97%. Leaving animals out too sent insects to Pets (dev −1).
 */
const SCIENCE_CHAIN_LEXNAMES = new Set([
  "noun.cognition",
  "noun.phenomenon",
  "noun.process",
  "noun.quantity",
  "noun.relation",
  "noun.shape",
  "noun.attribute",
  "noun.event",
  "noun.animal",
]);

/** Weight of the top-level search prior when ranking a word's senses (0 = senses only). */
const PRIOR_EXPONENT = 1;

function labelAlternatives(label: string): string[] {
  const plain = label.replace(/_/g, " ").replace(/-/g, " ").toLowerCase();
  return plain
    .split(/,| and /)
    .map((s) => s.trim())
    .filter((s) => s !== "" && /^[a-z0-9' ]+$/.test(s));
}

/** One sense of a word placed in a category: its weight (tag count + rank bonus) and whether it is weak. */
export interface Sense {
  c: number;
  w: number;
  weak: boolean;
}

/** The sense-placing functions and tables of one taxonomy and WordNet (see `senseMapper`). */
export interface SenseMapper {
  /** Category of an ODP path without `Top/`, or of its nearest ancestor the skeleton has. */
  resolve(path: string): number;
  /** Top-level branch of a category. */
  top(id: number): number;
  /** ODP labels (stemmed keys) → categories, best first; facets left out. */
  readonly labelIndex: ReadonlyMap<string, number[]>;
  /** Anchors by stemmed key (for the phrase table). */
  readonly anchorIndex: ReadonlyMap<string, number>;
  /** Anchors by exact WordNet lemma (for the hypernym walk). */
  readonly anchorLemma: ReadonlyMap<string, number>;
  /** The anchor of a synset itself (`onChain`: met on a hypernym walk, head lemma only), or -1. */
  anchorOf(s: Synset, onChain: boolean): number;
  /** The first anchor or topic domain met walking up from a synset (-1 = none) … */
  walk(key: string): number;
  /** … and how many links away it was (0 = the synset's own). */
  walkDistance(key: string): number;
  /** The category of one sense of `lemma`, or -1. */
  synsetCategory(s: Synset, lemma: string): number;
  /** A word's sense categories, best branch first; weak when its best sense is. */
  rankSenses(senses: readonly Sense[]): { ids: number[]; weak: boolean };
  /** Weight of a word's sense: WordNet tag count plus 1/(rank + 1). */
  senseWeight(lemma: string, key: string, rank: number): number;
  /** The sense names a place or a person: a qualifier more often than a query's topic. */
  isWeak(s: Synset, c: number): boolean;
  /** The sense is only "some artifact" (bare Shopping through a general anchor or the lexicographer file). */
  isGeneric(s: Synset, c: number): boolean;
}

export function senseMapper(taxonomy: Taxonomy, wn: WordNet): SenseMapper {
  // Subtree priors rank homonym categories (ids are parents-first, so walk backwards).
  const subtree = new Float64Array(taxonomy.size);
  for (const id of taxonomy.ids()) subtree[id] = taxonomy.prior(id);
  for (let id = taxonomy.size - 1; id > 0; id--) subtree[taxonomy.parent(id)]! += subtree[id]!;

  const resolve = (path: string): number => {
    let p = path;
    for (;;) {
      const id = taxonomy.id(`Top/${p}`);
      if (id !== undefined) return id;
      const cut = p.lastIndexOf("/");
      if (cut < 0) throw new Error(`anchor path ${path} has no known ancestor`);
      p = p.slice(0, cut);
    }
  };

  // ODP labels → categories, best (largest subtree prior, then shallower) first.
  const labelIndex = new Map<string, number[]>();
  for (const id of taxonomy.ids()) {
    if (taxonomy.depth(id) < 1) continue;
    for (const alt of labelAlternatives(taxonomy.label(id))) {
      if (FACET_LABELS.has(alt) || alt.replace(/[^a-z]/g, "").length <= 2) continue; // facets, "A"–"Z" listings
      const key = stemKey(words(alt));
      const list = labelIndex.get(key) ?? [];
      list.push(id);
      labelIndex.set(key, list);
    }
  }
  // A label repeated under three or more parents is a facet ("Players", "Schools", "Europe"), not a topic:
  // keep only its top-level and second-level uses.
  for (const [key, list] of labelIndex) {
    const parents = new Set(list.filter((id) => taxonomy.depth(id) >= 3).map((id) => taxonomy.parent(id)));
    const kept = parents.size >= 3 ? list.filter((id) => taxonomy.depth(id) <= 2) : list;
    if (kept.length === 0) labelIndex.delete(key);
    else {
      kept.sort((a, b) => subtree[b]! - subtree[a]! || taxonomy.depth(a) - taxonomy.depth(b) || a - b);
      labelIndex.set(key, kept);
    }
  }

  // Anchors by stemmed key (for the phrase table) and by exact WordNet lemma (for the hypernym walk: stems
  // collide across concepts, `communication` and `community` are both `commun`).
  const regionalTop = taxonomy.id("Top/Regional")!;
  const anchorIndex = new Map<string, number>();
  const anchorLemma = new Map<string, number>();
  for (const [word, path] of anchors()) {
    const id = resolve(path);
    anchorIndex.set(stemKey(words(word)), id);
    anchorLemma.set(word, id);
  }

  // An anchor names a concept, not every sense of its word: on a hypernym chain it must be the synset's head
  // (first) lemma (`discussion, give-and-take, word` is not the anchor `word`), places must be locations, objects
  // or groups (`state` the condition is not a place), and attribute synsets take no anchor (`property` the
  // quality is not real estate).
  const anchorOf = (s: Synset, onChain: boolean): number => {
    if (s.lexname === "noun.attribute" || s.lexname === "noun.relation") return -1;
    const lemmas = onChain ? s.lemmas.slice(0, 1) : s.lemmas;
    for (const l of lemmas) {
      const a = anchorLemma.get(l);
      if (a === undefined) continue;
      if (taxonomy.ancestorAt(a, 1) === regionalTop && !PLACE_LEXNAMES.has(s.lexname)) continue;
      return a;
    }
    return -1;
  };
  const walkMemo = new Map<string, number>();
  // Links from a synset to the synset whose anchor or domain the walk found (0 = its own).
  const walkDist = new Map<string, number>();
  const walk = (key: string, depth: number): number => {
    const memo = walkMemo.get(key);
    if (memo !== undefined) return memo;
    const s = wn.synsets.get(key);
    let found = -1;
    let dist = 0;
    if (s !== undefined && depth < 20) {
      found = anchorOf(s, depth > 0);
      for (const next of [...s.domains, ...s.hypernyms]) {
        if (found >= 0) break;
        found = walk(next, depth + 1);
        if (found >= 0) dist = 1 + (walkDist.get(next) ?? 0);
      }
    }
    walkMemo.set(key, found);
    walkDist.set(key, dist);
    return found;
  };
  // Own level: an anchor on any synonym, else the first anchor or topic domain up the hypernym chain, else the
  // lexicographer file. The word's own ODP label (synonyms are too loose for labels: `heart` shares a synset with
  // `pump`) refines that only inside the same top-level branch (`soccer`: Sports/Soccer, not Sports); a label in
  // another branch is a homonym of a different sense (`pool` the swimming pool is not Sports/Cue_Sports/Pool).
  // With neither anchor nor walk, a shallow label (depth <= 2) beats the lexicographer guess; a deep one is
  // taken only if nothing else places the sense.
  const top = (id: number) => taxonomy.ancestorAt(id, 1);
  const scienceTop = taxonomy.id("Top/Science")!;
  // A sense reaching Science through its hypernyms counts as Science only within SCIENCE_MAX_CHAIN links and
  // from a lexicographer file of what sciences study, or when one of its own topic domains is a Science anchor.
  const scienceChain = (s: Synset): boolean =>
    s.domains.some((d) => {
      const c = walk(d, 1);
      return c >= 0 && top(c) === scienceTop && walkDist.get(d) === 0;
    }) ||
    ((walkDist.get(s.key) ?? 0) <= SCIENCE_MAX_CHAIN && SCIENCE_CHAIN_LEXNAMES.has(s.lexname));
  const synsetCategory = (s: Synset, lemma: string): number => {
    const lab = labelIndex.get(stemKey(words(lemma)))?.[0];
    let base = anchorOf(s, false);
    if (base < 0) {
      base = walk(s.key, 0);
      // Science reached only through a distant hypernym (`cleaner` → … → compound → Chemistry, `dale` → … →
      // geological formation) names what a thing is made of, not what a query about it is for.
      if (base >= 0 && top(base) === scienceTop && !scienceChain(s)) base = -1;
    }
    if (base >= 0) return lab !== undefined && top(lab) === top(base) ? lab : base;
    const fbPath = LEXNAME_FALLBACK[s.lexname];
    const fb = fbPath === undefined ? -1 : resolve(fbPath);
    if (lab === undefined) return fb;
    if (fb >= 0 && top(fb) === top(lab)) return lab;
    if (taxonomy.depth(lab) <= 2 || fb < 0) return lab;
    return fb;
  };

  // Web-search prior of each top-level branch: AOL queries in its subtree (the skeleton's counts); branches
  // the skeleton lacks get the median. Used to weigh a word's senses towards what people search for.
  const topPrior = new Map<number, number>();
  {
    const tops = taxonomy.topLevels();
    const counts = tops
      .map((t) => subtree[t]!)
      .filter((c) => c > 0)
      .sort((a, b) => a - b);
    const median = counts[counts.length >> 1] ?? 1;
    const max = counts[counts.length - 1] ?? 1;
    for (const t of tops) topPrior.set(t, (subtree[t]! > 0 ? subtree[t]! : median) / max);
  }

  /**
   * Order a word's sense categories: each sense weighs its WordNet tag count plus a rank bonus (sense order is
   * frequency order even where nothing was tagged); a top-level branch scores the sum of its senses' weights
   * times its search prior; categories come best branch first, heaviest sense first inside it.
   */
  const rankSenses = (
    senses: readonly { c: number; w: number; weak: boolean }[],
  ): { ids: number[]; weak: boolean } => {
    const score = new Map<number, number>();
    for (const x of senses) score.set(top(x.c), (score.get(top(x.c)) ?? 0) + x.w);
    for (const [t, v] of score) score.set(t, v * (topPrior.get(t) ?? 1) ** PRIOR_EXPONENT);
    const order = senses
      .map((x, i) => ({ ...x, i }))
      .sort((a, b) => score.get(top(b.c))! - score.get(top(a.c))! || b.w - a.w || a.i - b.i);
    return { ids: order.map((x) => x.c), weak: order[0]?.weak ?? false };
  };
  const senseWeight = (lemma: string, key: string, rank: number) =>
    (wn.tagCounts.get(`${lemma}|${key}`) ?? 0) + 1 / (rank + 1);

  const regional = taxonomy.id("Top/Regional")!;
  const people = taxonomy.id("Top/Society/People")!;
  const isWeak = (s: Synset, c: number) =>
    s.instance ||
    s.lexname === "noun.person" ||
    s.lexname === "noun.location" ||
    taxonomy.ancestorAt(c, 1) === regional ||
    c === people;
  // A thing placed only as "some artifact" (bare Top/Shopping through a general anchor on its hypernym chain —
  // device, container, covering — or its lexicographer file) says little about the query's topic: weak, like a
  // place, so a more telling unit of the query decides.
  const shoppingTop = taxonomy.id("Top/Shopping")!;
  const isGeneric = (s: Synset, c: number) => c === shoppingTop && anchorOf(s, false) < 0;

  return {
    resolve,
    top,
    labelIndex,
    anchorIndex,
    anchorLemma,
    anchorOf,
    walk: (key) => walk(key, 0),
    walkDistance: (key) => walkDist.get(key) ?? 0,
    synsetCategory,
    rankSenses,
    senseWeight,
    isWeak,
    isGeneric,
  };
}
