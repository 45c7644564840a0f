/**
 * A {@link ConceptMapper} for classified logs: a query maps to the ODP category recorded with it (the `category`
 * column of the classifier's output, or the generator's true category with `--truth`), the first one seen when
 * a query carries several. Paths missing from the taxonomy and unclassified queries map to nothing.
 */
import type { Taxonomy } from "../../knowledge/taxonomy.ts";
import type { LogRecord } from "../../log/record.ts";
import { CategorySpace } from "../../semantic/category-space.ts";
import type { ConceptMapper } from "../../semantic/concept-mapper.ts";

export function recordCategoryMapper(records: readonly LogRecord[], taxonomy: Taxonomy): ConceptMapper {
  const byQuery = new Map<string, readonly number[]>();
  for (const r of records) {
    if (!r.category || byQuery.has(r.query)) continue;
    const id = taxonomy.id(r.category);
    if (id !== undefined && id > 0) byQuery.set(r.query, [id]);
  }
  const none: readonly number[] = [];
  return { space: CategorySpace.fromTaxonomy(taxonomy), map: (q) => byQuery.get(q) ?? none };
}
