/**
 * Names of private persons: "john smith", "mary ann l smith", "anna maria ortiz lopez".
 *
 * A candidate is a first name from the census lists, optional initials or one middle name, then a surname
 * (census list, or an unknown word that is shaped like a surname), optionally a second surname and a
 * generational suffix. How name-like each part is comes from the census lists and from how common the word is
 * in English (../lexicon/name-words.ts: a first name that is also a common word — "will", "rose", "dot" — counts
 * for less). The query's
 * other words then move the decision: genealogy, obituary or phone-book words towards a private person; lyrics,
 * pictures or sports words towards a public figure; "high school", "hospital", "ford" after the name, or "st",
 * "fort" before it, make it an institution or a place. Famous people and person-named businesses from a curated
 * list are never candidates.
 *
 * Two more shapes: "surname, first name" when the comma is there, and a title with a surname that is not an
 * English word ("dr przybylski"). Otherwise a single word is never taken as a name ("washington", "ford"): too
 * many surnames are places, brands or words, and a lone surname rarely identifies a person.
 */

import { isStopword } from "../../text/stopwords.ts";
import { cityNames } from "../lexicon/cities.ts";
import { nearFamous } from "../lexicon/famous-near.ts";
import {
  INSTITUTION_AFTER,
  INSTITUTION_BEFORE,
  PERSONAL_CONTEXT,
  PRIVATE_CUES,
  PUBLIC_CUES,
  WEAK_PUBLIC_CUES,
} from "../lexicon/name-cues.ts";
import { nameHash } from "../lexicon/name-hash.ts";
import { firstScore, lastOf, lastScore, type NameWord, nameWord } from "../lexicon/name-words.ts";
import { isFamous, type NameLexicon, nameLexicon } from "../lexicon/names.ts";
import { STATE_LAST_WORDS, STATE_NAMES } from "../lexicon/places.ts";
import { DEFAULT_NAME_WEIGHTS, type NameWeights } from "../name-weights.ts";
import type { Finding, Query, Recognizer, RecognizerContext, Token } from "../recognizer.ts";
import { tokenFinding } from "../recognizer.ts";

const INITIAL = /^[b-hj-z]$/;
const GENERATIONAL = new Set(["jr", "sr", "ii", "iii", "iv"]);
/** Particles that start a surname ("st quenneville", "van terwilliger", "de souza"). */
// biome-ignore format: a word list reads better packed
const SURNAME_PARTICLES = new Set(["st", "van", "von", "de", "del", "della", "da", "di", "du", "la", "le", "mc", "mac"]);
/** A person's role at a business or institution ("… bakery owner", "… library volunteer"). */
// biome-ignore format: a word list reads better packed
const ROLES = new Set([
  "owner", "owners", "founder", "manager", "employee", "employees", "coordinator", "agent", "staff", "teacher",
  "principal", "coach", "nurse", "secretary", "worker", "volunteer", "student",
]);
/** What follows "funeral" in a funeral home's name. */
// biome-ignore format: a word list reads better packed
const FUNERAL_BUSINESS = new Set(["home", "homes", "chapel", "chapels", "service", "services", "directors", "parlor"]);
/** The US state names, for one look-up of a two-word pair. */
const STATE_NAME_SET: ReadonlySet<string> = new Set(STATE_NAMES);
/**
 * The weights of the evidence, set from the scrubber's context at the start of each `find` (data/scrub/person-name.json,
 * chosen by cross-validation: scripts/eval-scrub.ts --fit).
 */
let W: NameWeights = DEFAULT_NAME_WEIGHTS;
/** The first-name score from which a frequent surname that is also a word still counts ("shirley brook"). */
const NAME_NOT_WORD = 0.75;

/**
 * The records of the tokens of the query `find` reads (`words[i]` is token i's), filled once it has a
 * candidate's start; valid until the next query.
 */
let words: NameWord[] = [];
/** The query `find` reads holds a personal context (obituary, arrest, phone …); valid until the next query. */
let personalQuery = false;

