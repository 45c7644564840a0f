/**
 * The loaded knowledge base: everything the classifier and the semantic methods need to give a query meaning.
 * Built once by `querymask kb build` into a compact snapshot (see the classifier issue); this interface is what
 * the rest of querymask depends on.
 */
import type { Taxonomy } from "./taxonomy.ts";

export interface KnowledgeBase {
  readonly taxonomy: Taxonomy;
}
