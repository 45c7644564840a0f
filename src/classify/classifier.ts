/**
 * The query classifier — paper 000 Algorithm 1, exactly: semantic units → identifier scrub → spelling
 * recommendation → specificity ("entropy": number of web references) → the least-referenced unit that the
 * knowledge base can place is the main unit → its ODP category path.
 *
 * Fallbacks, in order, when the least-referenced unit maps nowhere: the other units by increasing references,
 * then the whole query as one phrase (shortened from the left, paper 004 §4.1.2), then each remaining word.
 * A query with nothing that maps is "unclassified" (category "", id -1): counted, never dropped.
 *
 * Results are cached (LRU) by query text: logs repeat queries heavily (next-page requests, click rows).
 */
import { LRUCache } from "lru-cache";
import { type KnowledgeBase, loadKnowledgeBase } from "../knowledge/knowledge-base.ts";
import { createScrubber, type Scrubber } from "../scrub/scrubber.ts";
import type { PiiSpan, ScrubMode } from "../scrub/types.ts";
import { isStopword } from "../text/stopwords.ts";
import { idOf, QueryRules } from "./query-rules.ts";
import {
  FACET_WORDS,
  FINANCE_SUFFIX,
  isPastYear,
  isUsState,
  MEDICAL_SUFFIX,
  SHOPPING_WORDS,
  shoppingApplies,
} from "./rules.ts";
import { phraseRefs, semanticUnits, type Unit, type WordFacts, wordFacts } from "./units.ts";

export interface Classification {
  /** Full ODP path of the category, e.g. `Top/Sports/Soccer`; "" = unclassified. */
  readonly category: string;
  /** Taxonomy id of the category; -1 if none. */
  readonly categoryId: number;
  /** The main semantic unit (after spelling recommendation); "" when unclassified. */
  readonly unit: string;
  /** The query text after identifier scrubbing — what is released. */
  readonly scrubbed: string;
  /** Identifiers found in the query. */
  readonly spans: readonly PiiSpan[];
  /** The scrubbed text with spelling recommendations applied, when any word was changed. */
  readonly corrected?: string;
}

export interface ClassifierOptions {
  kb?: KnowledgeBase;
  /** LRU cache entries (default 100,000; 0 disables the cache). */
  cacheSize?: number;
  /** Scrub mode for identifiers (default "drop"). */
  scrub?: ScrubMode;
  /**
   * How the main unit is chosen among the units the knowledge base places: "paper" = Algorithm 1's
   * least-referenced unit; "vote" (default) = the units vote for a top-level branch, each with its
   * specificity, weighed by the branch's search prior; the winning branch's most specific unit is the main
   * unit (see docs/classifier.md).
   */
  mainUnit?: "paper" | "vote";
}

/** Exponent of the top-level search prior in the "vote" rule (0 = no prior). */
const PRIOR_WEIGHT = 0.5;

/**
 * A word that qualifies a query's subject rather than naming it: a kind of page ("pictures") or a buying word
 * ("cheap", "purchase"; the buying-intent rule uses those).
 */
const isFacet = (w: string) => FACET_WORDS.has(w) || SHOPPING_WORDS.has(w);

/** Key of the unclassified bucket in the counts of `classifyLog`. */
export const UNCLASSIFIED = "unclassified";

export class Classifier {
  private readonly cache: LRUCache<string, Classification> | undefined;
  private readonly scrubber: Scrubber;
  private readonly regional: number;
  private readonly rules: QueryRules;

  private constructor(
    readonly kb: KnowledgeBase,
    cacheSize: number,
    scrub: ScrubMode,
    private readonly unitRule: "paper" | "vote",
  ) {
    this.cache = cacheSize > 0 ? new LRUCache({ max: cacheSize }) : undefined;
    this.scrubber = createScrubber({ mode: scrub });
    this.regional = kb.taxonomy.id("Top/Regional")!;
    this.rules = new QueryRules(kb);
  }

