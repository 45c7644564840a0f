/**
 * Noun-phrase chunking for queries (paper 004 §4.1.1: a semantic unit is a noun phrase — nouns specialised by
 * nouns or adjectives on their left). Queries are mostly bare noun compounds, so a chunk is a maximal run of
 * nouns, proper nouns, adjectives and numbers; a verb tag inside such a run is usually a tagging slip on a
 * noun ("classic car shows", "coloring pages"), and a lone gerund names an activity ("windsurfing").
 */
import { analyze, type Token } from "./nlp.ts";

const CONTENT = new Set(["NOUN", "PROPN", "ADJ", "NUM", "X", "SYM"]);

/** `/^[&+/#-]+$/.test(text)`, without a regular expression (this runs on every content word of every query). */
function onlySymbols(text: string): boolean {
  if (text.length === 0) return false;
  for (let k = 0; k < text.length; k++) {
    const c = text.charCodeAt(k);
    // & + / # -
    if (c !== 38 && c !== 43 && c !== 47 && c !== 35 && c !== 45) return false;
  }
  return true;
}

/** Whether `tokens[i]` is a content token of `tokens[from, to)` (its neighbours read within those bounds only). */
function isContent(tokens: readonly Token[], i: number, from = 0, to = tokens.length): boolean {
  const t = tokens[i]!;
  if (CONTENT.has(t.pos)) return !onlySymbols(t.text);
  if (t.pos !== "VERB") return false;
  const prev = i - 1 >= from ? tokens[i - 1] : undefined;
  const next = i + 1 < to ? tokens[i + 1] : undefined;
  const prevContent =
    prev !== undefined && (prev.pos === "NOUN" || prev.pos === "ADJ" || prev.pos === "PROPN");
  const nextNoun = next !== undefined && (next.pos === "NOUN" || next.pos === "PROPN");
  // A gerund before a noun modifies it ("coloring pages"); before a preposition or at the end it names an
  // activity ("windsurfing in the mediterranean").
  const nextFree = next === undefined || next.pos === "ADP" || next.pos === "CCONJ";
  // "map of ohio", "list of presidents": a word tagged as a verb right before "of" heads a noun phrase (verbs
  // take no "of" object in query language).
  if (next?.text === "of") return true;
  return (prevContent && /s$/.test(t.text)) || ((nextNoun || nextFree) && /ing$/.test(t.text));
}

/**
 * Split analysed tokens into noun-phrase chunks (each a run of content tokens). `starts`, when given, receives
 * each chunk's first position in `tokens`.
 */
export function chunkTokens(tokens: readonly Token[], starts?: number[]): Token[][] {
  const out: Token[][] = [];
  // A chunk is a maximal run of content tokens, sliced out whole (arrays of the exact length: this runs on
  // every query).
  let start = -1;
  for (let i = 0; i < tokens.length; i++) {
    if (isContent(tokens, i)) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      if (starts !== undefined) starts[out.length] = start;
      out.push(tokens.slice(start, i));
      start = -1;
    }
  }
  if (start >= 0) {
    if (starts !== undefined) starts[out.length] = start;
    out.push(tokens.slice(start));
  }
  return out;
}

/**
 * The chunks `chunkTokens(tokens.slice(from, to))` finds, as bounds in `tokens` without slicing them out: chunk
 * c is `tokens[starts[c], ends[c])`. Returns the number of chunks. (The classifier's units read every query's
 * chunks in place: the chunks' arrays were a twentieth of what a classification allocated.)
 */
export function chunkBounds(
  tokens: readonly Token[],
  from: number,
  to: number,
  starts: number[],
  ends: number[],
): number {
  let n = 0;
  let start = -1;
  for (let i = from; i < to; i++) {
    if (isContent(tokens, i, from, to)) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      starts[n] = start;
      ends[n++] = i;
      start = -1;
    }
  }
  if (start >= 0) {
    starts[n] = start;
    ends[n++] = to;
  }
  return n;
}

/**
 * The noun phrases of a query, as written, e.g. `diving in the mediterranean` → `["diving", "mediterranean"]`.
 * Pure numbers are not phrases on their own.
 */
export function nounPhrases(query: string): string[] {
  return chunkTokens(analyze(query))
    .map((c) => c.map((t) => t.text).join(" "))
    .filter((p) => !/^[\d\s.]+$/.test(p));
}
