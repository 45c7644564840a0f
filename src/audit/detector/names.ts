/**
 * The audit's test for a private person's name, a different procedure on different data than the scrubber's
 * recognizer (which weighs census first names and surnames, English word frequencies, lists of public figures and
 * the query's cues into one score): here a name is only flagged when the query is *about a person* in a way that
 * makes any name in it an identifier — an obituary, a funeral, a family tree, an arrest, a phone number or an
 * address, a people-search or classmates site — and the words before that context are name parts of cspell's
 * dictionary that are not both English words (./lexicon.ts). So it needs no list of public figures (a public
 * figure's phone number or family tree is private too), and it leaves a bare name alone: whether "first last" is a
 * celebrity cannot be told without such a list, which is the scrubber's to hold (its held-out figures say how well
 * it does; docs/audit.md).
 */
import { type AuditLexicon, isWord } from "./lexicon.ts";
import type { Detection } from "./patterns.ts";

/**
 * Words that make a query about a particular person, whoever they are (one of them within three words of the name):
 * the strongest of the labelling guide's personal contexts. Weaker ones ("phone", "address", "myspace") also
 * follow places and products, so they are left to the scrubber.
 */
// biome-ignore format: a word list reads better packed
const PERSONAL = new Set([
  "obituary", "obituaries", "obit", "obits", "genealogy", "funeral", "arrested", "mugshot", "mugshots", "inmate",
  "whitepages", "classmates",
]);
/** Words that are never a first name or a surname here: function words, and the words that start a place's name. */
// biome-ignore format: a word list reads better packed
const NOT_NAMES = new Set([
  "a", "an", "and", "the", "of", "in", "on", "at", "to", "for", "by", "with", "from", "or", "is", "are", "was", "how",
  "what", "who", "where", "when", "why", "you", "your", "my", "our", "his", "her", "their", "do", "does", "can", "go",
  "free", "new", "old", "san", "santa", "los", "las", "la", "el", "saint", "st", "fort", "ft", "port", "mount", "mt",
  "lake", "north", "south", "east", "west", "county", "city", "beach", "search", "find", "records", "record", "notice",
  "notices", "news", "online", "local", "daily", "public", "co", "county", "parish", "township", "twp", "case",
  "forum", "star", "times", "herald", "tribune", "gazette", "journal", "post", "press", "register", "courier",
  "sentinel", "observer", "chronicle", "bee", "democrat", "republican", "ledger", "examiner", "inquirer",
]);
/** What follows "funeral" in a business's name: then the query is about the business. */
const FUNERAL_HOME = new Set(["home", "homes", "chapel", "service", "services", "directors"]);
/** Words right after a surname alone that make the query about that family or person. */
const AFTER_SURNAME = new Set([
  "obituary",
  "obituaries",
  "obit",
  "genealogy",
  "funeral",
  "family",
  "arrested",
]);