/**
 * Scratch marks of {@link famousCover}, reused by every query: a typed array allocated per query was a tenth of
 * the scrubber's time. Only `find` holds it, and only until it returns.
 */
let coverScratch = new Uint8Array(64);

/** Mark tokens covered by a famous name, longest match first (valid until the next call). */
function famousCover(lex: NameLexicon, t: readonly Token[]): Uint8Array {
  // (two marks past the end cleared too: the candidates read up to two tokens ahead, as 0 like past an array's end)
  if (coverScratch.length < t.length + 2) coverScratch = new Uint8Array(2 * t.length + 2);
  const covered = coverScratch;
  covered.fill(0, 0, t.length + 2);
  // (past the last token, the lengths of the empty word, as when looked up by `t[i + 1]?.text ?? ""`)
  const pastEnd = nameWord(lex, "").famous;
  for (let i = 0; i < t.length; i++) {
    // Lengths of the famous names that start with this token, and with the next one (a reversed two-token name)
    const here = words[i]!.famous;
    const reversedHere = (i + 1 < t.length ? words[i + 1]!.famous : pastEnd) & 4;
    if (here === 0 && reversedHere === 0) continue;
    for (let n = Math.min(lex.famousMaxTokens, t.length - i); n >= 1; n--) {
      // Tokens hold no spaces, so a key (or its bare form) of n tokens can only be an entry of n tokens that
      // starts with this token; building the keys of other lengths was most of this function's cost.
      if (!((here >>> n) & 1) && !(n === 2 && reversedHere)) continue;
      let key = t[i]!.text;
      for (let k = 1; k < n; k++) key += ` ${t[i + k]!.text}`;
      // "brad pitts", "britney spears's": a trailing s or 's on the last name
      const bare = key.endsWith("'s") ? key.slice(0, -2) : key.endsWith("s") ? key.slice(0, -1) : key;
      // "dicaprio, leonardo": a famous two-word name in reversed order
      const reversed = n === 2 ? `${t[i + 1]!.text} ${t[i]!.text}` : "";
      if (isFamous(lex, key) || (n >= 2 && isFamous(lex, bare)) || (n === 2 && isFamous(lex, reversed))) {
        if (partOfLongerName(lex, t, i, n)) continue;
        covered.fill(1, i, i + n);
        i += n - 1;
        break;
      }
    }
  }
  return covered;
}

/**
 * A famous entry at tokens `i..i+n-1` that is only part of a private person's longer name: one word ("barbie",
 * "madonna") or names only ("francis xavier") before a surname that is no English word ("barbie terwilliger", "francis
 * xavier urrutia"), or a surname with a particle after a first name ("robby van urrutia").
 */
function partOfLongerName(lex: NameLexicon, t: readonly Token[], i: number, n: number): boolean {
  const next = t[i + n]?.text;
  if (
    next !== undefined &&
    (n === 1 || allFirstNames(i, n)) &&
    lastScore(lex, next) >= 1 &&
    (lex.wordLevel.get(next) ?? 99) > 35
  )
    return true;
  const before = i > 0 ? words[i - 1]! : undefined;
  return n >= 2 && SURNAME_PARTICLES.has(t[i]!.text) && before !== undefined && before.first >= 0.75;
}

function allFirstNames(i: number, n: number): boolean {
  for (let k = i; k < i + n; k++) if (words[k]!.first === 0) return false;
  return true;
}

/** No token covered (the scratch marks cleared). */
function noCover(n: number): Uint8Array {
  if (coverScratch.length < n + 2) coverScratch = new Uint8Array(2 * n + 2);
  coverScratch.fill(0, 0, n + 2);
  return coverScratch;
}

interface Candidate {
  from: number;
  to: number;
  evidence: number;
}

/**
 * The candidate from the first name at `i` to a surname at `at` (`weight`: how much the words between count),
 * if it beats `best`; else `best`. (A function rather than a closure inside `candidateAt`: tsx names every
 * closure it creates, a measurable cost on this path.)
 */
