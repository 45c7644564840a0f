/**
 * Splits a query into words with offsets. AOL queries are lower-cased with most punctuation removed, but some
 * keep dots, dashes, '@' or apostrophes, so a token is a run of letters/digits (an inner apostrophe kept, as in
 * "o'brien"); everything else separates tokens. Recognizers that need punctuation (email, url, dashed phone
 * numbers) read `Query.text` / `Query.lower` with their own patterns.
 */
import type { Query, Token } from "./recognizer.ts";

const WORD = /[\p{L}\p{N}]+(?:['’]\p{L}[\p{L}\p{N}]*)*/gu;
const ALL_DIGITS = /^[0-9]+$/;

function isAlnum(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90);
}

/**
 * The same tokens as the Unicode pattern, for ASCII text, without a regular expression: this runs on every
 * query, and nearly all queries are ASCII. Returns undefined at the first non-ASCII character.
 */
function tokenizeAscii(text: string, lowered: boolean): Token[] | undefined {
  const out: Token[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c > 127) return undefined;
    if (!isAlnum(c)) {
      i++;
      continue;
    }
    const start = i;
    let digits = true;
    while (i < n) {
      const d = text.charCodeAt(i);
      if (d > 127) return undefined;
      if (isAlnum(d)) {
        if (d > 57) digits = false;
        i++;
      } else if (d === 39 && i + 1 < n && isAlnum(text.charCodeAt(i + 1)) && text.charCodeAt(i + 1) > 57) {
        // inner apostrophe followed by a letter: "o'brien"
        digits = false;
        i += 2;
      } else break;
    }
    const word = text.slice(start, i);
    out.push({ text: lowered ? word : word.toLowerCase(), start, end: i, digits });
  }
  return out;
}

/** Tokens of `text`; `lowered` says whether `text` is already lower-case (saves a per-token lower-casing). */
export function tokenize(text: string, lowered = false): Token[] {
  const ascii = tokenizeAscii(text, lowered);
  if (ascii) return ascii;
  const out: Token[] = [];
  WORD.lastIndex = 0;
  for (let m = WORD.exec(text); m !== null; m = WORD.exec(text)) {
    const t = m[0];
    out.push({
      text: lowered ? t : t.toLowerCase(),
      start: m.index,
      end: m.index + t.length,
      digits: ALL_DIGITS.test(t),
    });
  }
  return out;
}

/** Prepare a query once for all recognizers. */
export function prepare(text: string): Query {
  const lower = text.toLowerCase();
  // toLowerCase can change the length for a few non-ASCII letters (e.g. "İ"); offsets must stay aligned with
  // the original, so in that rare case keep the original and lower-case token by token.
  if (lower.length === text.length) return { text, lower, tokens: tokenize(lower, true) };
  return { text, lower: text, tokens: tokenize(text, false) };
}