interface Word {
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

const WORD = /[a-z][a-z']*|\d+/g;

function wordsOf(lower: string): Word[] {
  const out: Word[] = [];
  WORD.lastIndex = 0;
  for (let m = WORD.exec(lower); m !== null; m = WORD.exec(lower))
    out.push({ text: m[0], start: m.index, end: m.index + m[0].length });
  return out;
}

/** The query's personal context word, if it has one that is not a business's ("… funeral home"). */
function personalContext(ws: readonly Word[]): boolean {
  return ws.some((w, i) => PERSONAL.has(w.text) && !funeralHome(ws, i));
}

/** US states as queries abbreviate them, old style too ("denver colo"): a place after a name, not a surname. */
// biome-ignore format: a word list reads better packed
const STATES = new Set([
  "ala", "ariz", "ark", "calif", "cal", "colo", "conn", "del", "fla", "ill", "ind", "kan", "kans", "mass", "mich",
  "minn", "miss", "mont", "neb", "nebr", "nev", "okla", "ore", "oreg", "penn", "penna", "tenn", "tex", "wash", "wis",
  "wisc", "wyo", "alabama", "alaska", "arizona", "arkansas", "california", "colorado", "connecticut", "delaware",
  "florida", "georgia", "hawaii", "idaho", "illinois", "indiana", "iowa", "kansas", "kentucky", "louisiana", "maine",
  "maryland", "massachusetts", "michigan", "minnesota", "mississippi", "missouri", "montana", "nebraska", "nevada",
  "ohio", "oklahoma", "oregon", "pennsylvania", "tennessee", "texas", "utah", "vermont", "virginia", "washington",
  "wisconsin", "wyoming", "carolina", "dakota", "jersey", "york", "hampshire", "mexico",
]);

/** A surname: a name part, or a word in no dictionary of 4 letters or more (a rare surname); not a state. */
function surnameLike(w: string, lex: AuditLexicon): boolean {
  if (STATES.has(w) || PERSONAL.has(w) || NOT_NAMES.has(w)) return false;
  return lex.nameParts.has(w) || (w.length >= 4 && /^[a-z]+$/.test(w) && !isWord(w, lex));
}

/** A first name of faker's lists that is not a function word, a place word or a state. */
function firstLike(w: string, lex: AuditLexicon): boolean {
  return w.length >= 2 && lex.firstNames.has(w) && !NOT_NAMES.has(w) && !STATES.has(w) && !PERSONAL.has(w);
}

/** A surname alone before the context: a name part that is neither a first name nor an English word. */
function surnameAlone(w: string, lex: AuditLexicon): boolean {
  return (
    w.length >= 3 &&
    lex.nameParts.has(w) &&
    !lex.firstNames.has(w) &&
    !isWord(w, lex) &&
    !NOT_NAMES.has(w) &&
    !STATES.has(w)
  );
}

/** Whether a personal context word lies within three words of `from..to`. */
function nearContext(ws: readonly Word[], from: number, to: number): boolean {
  for (let k = Math.max(0, from - 3); k <= Math.min(ws.length - 1, to + 3); k++) {
    if ((k < from || k > to) && PERSONAL.has(ws[k]!.text) && !funeralHome(ws, k)) return true;
  }
  return false;
}

function funeralHome(ws: readonly Word[], k: number): boolean {
  return ws[k]!.text === "funeral" && FUNERAL_HOME.has(ws[k + 1]?.text ?? "");
}

/** The private persons' names in a query about a person. */
export function detectNames(text: string, lex: AuditLexicon): Detection[] {
  const lower = text.toLowerCase();
  const ws = wordsOf(lower);
  if (ws.length < 2 || !personalContext(ws)) return [];
  const out: Detection[] = [];
  const add = (from: number, to: number) =>
    out.push({
      kind: "person_name",
      value: text.slice(ws[from]!.start, ws[to]!.end),
      start: ws[from]!.start,
      end: ws[to]!.end,
    });
  for (let i = 0; i < ws.length; i++) {
    const first = ws[i]!.text;
    // first name, an optional middle initial, surname, near the context; not both words of the dictionary ("rose
    // garden")
    const j = ws[i + 1]?.text.length === 1 && ws[i + 2] ? i + 2 : i + 1;
    const last = ws[j]?.text;
    if (
      last !== undefined &&
      firstLike(first, lex) &&
      surnameLike(last, lex) &&
      !(isWord(first, lex) && isWord(last, lex)) &&
      nearContext(ws, i, j)
    ) {
      add(i, j);
      i = j;
      continue;
    }
    // a surname alone right before the context: "terwilliger obituary", "urrutia family genealogy"
    const next = ws[i + 1]?.text ?? "";
    if (AFTER_SURNAME.has(next) && surnameAlone(first, lex) && !funeralHome(ws, i + 1)) {
      if (next !== "family" || nearContext(ws, i + 1, i + 1)) add(i, i);
    }
  }
  return out;
}
