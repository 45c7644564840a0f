/**
 * The syntactic query distance of Navarro-Arribas, Torra, Erola & Castellà-Roca (IPM 2012) as described in
 * paper 004 §2: the mean of five normalized components, each in [0, 1]:
 *  - edit distance between the query strings / the longer length;
 *  - edit distance between their term sequences / the longer term count;
 *  - time difference / the log's time span;
 *  - clicked URL domains: 1 − shared trailing domain labels / the longer label count (0 when both have no
 *    click, 1 when only one has);
 *  - query length difference / the longer length.
 */
import { distance as levenshtein } from "fastest-levenshtein";

/** A query event prepared for comparison. */
export interface SyntacticQuery {
  readonly text: string;
  /** Term ids (interned words). */
  readonly terms: Int32Array;
  readonly time: number;
  /** Domain labels, most significant first (`www.cnn.com` → ["com", "cnn", "www"]); empty without a click. */
  readonly domain: readonly string[];
}

/** Domain labels of a clicked URL, top-level first. */
export function domainLabels(url: string | undefined): string[] {
  if (!url) return [];
  const host = url.replace(/^[a-z]+:\/\//i, "").split(/[/:?#]/)[0] ?? "";
  return host.toLowerCase().split(".").filter(Boolean).reverse();
}

/** Levenshtein distance between two id sequences (queries have few terms: plain DP). */
export function sequenceEditDistance(a: Int32Array, b: Int32Array): number {
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const sub = prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      cur.push(Math.min(sub, prev[j]! + 1, cur[j - 1]! + 1));
    }
    prev = cur;
  }
  return prev[b.length]!;
}

function domainDistance(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 && b.length === 0) return 0;
  if (a.length === 0 || b.length === 0) return 1;
  let shared = 0;
  while (shared < a.length && shared < b.length && a[shared] === b[shared]) shared++;
  return 1 - shared / Math.max(a.length, b.length);
}

/** The mean of the five components; `span` = the log's time span in seconds. */
export function queryDistance(a: SyntacticQuery, b: SyntacticQuery, span: number): number {
  const la = a.text.length;
  const lb = b.text.length;
  const longest = Math.max(la, lb);
  const edit = longest === 0 ? 0 : levenshtein(a.text, b.text) / longest;
  const terms = Math.max(a.terms.length, b.terms.length);
  const termEdit = terms === 0 ? 0 : sequenceEditDistance(a.terms, b.terms) / terms;
  const time = span > 0 ? Math.min(1, Math.abs(a.time - b.time) / span) : 0;
  const length = longest === 0 ? 0 : Math.abs(la - lb) / longest;
  return (edit + termEdit + time + domainDistance(a.domain, b.domain) + length) / 5;
}
