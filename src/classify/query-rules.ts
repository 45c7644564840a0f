/**
 * Query-level conventions that one semantic unit cannot show (the labelling guide's and ODP's; word lists in
 * rules.ts): another language → World; explicit vocabulary → Adult; web addresses (`.edu`, `.gov`, listed
 * sites, foreign country-code domains); property for sale or rent; company forms; decisive words; a place
 * followed by a newspaper title word (News) or a team nickname (Sports). The classifier checks them before
 * the units.
 */
import type { KnowledgeBase } from "../knowledge/knowledge-base.ts";
import type { Taxonomy } from "../knowledge/taxonomy.ts";
import { type Token, textsOf } from "../text/nlp.ts";
import { isStopword } from "../text/stopwords.ts";
import { mapList } from "../util/elements.ts";
import {
  COMPANY_WORDS,
  DECISIVE_WORDS,
  EXPLICIT_PAIRS,
  EXPLICIT_WORDS,
  FOREIGN_CCTLDS,
  FOREIGN_FUNCTION_WORDS,
  findSite,
  LOCAL_PAIRS,
  LOCAL_WORDS,
  NEWSPAPER_WORDS,
  PROPERTY_WORDS,
  SEX_TOPICS,
  siteCategory,
  spacedSite,
  TEAM_NICKNAMES,
  WEAK_FOREIGN_WORDS,
} from "./rules.ts";
import { type WordFacts, wordFacts } from "./word-facts.ts";

/**
 * A query with at least this many distinct words of one foreign dictionary (words that are no English word),
 * more of them than English words, is World. (Requiring twice as many as English words was measured: it cut
 * the false positives on new AOL World queries from ~15 to ~3 but lost ~50 Spanish, Italian and Portuguese
 * queries with one English word — `gratis`, a country name.)
 */
const FOREIGN_WORDS_MIN = 2;

/** First words of the listed explicit pairs. */
const EXPLICIT_PAIR_FIRST: ReadonlySet<string> = new Set([...EXPLICIT_PAIRS].map((p) => p.split(" ")[0]!));

/** First words of the listed local pairs. */
const LOCAL_PAIR_FIRST: ReadonlySet<string> = new Set([...LOCAL_PAIRS].map((p) => p.split(" ")[0]!));