  static async create(opts: ClassifierOptions = {}): Promise<Classifier> {
    const kb = opts.kb ?? (await loadKnowledgeBase());
    return new Classifier(kb, opts.cacheSize ?? 100_000, opts.scrub ?? "drop", opts.mainUnit ?? "vote");
  }

  /** Classify one query (deterministic: the same text always gives the same answer). */
  classify(query: string): Classification {
    const hit = this.cache?.get(query);
    if (hit !== undefined) return hit;
    const result = this.compute(query);
    this.cache?.set(query, result);
    return result;
  }

  /**
   * A word's spelling recommendation, or undefined to keep it. Known words are never changed. Memoized with the
   * word's facts (words repeat far more than queries do): a pure function of the word and the knowledge base,
   * so shared by every classifier of the same knowledge base. `facts`: the word's, when the caller has them.
   */
  recommend(word: string, facts: WordFacts = wordFacts(this.kb, word)): string | undefined {
    let r = facts.recommendation;
    if (r === undefined) {
      r = this.computeRecommendation(word, facts) ?? "";
      facts.recommendation = r;
    }
    return r === "" ? undefined : r;
  }

  private computeRecommendation(word: string, facts: WordFacts): string | undefined {
    const sp = this.kb.spelling;
    if (isStopword(word)) return undefined;
    const listed = sp.listed(word);
    if (listed !== undefined) return listed;
    if (word.length < 4 || !/^[a-z]+$/.test(word) || facts.known) return undefined;
    if (facts.count !== undefined || facts.ids !== undefined) return undefined;
    return sp.split(word)?.join(" ") ?? sp.nearest(word);
  }

  private compute(query: string): Classification {
    const { text: scrubbed, spans } = this.scrubber.scrub(query);
    let changed = false;
    const { units, tokens, facts } = semanticUnits(scrubbed, this.kb, (w, f) => {
      const r = this.recommend(w, f);
      if (r !== undefined && r !== w) changed = true;
      return r;
    });
    const corrected = changed ? tokens.map((t) => t.text).join(" ") : undefined;
    let found = this.rules.match(query, tokens, facts);
    if (found === undefined) {
      found =
        this.mainUnit(units) ?? this.fallback(tokens.map((t) => t.text)) ?? this.identifierFallback(spans);
      if (found !== undefined && tokens.some((t) => SHOPPING_WORDS.has(t.text))) {
        if (shoppingApplies(this.kb.taxonomy.path(found.id)))
          found = { ...found, id: idOf(this.kb.taxonomy, "Top/Shopping") };
      } else if (
        found !== undefined &&
        this.kb.taxonomy.ancestorAt(found.id, 1) === this.regional &&
        tokens.some((t) => isPastYear(t.text))
      )
        found = { ...found, id: idOf(this.kb.taxonomy, "Top/Society/History") };
    }
    // (built whole, in the order of the fields of Classification: no intermediate objects per query)
    const category = found === undefined ? "" : this.kb.taxonomy.path(found.id);
    const categoryId = found === undefined ? -1 : found.id;
    const unit = found === undefined ? "" : found.unit;
    return corrected !== undefined
      ? { category, categoryId, unit, scrubbed, spans, corrected }
      : { category, categoryId, unit, scrubbed, spans };
  }

  /**
   * Algorithm 1: units by increasing references; the first one the knowledge base places wins. A unit that
   * names only a place (Top/Regional) is held back while another unit maps: in "hotels in chicago" the place
   * qualifies the topic (the labelling convention files such queries under the topic, Regional only when the
   * place itself is what is sought).
   */
  private mainUnit(units: readonly Unit[]): { id: number; unit: string } | undefined {
    if (this.unitRule === "vote") return this.voteUnit(units);
    const n = this.kb.termStats.documents;
    const ranked = units
      .map((u) => ({ u, refs: phraseRefs(u.facts, n) }))
      .sort((a, b) => a.refs - b.refs || a.u.at - b.u.at);
    let held: { id: number; unit: string } | undefined;
    for (const { u } of ranked) {
      const hit = this.lookupUnit(u.stems, u.facts);
      if (hit === undefined) continue;
      const found = { id: hit.ids[0]!, unit: u.words.join(" ") };
      const facet = u.words.every(isFacet);
      if (!hit.weak && !facet && this.kb.taxonomy.ancestorAt(found.id, 1) !== this.regional) return found;
      held ??= found;
    }
    return held;
  }