function tryAt(
  lex: NameLexicon,
  t: readonly Token[],
  i: number,
  covered: Uint8Array,
  f: number,
  at: number,
  weight: number,
  best: Candidate | undefined,
): Candidate | undefined {
  let sur = t[at];
  if (!sur || covered[at]) return best;
  // a surname with a particle: "susan st quenneville", "maria de souza"
  if (
    SURNAME_PARTICLES.has(sur.text) &&
    t[at + 1] &&
    !covered[at + 1] &&
    lastScore(lex, t[at + 1]!.text) > 0
  ) {
    at++;
    sur = t[at]!;
  }
  const census = lex.last.has(sur.text);
  // a census surname that is a public cue ("book", "song") is the surname when the query is about the person
  // ("… arrest", "… obituary"): there the cue's other reading (a work, a figure's pictures) is out
  const l0 =
    personalQuery && census && f >= NAME_NOT_WORD && PUBLIC_CUES.has(sur.text)
      ? W.wordSurname
      : lastOf(lex, words[at]!, sur.text);
  // a census surname that is also a word after a first name that is none ("shirley brook", "lavonne ash")
  const l =
    l0 === 0
      ? 0
      : !census && !lex.wordLevel.has(sur.text)
        ? W.unknownSurname
        : census && f >= NAME_NOT_WORD && !isStopword(sur.text)
          ? Math.max(l0, W.wordSurname)
          : l0;
  if (l === 0) return best;
  let to = at;
  // a second surname ("anna maria ortiz lopez"), then jr/sr/ii
  const next = t[to + 1];
  // (not when an institution word follows it: "… terwilliger drexel university" is a person, then where they are)
  if (
    next &&
    !covered[to + 1] &&
    lex.last.has(next.text) &&
    lastOf(lex, words[to + 1]!, next.text) >= 1 &&
    !INSTITUTION_AFTER.has(t[to + 2]?.text ?? "") &&
    !startsName(lex, t, to + 1)
  )
    to++;
  if (t[to + 1] && GENERATIONAL.has(t[to + 1]!.text)) to++;
  // a first name that is also a word ("mark", "bill", "ray") before a surname that is none ("spencer") is a name
  const fEff =
    l >= 1 && words[i]!.first > 0 && !lex.wordLevel.has(sur.text) ? Math.max(f, W.wordFirstName) : f;
  const evidence = Math.min(1.1, fEff * l * weight);
  // (the longer of two names that both pass: "mara ellen quist" rather than "mara ellen")
  const longer = best !== undefined && to > best.to && evidence >= W.threshold;
  return !best || evidence > best.evidence || longer ? { from: i, to, evidence } : best;
}

/**
 * Token `k` is a common first name before a surname: the start of a second person's name rather than a second
 * surname ("harold terwilliger ellen quenneville" is two people).
 */
function startsName(lex: NameLexicon, t: readonly Token[], k: number): boolean {
  const after = t[k + 1];
  return (
    words[k]!.first >= NAME_NOT_WORD && after !== undefined && lastOf(lex, words[k + 1]!, after.text) >= 1
  );
}

