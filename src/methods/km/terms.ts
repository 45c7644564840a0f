/**
 * Terms of a query, as (k,m)-anonymity (paper 003) sees them: the whitespace-separated tokens of the query text,
 * taken as they are (AOL queries are already lower-cased with most punctuation removed; no stemming, no case
 * folding, no stop-word removal). A user's *history* is the set of distinct terms of all the user's queries.
 *
 * The method, the checker and the measures all tokenize with this one function, so they agree on what a term is.
 */

const WHITESPACE = /\s+/;

/** The terms of `query` in order, repeats kept; `[]` for an empty or blank query. */
export function queryTerms(query: string): string[] {
  if (query === "") return [];
  const parts = query.split(WHITESPACE);
  let n = 0;
  for (const p of parts) if (p !== "") parts[n++] = p;
  parts.length = n;
  return parts;
}