  /**
   * The "vote" rule: each placed unit votes for its top-level branch with its specificity (`1 + log(N / refs)`;
   * the paper's entropy, so the least-referenced unit still has the largest vote); units that name only a place
   * or a person, or only a kind of page ("pictures", "review"), vote with a tenth. A branch's total is weighed
   * by its search prior (`topPrior`). The winning branch's most specific unit is the main unit. With one placed
   * unit this is Algorithm 1's answer; it differs when several less specific units agree against one rare one.
   */
  private voteUnit(units: readonly Unit[]): { id: number; unit: string } | undefined {
    const n = this.kb.termStats.documents;
    const tax = this.kb.taxonomy;
    // The unit's text is joined only for the winner.
    const placed: { id: number; u: Unit; w: number }[] = [];
    // A unit right before a US state that ends the query names a place when it can ("buffalo ny").
    const last = units[units.length - 1];
    const stateAt = last !== undefined && isUsState(last.words) ? last.at : -1;
    for (const u of units) {
      const hit = this.lookupUnit(u.stems, u.facts);
      if (hit === undefined) continue;
      let id = hit.ids[0]!;
      if (u.at + u.words.length === stateAt && tax.ancestorAt(id, 1) !== this.regional) {
        const place = hit.ids.find((c) => tax.ancestorAt(c, 1) === this.regional);
        if (place !== undefined) id = place;
      }
      const refs = Math.max(1, phraseRefs(u.facts, n));
      let w = Math.log(n / refs) + 1;
      if (hit.weak || tax.ancestorAt(id, 1) === this.regional || u.words.every(isFacet)) w *= 0.1;
      placed.push({ id, u, w });
    }
    if (placed.length === 0) return undefined;
    // A branch's score is summed over its units in query order, the same additions in the same order as
    // through a map; a few units per query make the quadratic loop cheaper than a map per query.
    const tops = placed.map((p) => tax.ancestorAt(p.id, 1));
    let best = placed[0]!;
    let bestScore = -1;
    for (let i = 0; i < placed.length; i++) {
      const t = tops[i]!;
      let sc = 0;
      for (let k = 0; k < placed.length; k++) if (tops[k] === t) sc += placed[k]!.w * this.topPrior(t);
      const p = placed[i]!;
      if (sc > bestScore || (sc === bestScore && p.w > best.w)) {
        best = p;
        bestScore = sc;
      }
    }
    return { id: best.id, unit: best.u.words.join(" ") };
  }

  private priors: Map<number, number> | undefined;

  /**
   * The search prior of a top-level branch, `(share of AOL queries in its subtree / largest share)^PRIOR_WEIGHT`
   * (branches the skeleton does not count get the median): a vote between branches leans to what people
   * search for.
   */
  private topPrior(top: number): number {
    if (this.priors === undefined) {
      const tax = this.kb.taxonomy;
      const sums = new Map<number, number>();
      for (const id of tax.ids()) {
        if (id === 0) continue;
        const t = tax.ancestorAt(id, 1);
        sums.set(t, (sums.get(t) ?? 0) + tax.prior(id));
      }
      const counts = [...sums.values()].filter((c) => c > 0).sort((a, b) => a - b);
      const median = counts[counts.length >> 1] ?? 1;
      const max = counts[counts.length - 1] ?? 1;
      this.priors = new Map();
      for (const [t, c] of sums) this.priors.set(t, ((c > 0 ? c : median) / max) ** PRIOR_WEIGHT);
    }
    return this.priors.get(top) ?? 1;
  }