/** The best name starting at token `i`, if any. */
function candidateAt(
  lex: NameLexicon,
  t: readonly Token[],
  i: number,
  covered: Uint8Array,
): Candidate | undefined {
  const f0 = words[i]!.first || (words[i]!.other ? W.otherFirstName : 0) || vanFirst(lex, t, i);
  if (f0 === 0) return undefined;
  // a religious figure's name before an English word is the figure ("jesus heals", "jesus shepherd"), not a person
  // of that first name ("jesus quenneville")
  if (SCRIPTURE_NAMES.has(t[i]!.text) && lex.wordLevel.has(t[i + 1]?.text ?? "")) return undefined;
  // a state's name before a common first name and one more word is the place, and the name starts after it
  // ("… tampa florida harold terwilliger": not "florida harold"); before a private cue the two may be one name
  // ("virginia harrison family")
  if (
    STATE_LAST_WORDS.has(t[i]!.text) &&
    t[i + 2] !== undefined &&
    words[i + 1]!.first >= NAME_NOT_WORD &&
    !PRIVATE_CUES.has(t[i + 2]!.text)
  )
    return undefined;
  // a first name right after a title is a person's, even one that is also a word ("attorney nick brook")
  const f = i > 0 && TITLES.has(t[i - 1]!.text) ? Math.max(f0, TITLED_FIRST) : f0;
  // the surname right after the first name, or after up to two initials, or after one middle first name
  let best = tryAt(lex, t, i, covered, f, i + 1, 1, undefined);
  // "i" and "a" are a pronoun and an article far more often than initials ("kelsey i owe you")
  for (let k = i + 1; k < t.length && k <= i + 2 && t[k]!.text.length === 1 && INITIAL.test(t[k]!.text); k++)
    best = tryAt(lex, t, i, covered, f, k + 1, 1.1, best);
  // ... but "a" is an initial between a common first name and a surname that is no English word ("mary a wojcik")
  const sur = t[i + 2]?.text;
  if (t[i + 1]?.text === "a" && f >= 0.8 && sur && !lex.wordLevel.has(sur) && !lex.first.has(sur))
    best = tryAt(lex, t, i, covered, f, i + 2, 1, best);
  if (t[i + 1] && words[i + 1]!.first > 0.5) best = tryAt(lex, t, i, covered, f, i + 2, 1, best);
  // a three-word name: a common first name, any census first name as the middle one (also a word: "ray", "lee"),
  // then a census surname that is no word ("dwight ray terwilliger"): the middle name adds evidence, not doubt
  else if (W.middleName > 0 && t[i + 2] && f >= NAME_NOT_WORD && words[i + 1]!.first > 0 && !covered[i + 1]) {
    const sur = t[i + 2]!.text;
    if (lex.last.has(sur) && lastOf(lex, words[i + 2]!, sur) >= 1 && !lex.wordLevel.has(sur))
      best = tryAt(lex, t, i, covered, f, i + 2, W.middleName, best);
  }
  return best;
}

/**
 * "van" is a first name too, when it starts the query before a census surname that is no word and that no further
 * surname follows ("van terwilliger"; in "van der …" it is a surname's particle).
 */
function vanFirst(lex: NameLexicon, t: readonly Token[], i: number): number {
  if (i !== 0 || t[0]!.text !== "van" || !t[1]) return 0;
  const sur = t[1].text;
  if (!lex.last.has(sur) || lex.wordLevel.has(sur) || lex.first.has(sur)) return 0;
  const next = t[2]?.text;
  return next !== undefined && lex.last.has(next) && !isStopword(next) ? 0 : 0.9;
}

/** First names that are above all a religious figure's. */
const SCRIPTURE_NAMES: ReadonlySet<string> = new Set(["jesus"]);

/** Titles before a surname alone: "dr przybylski", "mrs kowalczyk". */
// biome-ignore format: a word list reads better packed
const HONORIFICS = new Set([
  "mr", "mrs", "ms", "miss", "dr", "rev", "reverend", "pastor", "prof", "professor", "coach", "sgt", "officer",
  "deputy",
]);

/** Titles before a full name: the honorifics and the professions a query names a person by. */
const TITLES: ReadonlySet<string> = new Set([
  ...HONORIFICS,
  ...["attorney", "atty", "lawyer", "realtor", "dentist", "doctor", "judge"],
]);
/** What a first name after a title counts at least (a census first name that is not a word counts 1). */
const TITLED_FIRST = 0.9;

/** Two-letter abbreviations written with dots that are no one's initials ("u.s.", "d.c.", "p.m."). */
// biome-ignore format: a word list reads better packed
const DOTTED_ABBREVIATIONS = new Set(["us", "dc", "pm", "am", "la", "ny", "nj", "bc", "ad", "uk", "tv", "pc", "cd", "vs", "ms"]);

