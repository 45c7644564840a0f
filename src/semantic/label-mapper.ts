/**
 * A stand-in knowledge-base lookup, used until the classifier's `KnowledgeBase.lookup` is available: a phrase
 * maps to the ODP categories whose *label* has the same word stems ("water sports" → Top/Sports/Water_Sports),
 * else, for a one-word phrase, to the categories with that stem among their label words
 * ("diving" → …/Swimming_and_Diving). Labels and phrases are Porter-stemmed alike. Candidates are ranked by the category's AOL prior, then shallower first.
 *
 * Its recall is far below the paper's full ODP (4,871 categories of at most three levels, labels only).
 */
import type { Taxonomy } from "../knowledge/taxonomy.ts";
import { stem as porterStem } from "../text/stem.ts";
import { CategorySpace } from "./category-space.ts";
import { type ConceptMapper, phraseMapper, STOP_WORDS, words } from "./concept-mapper.ts";

/** Phrase → candidate category ids, from the taxonomy's labels. */
export function labelLookup(
  taxonomy: Taxonomy,
  stem: (word: string) => string = porterStem,
): (phrase: string) => readonly number[] {
  const full = new Map<string, number[]>();
  const single = new Map<string, number[]>();
  const push = (m: Map<string, number[]>, key: string, id: number) => {
    const list = m.get(key);
    if (list) {
      if (list[list.length - 1] !== id) list.push(id);
    } else m.set(key, [id]);
  };
  for (const id of taxonomy.ids()) {
    if (taxonomy.depth(id) === 0) continue;
    const stems = words(taxonomy.label(id).replace(/_/g, " "))
      .filter((w) => !STOP_WORDS.has(w))
      .map(stem);
    if (stems.length === 0) continue;
    push(full, stems.join(" "), id);
    for (const s of stems) push(single, s, id);
  }
  const rank = (a: number, b: number) =>
    taxonomy.prior(b) - taxonomy.prior(a) || taxonomy.depth(a) - taxonomy.depth(b) || a - b;
  for (const list of full.values()) list.sort(rank);
  for (const list of single.values()) list.sort(rank);
  return (phrase) => {
    const stems = words(phrase).map(stem);
    if (stems.length === 0) return [];
    const hit = full.get(stems.join(" "));
    if (hit) return hit;
    return stems.length === 1 ? (single.get(stems[0]!) ?? []) : [];
  };
}

/** The stand-in {@link ConceptMapper}: stop-word chunks as units, label stems as the lookup. */
export function labelConceptMapper(taxonomy: Taxonomy): ConceptMapper {
  return phraseMapper({ space: CategorySpace.fromTaxonomy(taxonomy), lookup: labelLookup(taxonomy) });
}