  /**
   * Nothing left to place, but the scrubber removed identifiers: a query made of a private person's name is a
   * people search (Society/People); one made of an address is about that place (Regional).
   */
  private identifierFallback(spans: readonly PiiSpan[]): { id: number; unit: string } | undefined {
    const tax = this.kb.taxonomy;
    if (spans.some((s) => s.type === "person_name"))
      return { id: tax.id("Top/Society/People") ?? 0, unit: "" };
    if (spans.some((s) => s.type === "street_address" || s.type === "zip"))
      return { id: this.regional, unit: "" };
    return undefined;
  }

  /** The whole query as one phrase, then its single words by increasing references, then last resorts. */
  private fallback(words: readonly string[]): { id: number; unit: string } | undefined {
    const content = words.filter((w) => /[a-z]/.test(w) && !isStopword(w));
    if (content.length === 0) return undefined;
    const found = this.phraseThenWords(content, false);
    if (found !== undefined) return found;
    // Last resorts for words the knowledge base does not know: several words run together (`fishingreels`,
    // even when common enough on the web never to be "misspelt"), then the word-formation suffixes of
    // medicine (`…mycin`, `…itis`) and the endings of bank names (`…bank`, `…fcu`).
    for (const w of content) {
      const parts = wordFacts(this.kb, w).ids === undefined ? this.kb.spelling.split(w) : undefined;
      if (parts === undefined) continue;
      const pieces = parts.filter((p) => !isStopword(p));
      const inner = pieces.length === 0 ? undefined : this.phraseThenWords(pieces, true);
      if (inner !== undefined) return inner;
    }
    for (const w of content) {
      if (wordFacts(this.kb, w).ids !== undefined) continue;
      if (MEDICAL_SUFFIX.test(w)) return { id: idOf(this.kb.taxonomy, "Top/Health"), unit: w };
      if (FINANCE_SUFFIX.test(w))
        return { id: idOf(this.kb.taxonomy, "Top/Business/Financial_Services"), unit: w };
    }
    return undefined;
  }

  /**
   * The words as one phrase, then single words by increasing references (the pieces of a split word skip
   * facet labels such as `players`).
   */
  private phraseThenWords(
    content: readonly string[],
    skipFacets: boolean,
  ): { id: number; unit: string } | undefined {
    const facts = content.map((w) => wordFacts(this.kb, w));
    const whole = this.lookupUnit(
      facts.map((f) => f.stem),
      facts,
    );
    if (whole !== undefined) return { id: whole.ids[0]!, unit: content.join(" ") };
    const n = this.kb.termStats.documents;
    const ranked = content
      .map((w, i) => ({ w, f: facts[i]!, refs: phraseRefs([facts[i]!], n) }))
      .sort((a, b) => a.refs - b.refs);
    for (const { w, f } of ranked) {
      if (f.ids !== undefined && f.ids.length > 0 && !(skipFacets && isFacet(w)))
        return { id: f.ids[0]!, unit: w };
    }
    return undefined;
  }

  /**
   * Exact phrase, then shorter by dropping words from the left (the head noun is on the right); with whether
   * the phrase found is weak. One-word keys come from the words' facts.
   */
  private lookupUnit(
    stems: readonly string[],
    facts: readonly WordFacts[],
  ): { ids: readonly number[]; weak: boolean } | undefined {
    for (let i = 0; i < stems.length; i++) {
      if (i === stems.length - 1) {
        const f = facts[i]!;
        if (f.ids !== undefined && f.ids.length > 0) return { ids: f.ids, weak: f.weak };
        continue;
      }
      if (!facts[i]!.starts) continue;
      const key = i === 0 ? stems : stems.slice(i);
      const ids = this.kb.lookupStems(key);
      if (ids !== undefined && ids.length > 0) return { ids, weak: this.kb.isWeak(key) };
    }
    return undefined;
  }
}
