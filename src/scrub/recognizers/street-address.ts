/**
 * Street addresses: a house number, an optional direction, one to four street-name words and a street suffix,
 * then an optional unit ("1234 n oak st apt 5", "250 mt. hood blvd", "77 e 42nd street"), and post-office
 * boxes ("po box 1234"). Rural routes and numbered highways need a house number too ("12345 hwy 64").
 *
 * Look-alikes are left alone because they lack a house number or a suffix ("route 66", "i 95", "101
 * dalmatians", "7 eleven"). Suffixes that are also common words (way, place, court, drive, circle, …) need a
 * house number of two digits or more and no function word in the street name, so "10 best way to …" is not an
 * address. A short list of famous fictional or public addresses ("21 jump street", "1600 pennsylvania ave") is
 * not a private person's identifier.
 */
import { type Finding, finding, type Query, type Recognizer, type Token } from "../recognizer.ts";

/** Abbreviated suffixes: an abbreviation after a number is a strong sign of an address. */
// biome-ignore format: a word list reads better packed
const ABBREVIATED = new Set([
  "st", "str", "ave", "av", "rd", "blvd", "ln", "dr", "ct", "pl", "ter", "cir", "pkwy", "hwy", "trl", "sq",
  "aly", "cres", "expy", "fwy", "tpke", "ste", "cv", "pt", "xing", "hts", "plz",
]);
// biome-ignore format: a word list reads better packed
const FULL = new Set([
  "street", "avenue", "road", "boulevard", "lane", "parkway", "highway", "terrace", "alley", "crescent",
  "expressway", "freeway", "turnpike",
]);
// biome-ignore format: a word list reads better packed
const AMBIGUOUS = new Set([
  "way", "place", "court", "drive", "circle", "square", "trail", "pike", "run", "row", "cove", "point", "plaza",
  "loop", "path", "pass", "ridge", "crossing", "heights",
]);
const DIRECTIONS = new Set(["n", "s", "e", "w", "ne", "nw", "se", "sw", "north", "south", "east", "west"]);
const UNITS = new Set([
  "apt",
  "apartment",
  "unit",
  "suite",
  "ste",
  "lot",
  "bldg",
  "building",
  "rm",
  "room",
  "fl",
]);
/** Words that never belong to a street name: query syntax, not places. */
// biome-ignore format: a word list reads better packed
const STOP = new Set([
  "the", "a", "an", "to", "of", "in", "on", "for", "and", "or", "with", "by", "at", "from", "how", "what", "why",
  "best", "top", "ways", "easy", "free", "cheap", "new", "used", "great", "good", "fast", "year", "years",
  "day", "days", "hour", "hours", "minute", "minutes", "step", "steps", "inch", "inches", "foot", "feet", "mile",
  "miles", "way", "is", "are", "my", "your", "you", "i", "me", "we", "it",
]);
/** Road names that take a number after them: "12345 hwy 64", "4050 county road 12". */
const NUMBERED_ROADS = new Set([
  "hwy",
  "highway",
  "route",
  "rt",
  "rte",
  "road",
  "rd",
  "fm",
  "sr",
  "cr",
  "us",
]);
/** "number + first street word" of famous addresses that are titles or landmarks, not a private home. */
const FAMOUS = new Set([
  "21 jump",
  "1600 pennsylvania",
  "10 downing",
  "221b baker",
  "1313 mockingbird",
  "742 evergreen",
]);

/** An address over tokens `from..to`, taking a final abbreviation's dot with it ("… blvd."). */
function address(q: Query, from: number, to: number, score: number): Finding {
  const start = q.tokens[from]!.start;
  let end = q.tokens[to]!.end;
  if (q.text[end] === ".") end++;
  return finding(q, "street_address", start, end, score);
}

/** A house number; a recent year ("2005 honda scooter review") is far more often a year. */
function houseNumber(t: Token): boolean {
  if (!/^\d{1,6}[a-z]?$/.test(t.text) || t.text === "0") return false;
  return !(t.digits && t.text.length === 4 && t.text >= "1980" && t.text <= "2029");
}

