/**
 * The audit's patterns for the identifiers with a shape: e-mail addresses (also as AOL logs them, without `@` and
 * dots), phone numbers (NANP, not toll-free), social security numbers, payment card numbers (Luhn), long account
 * or tracking numbers, street addresses and PO boxes, URLs that name a person's page, and public IP addresses.
 * Written apart from the scrubber's recognizers (a different decision for each: regular expressions over the
 * whole text rather than token rules), to the same policy: what a look-alike is (a toll-free number, a year, a
 * TV title) is decided here again.
 */
import { type AuditLexicon, isWord } from "./lexicon.ts";

export interface Detection {
  /** The identifier's kind, in the label set's terms: email, phone, id_number, street_address, url, ip_address,
   * person_name. */
  readonly kind: string;
  readonly value: string;
  /** UTF-16 offsets in the text. */
  readonly start: number;
  readonly end: number;
}

const EMAIL = /[a-z0-9][a-z0-9._%+-]*@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}/gi;
/** Mail providers a logged address keeps after AOL stripped its punctuation ("jsmith aol com"). */
const PROVIDERS =
  "aol|yahoo|hotmail|gmail|msn|comcast|earthlink|sbcglobal|verizon|bellsouth|cox|att|juno|netzero|rocketmail|ymail|live|charter|optonline|adelphia|peoplepc|netscape|excite|mindspring|prodigy|roadrunner|rr";
const STRIPPED_EMAIL = new RegExp(
  `\\b([a-z0-9_.-]{3,})(?: at| @)? (?:${PROVIDERS})(?: dot)? (?:com|net)\\b`,
  "gi",
);
/** Words before a provider that make a site or a product, not a mailbox. */
const NOT_MAILBOX = new Set([
  "www",
  "mail",
  "email",
  "login",
  "my",
  "http",
  "sign",
  "signin",
  "free",
  "the",
  "open",
]);

const PHONE = /(?<![\d-])(?:\+?1[ .-]?)?\(?([2-9]\d\d)\)?[ .-]?([2-9]\d\d)[ .-]?(\d{4})(?![\d-])/g;
/** Toll-free and premium area codes: businesses' numbers, not a person's. */
const TOLL_FREE = new Set(["800", "888", "877", "866", "855", "844", "833", "900", "976"]);
const SEVEN =
  /\b(?:phone|call|cell|tel|telephone|number|fax)\b\D{0,12}?(?<![\d-])([2-9]\d\d)[ .-](\d{4})(?![\d-])/gi;

const SSN = /(?<![\d-])(\d{3})[- ](\d{2})[- ](\d{4})(?![\d-])/g;
const SSN_CUE = /\b(?:ssn|social security(?: number| no)?)\D{0,6}(\d{9})\b/gi;
const CARD = /(?<![\d-])(?:\d[ -]?){12,18}\d(?![\d-])/g;
const LONG_NUMBER = /(?<!\d)\d{12,}(?!\d)/g;

const SUFFIX =
  "st|street|ave|avenue|rd|road|blvd|boulevard|dr|drive|ln|lane|ct|court|way|pl|place|cir|circle|pkwy|parkway|hwy|highway|ter|terrace|trl|trail|sq|square";
const ADDRESS = new RegExp(
  `\\b(\\d{1,6})(?: [nsew]| north| south| east| west)? ((?:[a-z]+ ){1,3})(?:${SUFFIX})\\b(?: (?:apt|unit|suite|ste) ?[a-z0-9]+)?`,
  "gi",
);
const PO_BOX = /\bp\.? ?o\.? box \d+\b/gi;
/** Titles that read as an address: shows, songs, novels. */
const TITLES = /\b(?:21 jump street|221b? baker street|54 street|90210)\b/i;

const PERSONAL_URL = [
  /\bmyspace(?:\.| )com(?:\/| )(?!(?:index|login|music|video|videos|help|search|signup|home|browse|games|comedy|film|groups|forums|blogs|books|jobs)\b)([a-z0-9_]{3,})/gi,
  /\b([a-z0-9-]{3,})(?:\.| )(?:blogspot|livejournal|xanga|tripod|angelfire|geocities)(?:\.| )com\b/gi,
  /\b(?:hometown|members)(?:\.| )aol(?:\.| )com(?:\/| )([a-z0-9_]{3,})/gi,
  /\/~([a-z0-9_.-]+)/gi,
  /\b(?:facebook|friendster)(?:\.| )com(?:\/| )(?!(?:login|home|help|index)\b)([a-z0-9._]{3,})/gi,
  /\b(?:profile\.php\?id|friendid)=(\d+)/gi,
];
const SITE_WORDS = new Set(["www", "blog", "blogs", "help", "login", "search"]);

const IP = /(?<![\d.])(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?![\d.])/g;