/**
 * Two initials written with dots, then a census surname: "p.j. terwilliger", "j.d. kowalczyk" (the dots tell initials
 * from two letters; a famous bearer is covered before).
 */
function initialsAt(q: Query, lex: NameLexicon, i: number, covered: Uint8Array): Candidate | undefined {
  const t = q.tokens;
  const a = t[i]!;
  const b = t[i + 1];
  const sur = t[i + 2];
  if (a.text.length !== 1 || !b || b.text.length !== 1 || !sur || covered[i] || covered[i + 2])
    return undefined;
  if (q.text.charCodeAt(a.end) !== 46 || q.text.charCodeAt(b.end) !== 46) return undefined;
  if (!/^\.\s*$/.test(q.text.slice(a.end, b.start)) || DOTTED_ABBREVIATIONS.has(a.text + b.text))
    return undefined;
  if (!lex.last.has(sur.text)) return undefined;
  const l = lastScore(lex, sur.text);
  return l > 0 ? { from: i, to: i + 2, evidence: Math.min(1, 0.3 + l) } : undefined;
}

/**
 * A surname right after a title, when the surname is not also an English word ("dr pepper", "mr clean" and "mrs
 * fields" are brands) and no first name follows the title (then the full-name path applies).
 */
function honorificAt(
  lex: NameLexicon,
  t: readonly Token[],
  i: number,
  covered: Uint8Array,
): Candidate | undefined {
  if (!HONORIFICS.has(t[i]!.text) || !t[i + 1] || covered[i + 1]) return undefined;
  const w = t[i + 1]!.text;
  if (w.length < 3 || firstScore(lex, w) > 0) return undefined;
  if (!lex.last.has(w) || lastScore(lex, w) < 1) return undefined;
  return { from: i + 1, to: i + 1, evidence: 0.7 };
}

/**
 * Words after a surname alone that make it a private person's or family's name (the labelling guide: "a surname +
 * a personal context such as obituary, arrest, funeral").
 */
// biome-ignore format: a word list reads better packed
const FAMILY_CUES = new Set([
  "family", "genealogy", "obituary", "obituaries", "obit", "funeral", "reunion", "ancestry", "arrest", "arrested",
]);

/**
 * A surname alone before a personal context ("przybylski family reunion", "wojcik obituary"): a census surname or
 * an unknown word, not a common English word unless a frequent surname ("brown family"), not a first name unless
 * also a frequent surname ("lewis ancestry"), and not the surname of a curated famous person ("kennedy family").
 */
function familyAt(
  lex: NameLexicon,
  t: readonly Token[],
  i: number,
  covered: Uint8Array,
): Candidate | undefined {
  if (!t[i + 1] || !FAMILY_CUES.has(t[i + 1]!.text) || covered[i]) return undefined;
  if (t[i + 1]!.text === "funeral" && FUNERAL_BUSINESS.has(t[i + 2]?.text ?? "")) return undefined;
  const w = t[i]!.text;
  if (w.length < 3 || isStopword(w) || FAMILY_CUES.has(w)) return undefined;
  // "kennedy family" is a public family; "lewis family ancestry" someone's own
  if (
    lex.famousLast.has(w) &&
    t[i + 1]!.text === "family" &&
    !t.some((x) => PRIVATE_CUES.has(x.text) && x.text !== "family")
  )
    return undefined;
  const rank = lex.last.get(w);
  const level = lex.wordLevel.get(w) ?? 99;
  if (
    rank === undefined
      ? level <= 60 || lex.first.has(w) || w.length < 4
      : rank >= W.familyRank && (level <= 35 || lex.first.has(w))
  )
    return undefined;
  if (lastScore(lex, w) === 0 && rank === undefined) return undefined;
  const before = t[i - 1]?.text;
  if (before !== undefined && firstScore(lex, before) > 0) return undefined; // the full-name path's
  // a word in no list before it is the first name the census lacks ("elan …"): removed with the surname
  if (before !== undefined && lastScore(lex, before) > 0) {
    if (lex.last.has(before) || lex.wordLevel.has(before) || covered[i - 1]) return undefined;
    return { from: i - 1, to: i, evidence: 0.6 };
  }
  return { from: i, to: i, evidence: 0.6 };
}

