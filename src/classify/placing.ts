/**
 * Where a query's units land (paper 000 Algorithm 1 from the units on): each unit the knowledge base places,
 * with its candidates and its vote; the main unit by Algorithm 1's rule or by the vote; and the fallbacks when
 * no unit places (the whole query as one phrase, then its words, then last resorts, then the identifiers the
 * scrubber removed). The classifier (classifier.ts) runs the steps before and the learned layer after.
 */
import type { KnowledgeBase } from "../knowledge/knowledge-base.ts";
import type { Taxonomy } from "../knowledge/taxonomy.ts";
import type { PiiSpan } from "../scrub/types.ts";
import { isStopword } from "../text/stopwords.ts";
import { emptyList, mapList } from "../util/elements.ts";
import type { PlacedUnit } from "./features.ts";
import { idOf } from "./query-rules.ts";
import { FACET_WORDS, FINANCE_SUFFIX, isUsState, MEDICAL_SUFFIX, SHOPPING_WORDS } from "./rules.ts";
import type { Unit } from "./units.ts";
import { phraseRefs, splitOf, type WordFacts, wordFacts } from "./word-facts.ts";

/** A placed unit with the unit itself (its text is joined only for the answer). */
export interface Placed extends PlacedUnit {
  readonly u: Unit;
}

/** Exponent of the top-level search prior in the "vote" rule (0 = no prior). */
const PRIOR_WEIGHT = 0.5;

/**
 * A word that qualifies a query's subject rather than naming it: a kind of page ("pictures") or a buying word
 * ("cheap", "purchase"; the buying-intent rule uses those).
 */
const isFacet = (w: string) => FACET_WORDS.has(w) || SHOPPING_WORDS.has(w);

/**
 * The search prior of each top-level branch, `(share of AOL queries in its subtree / largest share)^PRIOR_WEIGHT`
 * (branches the skeleton does not count get the median): a vote between branches leans to what people search
 * for. Made with the placer: made on the first vote instead, its branch was first taken after V8 had
 * optimized the vote, which bailed out and was compiled again.
 */
function searchPriors(tax: Taxonomy): Map<number, number> {
  const sums = new Map<number, number>();
  for (const id of tax.ids()) {
    if (id === 0) continue;
    const t = tax.ancestorAt(id, 1);
    sums.set(t, (sums.get(t) ?? 0) + tax.prior(id));
  }
  const counts = [...sums.values()].filter((c) => c > 0).sort((a, b) => a - b);
  const median = counts[counts.length >> 1] ?? 1;
  const max = counts[counts.length - 1] ?? 1;
  const priors = new Map<number, number>();
  for (const [t, c] of sums) priors.set(t, ((c > 0 ? c : median) / max) ** PRIOR_WEIGHT);
  return priors;
}

/** Places the units of one knowledge base's queries (its search priors made once, with the placer). */
export class UnitPlacer {
  private readonly regional: number;
  /** The top-level branches' search priors (`topPrior`). */
  private readonly priors: ReadonlyMap<number, number>;

  constructor(private readonly kb: KnowledgeBase) {
    this.regional = kb.taxonomy.id("Top/Regional")!;
    this.priors = searchPriors(kb.taxonomy);
  }

  /**
   * Algorithm 1: units by increasing references; the first one the knowledge base places wins. A unit that
   * names only a place (Top/Regional) is held back while another unit maps: in "hotels in chicago" the place
   * qualifies the topic (the labelling convention files such queries under the topic, Regional only when the
   * place itself is what is sought).
   */
  mainUnit(units: readonly Unit[]): { id: number; unit: string } | undefined {
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
  voteUnit(placed: readonly Placed[]): { id: number; unit: string } | undefined {
    if (placed.length === 0) return undefined;
    const tax = this.kb.taxonomy;
    // A branch's score is summed over its units in query order, the same additions in the same order as
    // through a map; a few units per query make the quadratic loop cheaper than a map per query.
    const tops = mapList(placed, (p) => tax.ancestorAt(p.id, 1));
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

  /** The units the knowledge base places, each with its candidates, chosen category and vote weight. */
  placeUnits(units: readonly Unit[]): Placed[] {
    const n = this.kb.termStats.documents;
    const tax = this.kb.taxonomy;
    // The unit's text is joined only for the winner.
    const placed = emptyList<Placed>();
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
      placed.push({ id, ids: hit.ids, u, w, weak: hit.weak });
    }
    return placed;
  }

  /** The search prior of a top-level branch (see {@link searchPriors}). */
  private topPrior(top: number): number {
    return this.priors.get(top) ?? 1;
  }

  /**
   * Nothing left to place, but the scrubber removed identifiers: a query made of a private person's name is a
   * people search (Society/People); one made of an address is about that place (Regional).
   */
  identifierFallback(spans: readonly PiiSpan[]): { id: number; unit: string } | undefined {
    const tax = this.kb.taxonomy;
    if (spans.some((s) => s.type === "person_name"))
      return { id: tax.id("Top/Society/People") ?? 0, unit: "" };
    if (spans.some((s) => s.type === "street_address" || s.type === "zip"))
      return { id: this.regional, unit: "" };
    return undefined;
  }

  /** The whole query as one phrase, then its single words by increasing references, then last resorts. */
  fallback(words: readonly string[]): { id: number; unit: string } | undefined {
    const content = words.filter((w) => /[a-z]/.test(w) && !isStopword(w));
    if (content.length === 0) return undefined;
    const found = this.phraseThenWords(content, false);
    if (found !== undefined) return found;
    // Last resorts for words the knowledge base does not know: several words run together (`fishingreels`,
    // even when common enough on the web never to be "misspelt"), then the word-formation suffixes of
    // medicine (`…mycin`, `…itis`) and the endings of bank names (`…bank`, `…fcu`).
    for (const w of content) {
      const f = wordFacts(this.kb, w);
      const parts = f.ids === undefined ? splitOf(this.kb, w, f) : undefined;
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
    const facts = mapList(content, (w) => wordFacts(this.kb, w));
    const whole = this.lookupUnit(
      mapList(facts, (f) => f.stem),
      facts,
    );
    if (whole !== undefined) return { id: whole.ids[0]!, unit: content.join(" ") };
    const n = this.kb.termStats.documents;
    const ranked = mapList(content, (w, i) => ({ w, f: facts[i]!, refs: phraseRefs([facts[i]!], n) })).sort(
      (a, b) => a.refs - b.refs,
    );
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
