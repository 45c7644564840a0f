/**
 * Operators change what the engine found (Presidio's anonymizer half): `drop` removes each span, `tag` replaces it
 * with a type tag such as `[PERSON]`. Both then normalize whitespace so a dropped span leaves no double space.
 */
import type { PiiSpan, PiiType } from "./types.ts";

export const DEFAULT_TAGS: Readonly<Record<PiiType, string>> = {
  person_name: "[PERSON]",
  street_address: "[ADDRESS]",
  zip: "[ZIP]",
  phone: "[PHONE]",
  email: "[EMAIL]",
  id_number: "[ID]",
  url: "[URL]",
  ip_address: "[IP]",
  date: "[DATE]",
};

const NEEDS_NORMALIZING = /^\s|\s$|\s\s|[^\S ]/;

/** Collapse whitespace runs to one space and trim. */
export function normalizeSpace(text: string): string {
  // Most queries are already normalized; testing is cheaper than replacing.
  if (!NEEDS_NORMALIZING.test(text)) return text;
  return text.replace(/\s+/g, " ").trim();
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

/** A space between a replacement and its neighbour only when the neighbour is a letter or digit. */
function pad(text: string, at: number): string {
  const c = text[at];
  return c !== undefined && WORD_CHAR.test(c) ? " " : "";
}

/**
 * Replace every span (disjoint, sorted by start) with `replacement(span)`. A replacement is set off by a space
 * from a neighbouring letter or digit, so the words on either side of it are not glued into a new word
 * ("call555-123-4567now" → "call [PHONE] now"), but not from punctuation ("\"ann smith\"" → "\"[PERSON]\"").
 */
export function applyOperator(
  text: string,
  spans: readonly PiiSpan[],
  replacement: (span: PiiSpan) => string,
): string {
  if (spans.length === 0) return normalizeSpace(text);
  let out = "";
  let at = 0;
  for (const s of spans) {
    const r = replacement(s);
    out +=
      r === ""
        ? `${text.slice(at, s.start)} `
        : `${text.slice(at, s.start)}${pad(text, s.start - 1)}${r}${pad(text, s.end)}`;
    at = s.end;
  }
  out += text.slice(at);
  return normalizeSpace(out);
}
