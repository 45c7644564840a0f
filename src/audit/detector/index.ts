/**
 * The audit's identifier detector (the `identifiers` check's oracle): patterns for the identifiers with a shape
 * (./patterns.ts) and a test for private persons' names (./names.ts), on word lists of its own (./lexicon.ts). It
 * imports nothing from src/scrub — no code and no list (test/audit/detector.test.ts checks the imports) — so that
 * a miss of the scrubber is not also a miss of its audit; purpose-built cases show where the two disagree.
 */
import { auditLexicon } from "./lexicon.ts";
import { detectNames } from "./names.ts";
import { type Detection, detectPatterns } from "./patterns.ts";

export type { Detection } from "./patterns.ts";

/** The identifiers in `text`, in order of their start; overlapping ones are all kept. */
export function detectIdentifiers(text: string): Detection[] {
  if (text === "") return [];
  const lex = auditLexicon();
  const out = [...detectPatterns(text, lex), ...detectNames(text, lex)];
  return out.sort((a, b) => a.start - b.start || b.end - a.end);
}

/** The words of `found` that a click URL's host could carry: runs of 4 letters or digits, less provider words. */
export function identifierWords(found: readonly Detection[]): string[] {
  const out = new Set<string>();
  for (const d of found) {
    for (const w of d.value.toLowerCase().split(/[^a-z0-9]+/)) {
      if (w.length >= 4 && !HOST_WORDS.has(w)) out.add(w);
    }
  }
  return [...out];
}

/** Words any host may hold: protocols, providers, generic domain words. */
const HOST_WORDS = new Set([
  "http",
  "https",
  "www",
  "mail",
  "email",
  "yahoo",
  "hotmail",
  "gmail",
  "aol",
  "myspace",
  "blogspot",
  "home",
  "page",
  "member",
  "members",
  "hometown",
  "com",
  "net",
  "org",
]);

/** Whether the host of `url` carries one of `words` (a personal page named after the identifier). */
export function hostCarries(url: string, words: readonly string[]): boolean {
  if (words.length === 0) return false;
  const host =
    url
      .toLowerCase()
      .replace(/^[a-z]+:\/\//, "")
      .split(/[/?#]/)[0] ?? "";
  const letters = host.replace(/[^a-z0-9]/g, "");
  return words.some((w) => letters.includes(w));
}
