/**
 * Clicked URLs. Every query has a fixed virtual result list: result `rank` of query `q` is a pure function of
 * (salt, q, rank), so two users who click the same result of the same query click the same URL — the
 * query–click graph that methods like Poblete et al.'s work on. A result's domain is made from the query's
 * own words (the calibrated share of AOL clicks whose domain contains a query word), from the category's
 * words, or is one of a few large sites. Written as AOL logged them: `http://www.name.tld`, domain only.
 */

import { fmix32 } from "../util/hash.ts";
import type { Calibration } from "./calibration.ts";
import { Discrete } from "./sampling.ts";
import type { Topics } from "./topics.ts";
import { DOMAIN_ENDINGS, GLOBAL_SITES, OTHER_TLDS } from "./words.ts";

const TWO32 = 4294967296;

export class ClickUrls {
  private readonly tldNames: string[];
  private readonly tlds: Discrete;
  private readonly fromQuery: number;
  /** Of the rest, the share that goes to category sites (the remainder to the large sites). */
  private readonly fromCategory = 0.6;

  constructor(
    private readonly topics: Topics,
    cal: Calibration,
    private readonly salt: number,
  ) {
    this.tldNames = Object.keys(cal.clicks.tld);
    this.tlds = new Discrete(this.tldNames.map((k) => cal.clicks.tld[k]!));
    this.fromQuery = cal.clicks.queryWordInDomain;
  }

  /**
   * The URL at `rank` in the results of the query whose text hashes to `queryHash` (see `hashString`).
   * `c` is the query's category, or -1 when it has none in the taxonomy.
   */
  url(query: string, queryHash: number, c: number, rank: number): string {
    let h = fmix32(queryHash ^ Math.imul(rank, 0x9e3779b1) ^ this.salt);
    const u = h / TWO32;
    h = fmix32(h + 0x6d2b79f5);
    if (u < this.fromQuery) {
      const name = this.queryName(query, h);
      // Numbers (phone, SSN-like) make no domain name: those clicks go to the large sites.
      const c0 = name.charCodeAt(0);
      if (c0 < 48 || c0 > 57) return `http://www.${name}${this.ending(h)}.${this.tld(h)}`;
    }
    const v = (u - this.fromQuery) / (1 - this.fromQuery);
    if (c >= 0 && v < this.fromCategory) {
      // Few sites per category, skewed: most clicks go to the category's first sites.
      const idx = Math.floor(((h >>> 8) / 16777216) ** 2 * 12);
      const g = fmix32(this.salt ^ Math.imul(c + 1, 0x85ebca6b) ^ idx);
      const name = this.topics.relatedTerm(c, g / TWO32).replace(/ /g, "");
      return `http://www.${name}${this.ending(g)}.${this.tld(g)}`;
    }
    return GLOBAL_SITES[h % GLOBAL_SITES.length]!;
  }

  /** One or two adjacent words of the query, run together ("soccer cleats" → "soccercleats"). */
  private queryName(query: string, h: number): string {
    // Scan instead of split(): this runs for about half of all clicks.
    let words = 1;
    for (let i = 0; i < query.length; i++) if (query.charCodeAt(i) === 32) words++;
    let wanted = h % words;
    let from = 0;
    while (wanted-- > 0) from = query.indexOf(" ", from) + 1;
    let to = query.indexOf(" ", from);
    if ((h & 0x100) !== 0 && to >= 0) {
      const next = query.indexOf(" ", to + 1);
      const name = query.slice(from, to) + query.slice(to + 1, next < 0 ? query.length : next);
      return name === "" ? "web" : name;
    }
    if (to < 0) to = query.length;
    return to > from ? query.slice(from, to) : "web";
  }

  private ending(h: number): string {
    return DOMAIN_ENDINGS[(h >>> 4) % DOMAIN_ENDINGS.length]!;
  }

  private tld(h: number): string {
    const k = this.tldNames[this.tlds.at((h >>> 12) / 1048576)]!;
    return k === "other" ? OTHER_TLDS[(h >>> 20) % OTHER_TLDS.length]! : k;
  }
}