// What the query rules ask about a word, as bits (`wordFlags`).
const F_ALPHA = 1; // letters only: the rules' `words`
const F_FOREIGN_FUNCTION = 2;
const F_WEAK_FOREIGN = 4;
const F_STOP = 8;
const F_EXPLICIT = 16;
const F_EXPLICIT_PAIR_FIRST = 32;
const F_COMPANY = 64;
const F_DECISIVE = 128;
/** A newspaper title word or a team nickname. */
const F_TITLE = 256;
/** A local word, or the first word of a local pair. */
const F_LOCAL = 512;
/** A word of the phrase rules ("for sale", "to rent", "things to do", "listen to"), or a token with a space. */
const F_PHRASE = 1024;
const PHRASE_WORDS: ReadonlySet<string> = new Set(["for", "to", "things", "listen"]);
const ALPHA_WORD = /^[a-zà-ÿ']+$/;

/** Scratch flags and facts of the tokens of one query. */
let scratch: number[] = new Array<number>(16);
let factsScratch: WordFacts[] = new Array<WordFacts>(16);

/**
 * The word lists a word is in, as F_ bits (kept with the word's facts, `WordFacts.ruleFlags`): `match` ran a
 * regular expression and a dozen set look-ups per word of every query (~3 µs per query, a tenth of a
 * classification), where the look-up of the word's facts it needs anyway now does.
 */
function wordFlags(w: string): number {
  let f = 0;
  if (ALPHA_WORD.test(w)) f |= F_ALPHA;
  if (FOREIGN_FUNCTION_WORDS.has(w)) f |= F_FOREIGN_FUNCTION;
  if (WEAK_FOREIGN_WORDS.has(w)) f |= F_WEAK_FOREIGN;
  if (isStopword(w)) f |= F_STOP;
  if (EXPLICIT_WORDS.has(w)) f |= F_EXPLICIT;
  if (EXPLICIT_PAIR_FIRST.has(w)) f |= F_EXPLICIT_PAIR_FIRST;
  if (COMPANY_WORDS.has(w)) f |= F_COMPANY;
  if (DECISIVE_WORDS.has(w)) f |= F_DECISIVE;
  if (NEWSPAPER_WORDS.has(w) || TEAM_NICKNAMES.has(w)) f |= F_TITLE;
  if (LOCAL_WORDS.has(w) || LOCAL_PAIR_FIRST.has(w)) f |= F_LOCAL;
  if (PHRASE_WORDS.has(w) || w.includes(" ")) f |= F_PHRASE;
  return f;
}

/** The letter-only words of the tokens (the rules' `words`). */
function alphaWords(tokens: readonly Token[], flags: readonly number[]): string[] {
  const words: string[] = [];
  for (let i = 0; i < tokens.length; i++) if (flags[i]! & F_ALPHA) words.push(tokens[i]!.text);
  return words;
}

/** True when an earlier letter-only token has the same text as token `i` (`words.indexOf(w) < i`). */
function seenBefore(tokens: readonly Token[], flags: readonly number[], i: number): boolean {
  const w = tokens[i]!.text;
  for (let k = 0; k < i; k++) if (flags[k]! & F_ALPHA && tokens[k]!.text === w) return true;
  return false;
}

/** Id of an ODP path known to the taxonomy (the rules only name paths that exist), else of its parent. */
export function idOf(tax: Taxonomy, path: string): number {
  return tax.id(path) ?? tax.id(path.slice(0, path.lastIndexOf("/")))!;
}

export class QueryRules {
  private readonly regional: number;

  constructor(private readonly kb: KnowledgeBase) {
    this.regional = kb.taxonomy.id("Top/Regional")!;
  }

  /** True when the word is English as far as the knowledge base can tell. */
  private english(word: string): boolean {
    if (isStopword(word)) return true;
    const f = wordFacts(this.kb, word);
    return f.known || f.ids !== undefined;
  }

  /**
   * Query-level conventions that one unit cannot show (see rules.ts): another language → World; explicit
   * vocabulary → Adult; `.edu` / `.gov` hosts; a place followed by a newspaper title word (News) or a team
   * nickname (Sports). `tokenFacts`: the tokens' facts when the caller has them (else looked up here).
   */
  match(
    query: string,
    tokens: readonly Token[],
    tokenFacts?: readonly WordFacts[],
  ): { id: number; unit: string } | undefined {
    // Which word lists the query's words are in, once per word (see `wordFlags`): most queries hold no word
    // any rule but World looks at, and then those rules are skipped without building their strings.
    const n = tokens.length;
    if (scratch.length < n) scratch = new Array<number>(n);
    const flags = scratch;
    // The words' facts, looked up here once per token (English or not, below), hold their flags too.
    if (factsScratch.length < n) factsScratch = new Array<WordFacts>(n);
    const facts = factsScratch;
    let any = 0;
    for (let i = 0; i < n; i++) {
      const w = tokens[i]!.text;
      const f = tokenFacts?.[i] ?? wordFacts(this.kb, w);
      facts[i] = f;
      if (f.ruleFlags < 0) f.ruleFlags = wordFlags(w);
      flags[i] = f.ruleFlags;
      any |= flags[i]!;
    }
    // World: function words of another language, with the content words mostly not English.
    let count = 0;
    let strong = 0;
    let weak = 0;
    let unknown = 0;
    let known = 0;
    // Content words in each foreign dictionary (bit i = FOREIGN_LEXICONS[i]) that are no English word.
    let langs: number[] | undefined;
    for (let i = 0; i < n; i++) {
      const f = flags[i]!;
      if (!(f & F_ALPHA)) continue;
      count++;
      const w = tokens[i]!.text;
      if (seenBefore(tokens, flags, i)) continue; // each word once (`treo 650 to treo 700`)
      if (f & F_FOREIGN_FUNCTION) strong++;
      else if (f & F_WEAK_FOREIGN) weak++;
      else if (f & F_STOP) continue;
      // English as far as the knowledge base can tell (`english`, the stop words being skipped above).
      else if (facts[i]!.known || facts[i]!.ids !== undefined) known++;
      else {
        unknown++;
        const mask = this.kb.foreignLanguages?.(w) ?? 0;
        for (let b = 0; mask >> b !== 0; b++) {
          if ((mask >> b) & 1) {
            langs ??= [];
            langs[b] = (langs[b] ?? 0) + 1;
          }
        }
      }
    }
    let inOneLanguage = 0;
    for (const c of langs ?? []) if (c !== undefined && c > inOneLanguage) inOneLanguage = c;
    if (
      (strong >= 1 && unknown >= known && count >= 2) ||
      strong >= 2 ||
      (weak >= 1 && unknown >= 2 && unknown > known) ||
      (inOneLanguage >= FOREIGN_WORDS_MIN && inOneLanguage > known)
    )
      return {
        id: idOf(this.kb.taxonomy, "Top/World"),
        unit: alphaWords(tokens, flags).join(" "),
      };
    if (any & (F_EXPLICIT | F_EXPLICIT_PAIR_FIRST)) {
      const adult = this.explicit(alphaWords(tokens, flags));
      if (adult !== undefined) return adult;
    }
    // Every host name has a dot; most queries have none.
    if (query.includes(".")) {
      const site = this.siteRules(query);
      if (site !== undefined) return site;
    }
    if (!(any & (F_PHRASE | F_COMPANY | F_DECISIVE | F_TITLE | F_LOCAL))) return undefined;
    return this.phraseRules(tokens, flags, any);
  }

  // The rules below are methods of their own, called only when a word's flags or a dot say they may apply:
  // `match` runs on every query and stays small, so V8 compiles it quickly (it recompiles it several times over
  // a log's first queries, as new shapes of data arrive; with the rules inlined each took ~50–150 ms).

  /** Explicit vocabulary, a word or a listed pair (of the letter-only `words`) → Adult. */
  private explicit(words: readonly string[]): { id: number; unit: string } | undefined {
    for (let i = 0; i < words.length; i++) {
      const w = words[i]!;
      if (EXPLICIT_WORDS.has(w) && !(w === "sex" && SEX_TOPICS.has(words[i + 1] ?? "")))
        return { id: idOf(this.kb.taxonomy, "Top/Adult"), unit: w };
      if (!EXPLICIT_PAIR_FIRST.has(w)) continue; // build the pair only when it can be listed
      const pair = `${w} ${words[i + 1]}`;
      if (EXPLICIT_PAIRS.has(pair)) return { id: idOf(this.kb.taxonomy, "Top/Adult"), unit: pair };
    }
    return undefined;
  }

  /** A listed site, a `.edu` / `.gov` host, a foreign country-code domain (for a query with a dot). */
  private siteRules(query: string): { id: number; unit: string } | undefined {
    const site = findSite(query);
    // `match.com`, `dictionary . com`: a site listed under its full address (the bare name may mean something else).
    const named =
      site !== undefined ? { name: site.labels.slice(0, -1).join(" "), tld: site.tld } : spacedSite(query);
    if (named !== undefined) {
      const ws = named.name.split(/[\s.-]+/).filter((w) => w !== "");
      const ids = this.kb.lookupStems([...ws.map((w) => wordFacts(this.kb, w).stem), named.tld]);
      if (ids !== undefined && ids.length > 0) return { id: ids[0]!, unit: `${named.name} ${named.tld}` };
    }
    if (site !== undefined) {
      const path = siteCategory(site);
      if (path !== undefined) return { id: idOf(this.kb.taxonomy, path), unit: site.labels.join(".") };
      const name = site.labels[0]!;
      if (FOREIGN_CCTLDS.has(site.tld) && !this.siteIsEnglish(name))
        return { id: idOf(this.kb.taxonomy, "Top/World"), unit: site.labels.join(".") };
    }
    return undefined;
  }

  /**
   * Property for sale or rent, company forms, "things to do", "listen to", decisive words, a place and a title
   * word, a local search (for a query with a word of their lists, `any`: its words' flags together).
   */
  private phraseRules(
    tokens: readonly Token[],
    flags: readonly number[],
    any: number,
  ): { id: number; unit: string } | undefined {
    const all = textsOf(tokens);
    // The phrases below need one of their words as a token of its own (tokens hold no spaces; one that does
    // is flagged F_PHRASE too).
    const text = any & F_PHRASE ? ` ${all.join(" ")} ` : "";
    if (
      (text.includes(" for sale ") || text.includes(" for rent ") || text.includes(" to rent ")) &&
      all.some((w) => PROPERTY_WORDS.has(w))
    )
      return {
        id: idOf(this.kb.taxonomy, "Top/Business/Real_Estate"),
        unit: all.find((w) => PROPERTY_WORDS.has(w))!,
      };
    const words = alphaWords(tokens, flags);
    if (any & F_COMPANY) return { id: idOf(this.kb.taxonomy, "Top/Business"), unit: words.join(" ") };
    if (text.includes(" things to do "))
      return { id: idOf(this.kb.taxonomy, "Top/Recreation/Travel"), unit: "things to do" };
    if (text.startsWith(" listen to ") && words.length > 2)
      return { id: idOf(this.kb.taxonomy, "Top/Arts/Music"), unit: words.slice(2).join(" ") };
    if (any & F_DECISIVE) {
      for (const w of words) {
        const path = DECISIVE_WORDS.get(w);
        if (path !== undefined && words.length > 1) return { id: idOf(this.kb.taxonomy, path), unit: w };
      }
    }
    if (any & F_TITLE) {
      for (let i = 1; i < all.length; i++) {
        const w = all[i]!;
        const news = NEWSPAPER_WORDS.has(w);
        if (!news && !TEAM_NICKNAMES.has(w)) continue;
        const place = this.placeBefore(all, i);
        if (place !== undefined)
          return {
            id: idOf(this.kb.taxonomy, news ? "Top/News/Newspapers" : "Top/Sports"),
            unit: `${place} ${w}`,
          };
      }
    }
    if (!(any & F_LOCAL)) return undefined;
    const local = this.localSearch(all);
    if (local !== undefined) return { id: this.regional, unit: local };
    return undefined;
  }

  /**
   * A local service or office (LOCAL_WORDS, LOCAL_PAIRS) and a place elsewhere in the query: the place, as
   * ODP files local businesses and local government under Regional.
   */
  private localSearch(words: readonly string[]): string | undefined {
    let at = -1;
    let len = 1;
    for (let i = 0; i < words.length && at < 0; i++) {
      if (LOCAL_WORDS.has(words[i]!)) at = i;
      else if (i + 1 < words.length && LOCAL_PAIRS.has(`${words[i]} ${words[i + 1]}`)) {
        at = i;
        len = 2;
      }
    }
    if (at < 0) return undefined;
    for (let end = words.length; end > 0; end--) {
      if (end > at && end - 1 < at + len) continue;
      const place = this.placeBefore(words, end);
      if (place !== undefined) return place;
    }
    return undefined;
  }

  /** A site name is English when one of its hyphen-separated parts is an English word or splits into them. */
  private siteIsEnglish(name: string): boolean {
    return name
      .split("-")
      .filter((w) => w !== "")
      .some((w) => this.english(w) || (this.kb.spelling.split(w)?.every((p) => this.english(p)) ?? false));
  }

  /** The place named by the one to three words just before `words[i]`, if they name one. */
  private placeBefore(words: readonly string[], i: number): string | undefined {
    const tax = this.kb.taxonomy;
    for (let n = Math.min(3, i); n >= 1; n--) {
      const phrase = words.slice(i - n, i);
      if (isStopword(phrase[0]!) || isStopword(phrase[n - 1]!)) continue;
      const facts = mapList(phrase, (w) => wordFacts(this.kb, w));
      const stems = mapList(facts, (f) => f.stem);
      const ids = n === 1 ? facts[0]!.ids : this.kb.lookupStems(stems);
      if (ids === undefined || ids.length === 0) continue;
      if (tax.ancestorAt(ids[0]!, 1) === this.regional && this.kb.isWeak(stems)) return phrase.join(" ");
    }
    return undefined;
  }
}