/**
 * True when the text between tokens `a` and `b` holds the character `code` (most gaps are one space: scanned
 * in place rather than sliced out, as this runs for most token pairs of a query with a first name).
 */
function charBetween(q: Query, a: Token, b: Token, code: number): boolean {
  for (let k = a.end; k < b.start; k++) if (q.text.charCodeAt(k) === code) return true;
  return false;
}

/** "smith, john": a surname, a comma, then a first name (Excite and some AOL queries keep the comma). */
function invertedAt(q: Query, lex: NameLexicon, i: number, covered: Uint8Array): Candidate | undefined {
  const t = q.tokens;
  if (
    !t[i + 1] ||
    covered[i] ||
    covered[i + 1] ||
    // (the pattern needs a comma: looked for first, without slicing the gap out)
    !charBetween(q, t[i]!, t[i + 1]!, 44) ||
    !/^\s*,\s*$/.test(q.text.slice(t[i]!.end, t[i + 1]!.start))
  ) {
    return undefined;
  }
  const l = lastScore(lex, t[i]!.text);
  const f = firstScore(lex, t[i + 1]!.text);
  return l > 0 && f > 0 ? { from: i, to: i + 1, evidence: f * l } : undefined;
}

/**
 * The candidate is (part of) a place: its words, or its words with the next one, are a city ("santa clara",
 * "beverly hills"), or its surname and the next word are a state ("charlotte north carolina").
 */
function isPlace(t: readonly Token[], c: Candidate): boolean {
  const cities = cityNames();
  for (let from = c.from; from <= c.to; from++) {
    if (!cities.multiFirst.has(t[from]!.text)) continue;
    let key = t[from]!.text;
    for (let k = from + 1; k < t.length && k - from < cities.maxWords; k++) {
      key += ` ${t[k]!.text}`;
      if (k >= c.to && cities.multi.has(key)) return true;
    }
  }
  const pair = `${t[c.to]!.text} ${t[c.to + 1]?.text ?? ""}`;
  return STATE_NAME_SET.has(pair);
}

/** Context adjustment from the rest of the query (tokens outside the candidate). */
function contextShift(q: Query, lex: NameLexicon, c: Candidate): number {
  const t = q.tokens;
  const before = t[c.from - 1]?.text;
  const after = t[c.to + 1]?.text;
  const after2 = t[c.to + 2]?.text;
  if (before && INSTITUTION_BEFORE.has(before)) return -1;
  // "… murphy funeral home": the funeral home is named after its family
  if (after === "funeral" && after2 !== undefined && FUNERAL_BUSINESS.has(after2)) return -1;
  // "john wojcik bakery owner": a role after the institution word makes the name the person who holds it
  if (after && INSTITUTION_AFTER.has(after) && !(after2 && ROLES.has(after2))) return -1;
  // one more name-like word, then the institution: "ada lee quint school", "edna vorhees memorial hospital" (not a
  // state: "maria kowalczyk iowa state university" is a person, then where they work)
  if (
    after2 &&
    !STATE_LAST_WORDS.has(after!) &&
    // (only when the candidate's surname could be a middle name: "ada lee" + "quint school"; "harold terwilliger"
    // before "drexel university" is a person, then where they study)
    (INSTITUTION_AFTER.has(after!) || words[c.to]!.first > 0 || lex.wordLevel.has(t[c.to]!.text)) &&
    // (the word between is part of the institution's name, not "of" or a common word: "ignatius quenby of
    // university of …", "… wine sales" are a person and what they do)
    (INSTITUTION_AFTER.has(after!) || (!isStopword(after!) && (lex.wordLevel.get(after!) ?? 99) > 35)) &&
    INSTITUTION_AFTER.has(after2.endsWith("'s") ? after2.slice(0, -2) : after2) &&
    !ROLES.has(t[c.to + 3]?.text ?? "")
  ) {
    return -1;
  }
  if (isPlace(t, c)) return -1;
  // "thomas & betts", "smith & wesson": an ampersand in or after the name joins the names of a firm
  for (let k = c.from; k <= c.to && k + 1 < t.length; k++) {
    if (charBetween(q, t[k]!, t[k + 1]!, 38)) return -1;
  }
  let priv = 0;
  let pub = 0;
  for (let k = 0; k < t.length; k++) {
    if (k >= c.from && k <= c.to) continue;
    const w = t[k]!.text;
    if (PRIVATE_CUES.has(w) || PERSONAL_CONTEXT.has(w))
      priv = Math.max(priv, PERSONAL_CONTEXT.has(w) ? W.personalContext : W.privateCue);
    // (a weak cue only for a census surname: a surname in no list is seldom a public figure's, whom the lists hold)
    else if (PUBLIC_CUES.has(w))
      pub = Math.max(
        pub,
        WEAK_PUBLIC_CUES.has(w) ? (lex.last.has(t[c.to]!.text) ? W.weakPublicCue : 0) : W.publicCue,
      );
  }
  return priv > 0 ? priv : -pub;
}