/** Names that follow "st" as "saint" in place and feast names ("st. louis", "st. patrick's day"). */
// biome-ignore format: a word list reads better packed
const SAINTS = new Set([
  "louis", "paul", "patrick", "joseph", "john", "johns", "mary", "marys", "peter", "petersburg", "pete", "james",
  "george", "charles", "augustine", "cloud", "thomas", "francis", "anthony", "michael", "luke", "mark", "matthew",
  "andrew", "lucie", "lucia", "clair", "clare", "helena", "albans", "simons", "kitts", "croix", "jude", "vincent",
  "teresa", "catherine", "elizabeth", "ann", "anne", "agnes", "margaret", "bernard", "ignace", "cecilia", "valentine",
  "valentines", "nicholas", "barts", "maarten", "martin", "lawrence", "joe", "jo", "tammany", "landry", "vrain",
]);

/** "st" before a saint's name is "saint" ("1 training class st. louis", "2006 holyoke's st. patrick's day"). */
function saint(t: readonly Token[], j: number): boolean {
  if (t[j]!.text !== "st") return false;
  const next = t[j + 1]?.text.replace(/'s$/, "");
  return next !== undefined && SAINTS.has(next);
}

function isSuffix(t: Token | undefined): "abbr" | "full" | "ambiguous" | undefined {
  if (!t) return undefined;
  if (ABBREVIATED.has(t.text)) return "abbr";
  if (FULL.has(t.text)) return "full";
  if (AMBIGUOUS.has(t.text)) return "ambiguous";
  return undefined;
}

/** Extend an address ending at token `end` over a trailing direction and unit ("… st nw apt 4b"). */
function extend(t: readonly Token[], end: number): number {
  if (t[end + 1] && DIRECTIONS.has(t[end + 1]!.text) && t[end + 1]!.text.length <= 2) end++;
  if (t[end + 1] && t[end + 2] && UNITS.has(t[end + 1]!.text) && /\d|^[a-z]$/.test(t[end + 2]!.text))
    end += 2;
  return end;
}

export const streetAddressRecognizer: Recognizer = {
  name: "street-address",
  types: ["street_address"],
  needsDigit: true,
  find(q: Query): Finding[] {
    const t = q.tokens;
    const out: Finding[] = [];
    for (let i = 0; i < t.length; i++) {
      const tok = t[i]!;
      // P.O. boxes
      if ((tok.text === "po" || tok.text === "p") && i + 2 < t.length) {
        const k = tok.text === "p" && t[i + 1]!.text === "o" ? i + 2 : i + 1;
        if (t[k]?.text === "box" && t[k + 1]?.digits) out.push(address(q, i, k + 1, 0.8));
        continue;
      }
      if (!houseNumber(tok)) continue;
      if (i + 1 < t.length && FAMOUS.has(`${tok.text} ${t[i + 1]!.text}`)) continue;
      let j = i + 1;
      // a direction, unless it is the street's name itself ("10 west st")
      if (t[j] && DIRECTIONS.has(t[j]!.text) && !isSuffix(t[j + 1])) j++;
      // A numbered road right after the house number: "12345 hwy 64", "4050 county road 12".
      const road = t[j]?.text === "county" || t[j]?.text === "state" ? j + 1 : j;
      if (t[road] && NUMBERED_ROADS.has(t[road]!.text) && t[road + 1]?.digits && tok.text.length >= 2) {
        out.push(address(q, i, extend(t, road + 1), 0.75));
        continue;
      }
      const first = j;
      for (; j < t.length && j < first + 4; j++) {
        const kind = isSuffix(t[j]);
        if (kind && j > first && !saint(t, j)) {
          const digits = tok.text.replace(/\D/g, "").length;
          const name = t.slice(first, j);
          if (name.some((w) => STOP.has(w.text))) break;
          if (name.every((w) => w.digits)) break; // "12 34 st" is not a street name
          if (kind !== "abbr" && digits < 2) break;
          out.push(address(q, i, extend(t, j), kind === "ambiguous" ? 0.65 : 0.8));
          break;
        }
        if (STOP.has(t[j]!.text)) break;
      }
    }
    return out;
  },
};
