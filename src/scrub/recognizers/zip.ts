/**
 * ZIP codes. Safe Harbor allows only the first three digits of a ZIP code, so a full five-digit (or ZIP+4) code
 * is an identifier when the query shows it is one: after a state ("springfield il 62701", "ohio 43085") or after
 * a ZIP cue ("zip 90210", "zip code 10001"). A bare five-digit number is too often something else (a product or
 * part number, a count) and is left alone.
 */
import { STATE_ABBREVIATIONS, STATE_LAST_WORDS } from "../lexicon/places.ts";
import { type Finding, type Query, type Recognizer, tokenFinding } from "../recognizer.ts";

const CUES = new Set(["zip", "zipcode", "zipcodes"]);

export const zipRecognizer: Recognizer = {
  name: "zip",
  types: ["zip"],
  needsDigit: true,
  find(q: Query): Finding[] {
    const t = q.tokens;
    const out: Finding[] = [];
    for (let i = 1; i < t.length; i++) {
      const tok = t[i]!;
      if (!tok.digits || tok.text.length !== 5) continue;
      const prev = t[i - 1]!.text;
      const state = STATE_ABBREVIATIONS.has(prev) || STATE_LAST_WORDS.has(prev);
      const cue = CUES.has(prev) || (prev === "code" && /^(?:zip|postal)$/.test(t[i - 2]?.text ?? ""));
      if (!state && !cue) continue;
      // ZIP+4: "43085-1234" or "43085 1234"
      const next = t[i + 1];
      const plus4 =
        next?.digits && next.text.length === 4 && /^[\s-]$/.test(q.text.slice(tok.end, next.start));
      out.push(tokenFinding(q, "zip", i, plus4 ? i + 1 : i, 0.7));
    }
    return out;
  },
};