/** The words of a candidate without a generational suffix or a possessive ("christina agulera's" → christina agulera). */
function nameWordsOf(t: readonly Token[], c: Candidate): string[] {
  const ws: string[] = [];
  for (let k = c.from; k <= c.to; k++) ws.push(t[k]!.text);
  if (ws.length > 2 && GENERATIONAL.has(ws[ws.length - 1]!)) ws.pop();
  const last = ws[ws.length - 1]!;
  if (last.endsWith("'s")) ws[ws.length - 1] = last.slice(0, -2);
  return ws;
}

/**
 * Whether a query without a census first name may still hold a name starting with one the census lacks (humannames:
 * "jaylin"): such a name cannot reach the threshold on its own (`otherFirstName` × a surname's 1 × an initial's
 * 1.1 stays below it), only with a private cue, so the hash look-ups are made only in a query that has one.
 */
function otherFirstNames(lex: NameLexicon, t: readonly Token[]): boolean {
  if (W.otherFirstName === 0) return false;
  if (W.otherFirstName * 1.1 < W.threshold) {
    let cue = false;
    for (let i = 0; i < t.length && !cue; i++)
      cue = PRIVATE_CUES.has(t[i]!.text) || PERSONAL_CONTEXT.has(t[i]!.text);
    if (!cue) return false;
  }
  for (let i = 0; i < t.length; i++) if (lex.otherNames.has(nameHash(t[i]!.text))) return true;
  return false;
}

/**
 * A candidate's evidence, raised to `bareName` when it is the whole query: a first name that is no word ("lavonne",
 * "dennis") and a census surname that is one ("berry", "ash"), typed alone, are a person's name (the famous lists
 * have set the public ones aside before). Not a plural ("lavonne flowers": what a shop sells) nor a first
 * name that is a word too ("ivy ash").
 */
function bare(lex: NameLexicon, t: readonly Token[], c: Candidate): number {
  if (c.from !== 0 || c.to !== 1 || t.length !== 2 || c.evidence >= W.bareName) return c.evidence;
  const sur = t[1]!.text;
  const plural = sur.endsWith("s") && lex.wordLevel.has(sur);
  // (nor one of the commonest words: "… blue", "… house", "… king" make a brand, a building or a title)
  return words[0]!.first >= NAME_NOT_WORD &&
    !lex.wordLevel.has(t[0]!.text) &&
    (lex.wordLevel.get(sur) ?? 99) >= 20 &&
    (lex.last.get(sur) ?? BARE_SURNAME_RANK) < BARE_SURNAME_RANK &&
    !plural &&
    !isStopword(sur)
    ? W.bareName
    : c.evidence;
}
/** How frequent a surname that is also a word must be for a bare name ("berry" is; "lavonne scripture" is no name). */
const BARE_SURNAME_RANK = 3000;

