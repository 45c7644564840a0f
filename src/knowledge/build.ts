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

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { stemKey } from "../text/stem.ts";
import { anchors } from "./anchors.ts";
import { type KbSnapshot, type SnapshotInput, toTable } from "./snapshot.ts";
import { parseMisspellings } from "./spelling.ts";
import { BUNDLED_TAXONOMY, Taxonomy } from "./taxonomy.ts";
import { BUNDLED_TERMSTATS, TermStats } from "./termstats.ts";
import { readWordNet, type Synset, type WordNet } from "./wordnet.ts";

export const BUNDLED_SITES = fileURLToPath(new URL("../../data/knowledge/sites.tsv", import.meta.url));

/** Bump when the snapshot layout or the build rules change: stale cached snapshots are rebuilt. */
export const SNAPSHOT_VERSION = 11;

/** ODP facet labels that name a kind of site, not a subject; never matched to words. */
const FACET_LABELS = new Set(
  "directories|resources|news and media|chats and forums|organizations|education|people|software|weblogs|personal pages|employment|associations|history|reference|publications|events|women|web rings|faqs|help|and tutorials|search engines|regional|international|companies|products and services|related|other|online|services|supplies|equipment|general|guides|consultants|by region|magazines and e-zines|ask an expert|directory|links|home|kids and teens|world|top|youth|clubs|support groups|issues|lifestyle choices|local|future|work|disabled|animal|women's health|men's health|personal|resources and services|information services|other sports|multi-sports|informal sports".split(
    "|",
  ),
);

/** US postal state codes (those that are not also common English words), for "map of pa", "nj court". */
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

function words(phrase: string): string[] {
  return phrase.split(/[\s-]+/).filter((w) => w !== "");
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

  const anchorIndex = new Map<string, number>();
  for (const [word, path] of anchors()) anchorIndex.set(stemKey(words(word)), resolve(path));

  const walkMemo = new Map<string, number>();
  const walk = (key: string, depth: number): number => {
    const memo = walkMemo.get(key);
    if (memo !== undefined) return memo;
    const s = wn.synsets.get(key);
    let found = -1;
    if (s !== undefined && depth < 20) {
      for (const l of s.lemmas) {
        const a = anchorIndex.get(stemKey(words(l)));
        if (a !== undefined) {
          found = a;
          break;
        }
      }
      for (let i = 0; found < 0 && i < s.domains.length; i++) found = walk(s.domains[i]!, depth + 1);
      for (let i = 0; found < 0 && i < s.hypernyms.length; i++) found = walk(s.hypernyms[i]!, depth + 1);
    }
    walkMemo.set(key, found);
    return found;
  };
  // Own level: an anchor on any synonym, else an ODP label equal to the word itself (synonyms are too loose
  // for labels: `heart` shares a synset with `pump`).
  // A label inside the anchor's branch is the more specific answer (`soccer`: Sports/Soccer, not Sports).
  const synsetCategory = (s: Synset, lemma: string): number => {
    const lab = labelIndex.get(stemKey(words(lemma)))?.[0];
    for (const l of s.lemmas) {
      const a = anchorIndex.get(stemKey(words(l)));
      if (a !== undefined) return lab !== undefined && taxonomy.lca(lab, a) === a ? lab : a;
    }
    if (lab !== undefined) return lab;
    const w = walk(s.key, 0);
    if (w >= 0) return w;
    const fb = LEXNAME_FALLBACK[s.lexname];
    return fb === undefined ? -1 : resolve(fb);
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

  for (const [lemma, keys] of wn.nouns) {
    if (lemma.replace(/[^a-z]/g, "").length <= 2) continue; // `pa`, `mt`, `in`: symbols and abbreviations
    const ids: number[] = [];
    let firstWeak = false;
    for (const k of keys.slice(0, 4)) {
      const s = wn.synsets.get(k);
      if (s === undefined) continue;
      const c = synsetCategory(s, lemma);
      if (c < 0) continue;
      if (ids.length === 0) firstWeak = isWeak(s, c);
      ids.push(c);
    }
    const key = stemKey(words(lemma));
    if (ids.length > 0 && !phrases.has(key) && firstWeak) weak.add(key);
    addAll(key, ids);
  }
  for (const [lemma, keys] of wn.adjectives) {
    if (lemma.length <= 2) continue;
    const ids: number[] = [];
    let firstWeak = false;
    for (const k of keys.slice(0, 3)) {
      const s = wn.synsets.get(k);
      for (const n of s?.nounLinks ?? []) {
        const ns = wn.synsets.get(n);
        const c = ns === undefined ? -1 : synsetCategory(ns, ns.lemmas[0]!);
        if (c < 0) continue;
        if (ids.length === 0) firstWeak = isWeak(ns!, c);
        ids.push(c);
      }
    }
    const key = stemKey(words(lemma));
    if (ids.length > 0 && !phrases.has(key) && firstWeak) weak.add(key);
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

  const sites = readFileSync(BUNDLED_SITES, "utf8")
    .split("\n")
    .filter((l) => l !== "" && !l.startsWith("#"))
    .map((l) => l.split("\t") as [string, string]);
  for (const [name, path] of sites) {
    const key = stemKey(words(name));
    addAll(key, [resolve(path)], true);
    weak.delete(key);
  }
  for (const code of US_STATE_CODES) {
    if (!phrases.has(code)) {
      addAll(code, [regional]);
      weak.add(code);
    }
  }

  // Spelling vocabulary: single dictionary words, weighted by their references.
  const vocab = new Map<string, number>();
  const addWord = (w: string) => {
    if (!/^[a-z]{2,}$/.test(w) || vocab.has(w)) return;
    const c = termStats.count(stemKey([w]));
    if (c !== undefined) vocab.set(w, c);
  };
  for (const l of wn.nouns.keys()) for (const w of words(l)) addWord(w);
  for (const l of wn.adjectives.keys()) for (const w of words(l)) addWord(w);
  for (const [name] of sites) for (const w of words(name)) addWord(w);
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
    { name: "web sites", source: BUNDLED_SITES, licence: "Apache-2.0 (querymask)", entries: sites.length },
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
  };
}
