/**
 * Dates tied to a person (Safe Harbor: "all elements of dates, except year, directly related to an individual":
 * birth, death, marriage, arrest). A date alone is usually an event ("july 4 2006", "september 11"), so a date
 * is an identifier only when the query also carries a personal cue (born, dob, birthday, died, obituary, …).
 * Dates are month-day with or without a year ("march 3 1961", "3rd march", "03/12/1965", "3 12 1965").
 */
import { type Finding, finding, type Query, type Recognizer } from "../recognizer.ts";

const CUE =
  /\b(?:born|birth|births|birthday|birthdate|bday|dob|d o b|died|death|deaths|deceased|obituary|obituaries|obit|obits|funeral|buried|burial|married|marriage|wedding|divorce|divorced|arrested|arrest|passed away)\b/;
const MONTH =
  "(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)";
const DAY = "(?:0?[1-9]|[12]\\d|3[01])(?:st|nd|rd|th)?";
const YEAR = "(?:1[89]\\d\\d|20\\d\\d|\\d\\d)";
const PATTERNS = [
  new RegExp(`\\b${MONTH}\\.?\\s+${DAY}(?:,?\\s+${YEAR})?\\b`, "g"),
  new RegExp(`\\b${DAY}\\s+(?:of\\s+)?${MONTH}(?:,?\\s+${YEAR})?\\b`, "g"),
  new RegExp(`\\b(?:0?[1-9]|1[0-2])([/.\\s-])${DAY}\\1${YEAR}\\b`, "g"),
];

export const dateRecognizer: Recognizer = {
  name: "date",
  types: ["date"],
  needsDigit: true,
  find(q: Query): Finding[] {
    const s = q.lower;
    if (!/\d/.test(s) || !CUE.test(s)) return [];
    const out: Finding[] = [];
    for (const re of PATTERNS) {
      re.lastIndex = 0;
      for (let m = re.exec(s); m !== null; m = re.exec(s)) {
        out.push(finding(q, "date", m.index, m.index + m[0].length, 0.7));
      }
    }
    return out;
  },
};
