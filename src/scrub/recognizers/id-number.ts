/**
 * Account, card, tracking, licence, plate and similar numbers (Safe Harbor's "account numbers", "certificate/
 * licence numbers", "vehicle identifiers", "any other unique identifying number"):
 * - a long digit run (9+ digits, not a phone number the phone recognizer takes with a higher score),
 * - card numbers written in groups of four that pass the Luhn check ("4111 1111 1111 1111"),
 * - long codes that mix letters and digits, like parcel tracking numbers or VINs ("1z87420300316932"),
 * - a code with three digits or more after a cue word ("license plate abc123", "account 44821"), or after a
 *   weaker cue followed by "number"/"#" ("case number 2006cv1234", "order # 88123"),
 * unless a word before it makes it a product, book or legal reference ("isbn 0534997295", "part pch115700g").
 * Short model numbers, forms and titles ("w2 form", "1040 ez", "windows 95", "xbox 360", "mp3") are left alone:
 * they are short, or they are not after a cue.
 */
import { type Finding, finding, type Query, type Recognizer, tokenFinding } from "../recognizer.ts";

const LONG_DIGITS = /(?<![\w-])\d{9,19}(?![\w-])/g;
const CARD = /(?<![\w-])\d{4}(?:[\s-]\d{4}){2,3}(?:[\s-]\d{1,4})?(?![\w-])/g;

/** Words before a number that make it a product, book or legal reference, not a person's identifier. */
// biome-ignore format: a word list reads better packed
export const NOT_PERSONAL: ReadonlySet<string> = new Set([
  "isbn", "issn", "upc", "sku", "asin", "ean", "part", "parts", "model", "item", "catalog", "product", "style",
  "stock", "mcl", "statute", "statutes", "oar", "usc", "cfr", "rule", "rules", "section", "sec", "code", "form",
  "chapter", "article", "bill", "hb", "sb", "law", "patent", "version", "firmware", "lot", "flight", "route",
]);

/** Luhn checksum, which every payment card number passes. */
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

/** Whether one of the two tokens before token `i` says the code is not personal. */
function afterNonPersonal(q: Query, i: number): boolean {
  return NOT_PERSONAL.has(q.tokens[i - 1]?.text ?? "") || NOT_PERSONAL.has(q.tokens[i - 2]?.text ?? "");
}

/** Index of the token starting at `offset`, or -1. */
function tokenAt(q: Query, offset: number): number {
  return q.tokens.findIndex((t) => t.start === offset);
}

/** Cue words after which a code is an identifier: strong ones alone, weak ones only with "number"/"no"/"#". */
// biome-ignore format: a word list reads better packed
const CUES = new Set([
  "account", "acct", "license", "licence", "policy", "docket", "claim", "tracking", "vin", "permit", "routing",
  "inmate", "booking", "badge", "dl", "pin", "confirmation", "ssn",
]);
const WEAK_CUES = new Set([
  "case",
  "member",
  "membership",
  "patient",
  "student",
  "employee",
  "passport",
  "customer",
  "invoice",
  "order",
  "serial",
  "reservation",
  "acc",
  "lic",
  "id",
]);
const FILLER = new Set(["number", "no", "num", "nbr", "id", "#", "plate", "plates", "is", "of"]);
const NUMBER_WORDS = new Set(["number", "no", "num", "nbr", "#"]);

/** A token that looks like a code: at least four characters with three digits or more, not a plain year. */
function codeLike(t: string): boolean {
  if (t.length < 4) return false;
  let digits = 0;
  for (let i = 0; i < t.length; i++) if (t.charCodeAt(i) >= 48 && t.charCodeAt(i) <= 57) digits++;
  return digits >= 3 && !/^(?:19|20)\d\d$/.test(t);
}

export const idNumberRecognizer: Recognizer = {
  name: "id-number",
  types: ["id_number"],
  needsDigit: true,
  find(q: Query): Finding[] {
    const out: Finding[] = [];
    const s = q.lower;
    if (/\d{4}/.test(s)) {
      LONG_DIGITS.lastIndex = 0;
      for (let m = LONG_DIGITS.exec(s); m !== null; m = LONG_DIGITS.exec(s)) {
        if (afterNonPersonal(q, tokenAt(q, m.index))) continue;
        out.push(finding(q, "id_number", m.index, m.index + m[0].length, 0.55));
      }
      CARD.lastIndex = 0;
      for (let m = CARD.exec(s); m !== null; m = CARD.exec(s)) {
        // "2003 2004 2005 2006" is a list of years: a card number passes the Luhn check
        if (!luhn(m[0].replace(/\D/g, ""))) continue;
        out.push(finding(q, "id_number", m.index, m.index + m[0].length, 0.85));
      }
    }
    const t = q.tokens;
    for (let i = 0; i < t.length; i++) {
      const tok = t[i]!;
      // Long mixed code: letters and at least six digits, ten characters or more.
      if (tok.text.length >= 10 && !tok.digits && /[a-z]/.test(tok.text)) {
        const digits = tok.text.replace(/\D/g, "").length;
        if (digits >= 6 && !afterNonPersonal(q, i)) out.push(tokenFinding(q, "id_number", i, i, 0.75));
      }
      const strong = CUES.has(tok.text);
      if (!strong && !WEAK_CUES.has(tok.text)) continue;
      let j = i + 1;
      let numberWord = false;
      // (Not `numberWord ||= NUMBER_WORDS.has(t[j++].text)`: once true, `||=` skips the increment and loops forever.)
      for (; j < t.length && j <= i + 3 && FILLER.has(t[j]!.text); j++) {
        if (NUMBER_WORDS.has(t[j]!.text)) numberWord = true;
      }
      if (!strong && !numberWord && !q.text.slice(tok.end, t[j]?.start ?? tok.end).includes("#")) continue;
      if (j < t.length && codeLike(t[j]!.text)) out.push(tokenFinding(q, "id_number", j, j, 0.8));
    }
    return out;
  },
};
