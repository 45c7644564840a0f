/**
 * Query-level conventions that one semantic unit cannot show (the labelling guide's and ODP's; word lists in
 * rules.ts): another language → World; explicit vocabulary → Adult; web addresses (`.edu`, `.gov`, listed
 * sites, foreign country-code domains); property for sale or rent; company forms; decisive words; a place
 * followed by a newspaper title word (News) or a team nickname (Sports). The classifier checks them before
 * the units.
 */
import type { KnowledgeBase } from "../knowledge/knowledge-base.ts";
import type { Taxonomy } from "../knowledge/taxonomy.ts";
import type { Token } from "../text/nlp.ts";
import { isStopword } from "../text/stopwords.ts";
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
import { wordFacts } from "./units.ts";

/**
 * A query with at least this many distinct words of one foreign dictionary (words that are no English word),
 * more of them than English words, is World. (Requiring twice as many as English words was measured: it cut
 * the false positives on new AOL World queries from ~15 to ~3 but lost ~50 Spanish, Italian and Portuguese
 * queries with one English word — `gratis`, a country name.)
 */
const FOREIGN_WORDS_MIN = 2;

/** First words of the listed explicit pairs. */
const EXPLICIT_PAIR_FIRST: ReadonlySet<string> = new Set([...EXPLICIT_PAIRS].map((p) => p.split(" ")[0]!));

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
   * nickname (Sports).
   */
  match(query: string, tokens: readonly Token[]): { id: number; unit: string } | undefined {
    const all = tokens.map((t) => t.text);
    const words = all.filter((w) => /^[a-zà-ÿ']+$/.test(w));
    // World: function words of another language, with the content words mostly not English.
    let strong = 0;
    let weak = 0;
    let unknown = 0;
    let known = 0;
    // Content words in each foreign dictionary (bit i = FOREIGN_LEXICONS[i]) that are no English word.
    let langs: number[] | undefined;
    for (let i = 0; i < words.length; i++) {
      const w = words[i]!;
      if (words.indexOf(w) < i) continue; // each word once (`treo 650 to treo 700`)
      if (FOREIGN_FUNCTION_WORDS.has(w)) strong++;
      else if (WEAK_FOREIGN_WORDS.has(w)) weak++;
      else if (isStopword(w)) continue;
      else if (this.english(w)) known++;
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
    for (const n of langs ?? []) if (n !== undefined && n > inOneLanguage) inOneLanguage = n;
    if (
      (strong >= 1 && unknown >= known && words.length >= 2) ||
      strong >= 2 ||
      (weak >= 1 && unknown >= 2 && unknown > known) ||
      (inOneLanguage >= FOREIGN_WORDS_MIN && inOneLanguage > known)
    )
      return { id: idOf(this.kb.taxonomy, "Top/World"), unit: words.join(" ") };
    for (let i = 0; i < words.length; i++) {
      const w = words[i]!;
      if (EXPLICIT_WORDS.has(w) && !(w === "sex" && SEX_TOPICS.has(words[i + 1] ?? "")))
        return { id: idOf(this.kb.taxonomy, "Top/Adult"), unit: w };
      if (!EXPLICIT_PAIR_FIRST.has(w)) continue; // build the pair only when it can be listed
      const pair = `${w} ${words[i + 1]}`;
      if (EXPLICIT_PAIRS.has(pair)) return { id: idOf(this.kb.taxonomy, "Top/Adult"), unit: pair };
    }
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
    const text = ` ${all.join(" ")} `;
    if (
      (text.includes(" for sale ") || text.includes(" for rent ") || text.includes(" to rent ")) &&
      all.some((w) => PROPERTY_WORDS.has(w))
    )
      return {
        id: idOf(this.kb.taxonomy, "Top/Business/Real_Estate"),
        unit: all.find((w) => PROPERTY_WORDS.has(w))!,
      };
    if (all.some((w) => COMPANY_WORDS.has(w)))
      return { id: idOf(this.kb.taxonomy, "Top/Business"), unit: words.join(" ") };
    if (text.includes(" things to do "))
      return { id: idOf(this.kb.taxonomy, "Top/Recreation/Travel"), unit: "things to do" };
    if (text.startsWith(" listen to ") && words.length > 2)
      return { id: idOf(this.kb.taxonomy, "Top/Arts/Music"), unit: words.slice(2).join(" ") };
    for (const w of words) {
      const path = DECISIVE_WORDS.get(w);
      if (path !== undefined && words.length > 1) return { id: idOf(this.kb.taxonomy, path), unit: w };
    }
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
      const facts = phrase.map((w) => wordFacts(this.kb, w));
      const stems = facts.map((f) => f.stem);
      const ids = n === 1 ? facts[0]!.ids : this.kb.lookupStems(stems);
      if (ids === undefined || ids.length === 0) continue;
      if (tax.ancestorAt(ids[0]!, 1) === this.regional && this.kb.isWeak(stems)) return phrase.join(" ");
    }
    return undefined;
  }
}