/** Words a street's name does not hold: a phrase that only ends in a road word ("98 on hard drive"). */
// biome-ignore format: a word list reads better packed
const NOT_STREET = new Set([
  "the", "a", "an", "and", "or", "of", "on", "in", "to", "for", "all", "my", "your", "with", "by", "at", "from", "is",
  "year", "years", "day", "days", "mile", "miles", "minute", "minutes", "hour", "hours", "step", "steps", "way", "ways",
]);
/** Cities named after a saint: "st" before them is "saint", not "street" ("… 1 training class st. louis"). */
// biome-ignore format: a word list reads better packed
const SAINT_CITIES = new Set([
  "louis", "paul", "cloud", "petersburg", "augustine", "joseph", "charles", "george", "johns", "marys", "pete",
  "clair", "helena", "lucie", "thomas", "croix", "albans", "simons",
]);

/**
 * Whether an ADDRESS match is one: not a price or a decimal ("1.50 cinema st"), not a year ("2006 road test"), a
 * street name of name words, a one-digit number only before an abbreviated suffix ("5 elm st", not "3 series
 * turning circle"), and "st" not a saint's city.
 */
function streetAddress(text: string, m: RegExpExecArray): boolean {
  const before = text[m.index - 1];
  if (before === "." || before === "$" || before === ",") return false;
  const n = Number(m[1]);
  if (n >= 1900 && n <= 2029) return false;
  if (
    m[2]!
      .trim()
      .split(" ")
      .some((w) => NOT_STREET.has(w))
  )
    return false;
  const suffix = /([a-z]+)(?: (?:apt|unit|suite|ste) ?[a-z0-9]+)?$/.exec(m[0])?.[1] ?? "";
  if (m[1]!.length === 1 && suffix.length > 4) return false;
  if (
    suffix === "st" &&
    SAINT_CITIES.has(/^[ .]*([a-z]+)/.exec(text.slice(m.index + m[0].length))?.[1] ?? "")
  )
    return false;
  return true;
}

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

function privateIp(a: number, b: number): boolean {
  return (
    a === 10 ||
    a === 127 ||
    a === 0 ||
    (a === 192 && b === 168) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 169 && b === 254)
  );
}

/** Every match of `re` in `text` that `keep` accepts, as a detection of `kind`. */
function matches(
  text: string,
  re: RegExp,
  kind: string,
  out: Detection[],
  keep: (m: RegExpExecArray) => boolean = () => true,
): void {
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    if (keep(m)) out.push({ kind, value: m[0], start: m.index, end: m.index + m[0].length });
  }
}

/** The identifiers with a shape in `text`. */
export function detectPatterns(text: string, lex: AuditLexicon): Detection[] {
  const out: Detection[] = [];
  const lower = text.toLowerCase();
  if (lower.includes("@")) matches(lower, EMAIL, "email", out);
  matches(lower, STRIPPED_EMAIL, "email", out, (m) => {
    const local = m[1]!;
    return !NOT_MAILBOX.has(local) && (/\d/.test(local) || !isWord(local, lex));
  });
  if (/\d/.test(lower)) {
    matches(lower, PHONE, "phone", out, (m) => !TOLL_FREE.has(m[1]!));
    matches(lower, SEVEN, "phone", out);
    matches(lower, SSN, "id_number", out, (m) => {
      const [area, group, serial] = [m[1]!, m[2]!, m[3]!];
      return area !== "000" && area !== "666" && area[0] !== "9" && group !== "00" && serial !== "0000";
    });
    matches(lower, SSN_CUE, "id_number", out);
    matches(lower, CARD, "id_number", out, (m) => {
      const digits = m[0].replace(/\D/g, "");
      return (
        digits.length >= 13 &&
        digits.length <= 19 &&
        /^(?:4|5[1-5]|3[47]|6011|65)/.test(digits) &&
        luhn(digits)
      );
    });
    matches(lower, LONG_NUMBER, "id_number", out);
    if (!TITLES.test(lower)) {
      matches(lower, ADDRESS, "street_address", out, (m) => streetAddress(lower, m));
    }
    matches(lower, IP, "ip_address", out, (m) => {
      const p = [m[1], m[2], m[3], m[4]].map(Number);
      return p.every((x) => x <= 255) && !privateIp(p[0]!, p[1]!);
    });
  }
  matches(lower, PO_BOX, "street_address", out);
  // (a site's page named by a word, "myspace com glitter", is no person's)
  for (const re of PERSONAL_URL)
    matches(
      lower,
      re,
      "url",
      out,
      (m) => !SITE_WORDS.has(m[1] ?? "") && (/\d/.test(m[1] ?? "") || !isWord(m[1] ?? "", lex)),
    );
  return out;
}