/** The name a candidate stands for, as the cross-user evidence counts it: its words, space-joined. */
function keyOf(t: readonly Token[], c: Candidate): string {
  let key = t[c.from]!.text;
  for (let k = c.from + 1; k <= c.to; k++) key += ` ${t[k]!.text}`;
  return key;
}

/**
 * The candidates of a query, scored: each with its evidence after the query's context (and the cross-user
 * evidence, when given). `keys`: collect every candidate's name instead, whatever its score (for counting users).
 */
function candidates(q: Query, ctx: RecognizerContext, keys?: string[]): Finding[] {
  const t = q.tokens;
  if (t.length < 2) return [];
  const lex = nameLexicon();
  // Most queries hold no first name or title at all: leave before any other work.
  let any = false;
  for (let i = 0; i < t.length && !any; i++) {
    const w = t[i]!.text;
    // (or an initial with a dot after it: "p.j. terwilliger")
    any =
      lex.first.has(w) ||
      HONORIFICS.has(w) ||
      FAMILY_CUES.has(w) ||
      (w.length === 1 && q.text.charCodeAt(t[i]!.end) === 46);
  }
  W = ctx.nameWeights;
  if (!any && !otherFirstNames(lex, t)) return [];
  if (words.length < t.length) words = new Array<NameWord>(t.length);
  for (let i = 0; i < t.length; i++) words[i] = nameWord(lex, t[i]!.text);
  // a personal context ("… obituary", "… phone number") makes any name an identifier, a famous one too
  let personal = false;
  for (let i = 0; i < t.length && !personal; i++) personal = PERSONAL_CONTEXT.has(t[i]!.text);
  personalQuery = personal;
  const covered = personal ? noCover(t.length) : famousCover(lex, t);
  const out: Finding[] = [];
  for (let i = 0; i + 1 < t.length; i++) {
    if (covered[i]) continue;
    // ("surname, first name" first: a comma is rare, and the surname may be a first name too: "kowalski, maria")
    const c =
      invertedAt(q, lex, i, covered) ??
      candidateAt(lex, t, i, covered) ??
      honorificAt(lex, t, i, covered) ??
      initialsAt(q, lex, i, covered) ??
      familyAt(lex, t, i, covered);
    if (!c) continue;
    if (keys) {
      keys.push(keyOf(t, c));
      continue;
    }
    // (contextShift ends in the gazetteer check, the dearest, after the cheaper ones: a place costs at least 1,
    // more than any candidate's evidence above the threshold)
    const shift = contextShift(q, lex, c);
    let evidence = bare(lex, t, c) + shift;
    // A name many users typed is more often a public figure's: one signal among the others, never alone (a name
    // with a private cue keeps its evidence; a strong one still passes).
    if (ctx.nameUsers !== undefined && shift <= 0 && ctx.nameUsers.users(keyOf(t, c)) >= W.manyUsers)
      evidence -= W.manyUsersShift;
    if (evidence < W.threshold) continue;
    if (!personal && nearFamous(lex, nameWordsOf(t, c))) {
      i = c.to; // (a public figure's name: none of its words starts another, "kenny wayne …" is not "wayne …")
      continue;
    }
    out.push(tokenFinding(q, "person_name", c.from, c.to, 0.5 + 0.25 * Math.min(1, evidence)));
    i = c.to;
  }
  return out;
}

export const personNameRecognizer: Recognizer = {
  name: "person-name",
  types: ["person_name"],
  find: (q: Query, ctx: RecognizerContext): Finding[] => candidates(q, ctx),
};

/**
 * The names the recognizer weighs in `text` (every candidate's words, space-joined, whatever its evidence): what
 * {@link NameUsers} counts users of.
 */
export function personNameKeys(q: Query, ctx: RecognizerContext): string[] {
  const keys: string[] = [];
  candidates(q, ctx, keys);
  return keys;
}
