/**
 * US phone numbers (NANP): "555-123-4567", "(555) 123 4567", "555 123 4567", "2125551234", "1 555 123 4567",
 * and seven-digit local numbers when they carry a separator ("123-4567") or a phone cue ("phone 123 4567").
 * The area code cannot start with 0 or 1 in NANP; for a ten-digit run without separators the exchange cannot
 * either, which rules out most digit runs that only look like numbers (ISBNs, order numbers). Toll-free and premium codes (800, 888, …, 900) are business lines,
 * not personal identifiers, and are left alone.
 */
import { type Finding, finding, type Query, type Recognizer } from "../recognizer.ts";
import { NOT_PERSONAL } from "./id-number.ts";

/** With separators the exchange may start with 1 ("555 123 4567" is how people write a made-up number), not 0. */
const TEN =
  /(?<![\w.-])(?:\+?1[\s.-]?)?(?:\(([2-9]\d\d)\)\s*|([2-9]\d\d)[\s.-])([1-9]\d\d)[\s.-](\d{4})(?![\w-]|\.\d)/g;
/** Without separators the full NANP rule applies, which keeps ISBNs and order numbers out. */
const CONTIGUOUS = /(?<![\w.-])1?([2-9]\d\d)[2-9]\d\d\d{4}(?![\w-]|\.\d)/g;
const SEVEN = /(?<![\w.-])(\d{3})([\s.-])(\d{4})(?![\w-]|\.\d)/g;
const TOLL = new Set(["800", "888", "877", "866", "855", "844", "833", "822", "900", "976"]);
const CUE = /\b(?:phone|tel|telephone|cell|cellphone|mobile|fax|call|number|reverse|lookup|ph)\s*$/;

/** "oar 333-060-0105", "mcl 324.8201": a code or statute reference, by the word before the number. */
function legalReference(s: string, at: number): boolean {
  const before = /([a-z]+)\W*$/.exec(s.slice(Math.max(0, at - 20), at));
  return before !== null && NOT_PERSONAL.has(before[1]!);
}

export const phoneRecognizer: Recognizer = {
  name: "phone",
  types: ["phone"],
  needsDigit: true,
  find(q: Query): Finding[] {
    const s = q.lower;
    if (!/\d{3}/.test(s)) return [];
    const out: Finding[] = [];
    TEN.lastIndex = 0;
    for (let m = TEN.exec(s); m !== null; m = TEN.exec(s)) {
      if (TOLL.has(m[1] ?? m[2] ?? "") || legalReference(s, m.index)) continue;
      out.push(finding(q, "phone", m.index, m.index + m[0].length, 0.85));
    }
    CONTIGUOUS.lastIndex = 0;
    for (let m = CONTIGUOUS.exec(s); m !== null; m = CONTIGUOUS.exec(s)) {
      if (TOLL.has(m[1]!)) continue;
      out.push(finding(q, "phone", m.index, m.index + m[0].length, 0.6));
    }
    SEVEN.lastIndex = 0;
    for (let m = SEVEN.exec(s); m !== null; m = SEVEN.exec(s)) {
      const cue = CUE.test(s.slice(0, m.index));
      // "123 4567" and "324.8201" (a statute section) are numbers of many kinds; "123-4567" is a phone number
      if (m[2] !== "-" && !cue) continue;
      if (legalReference(s, m.index)) continue;
      out.push(finding(q, "phone", m.index, m.index + m[0].length, cue ? 0.8 : 0.7));
    }
    return out;
  },
};
