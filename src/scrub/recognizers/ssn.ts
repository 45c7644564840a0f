/**
 * US Social Security numbers: "123-45-6789", "123 45 6789", or nine digits after an SSN cue ("ssn 123456789").
 * Numbers the SSA never issues (area 000, 666 or 9xx, group 00, serial 0000) are not SSNs.
 */
import { type Finding, finding, type Query, type Recognizer } from "../recognizer.ts";

const GROUPED = /(?<![\w-])(\d{3})([\s.-])(\d{2})\2(\d{4})(?![\w-])/g;
const BARE = /(?<![\w-])(\d{3})(\d{2})(\d{4})(?![\w-])/g;
const CUE = /\b(?:ssn|ss|social security(?: number| no| #)?|soc sec|ss#|ssan)\s*#?\s*$/;

function valid(area: string, group: string, serial: string): boolean {
  return area !== "000" && area !== "666" && area[0] !== "9" && group !== "00" && serial !== "0000";
}

export const ssnRecognizer: Recognizer = {
  name: "ssn",
  types: ["id_number"],
  needsDigit: true,
  find(q: Query): Finding[] {
    const s = q.lower;
    if (!/\d{4}/.test(s)) return [];
    const out: Finding[] = [];
    GROUPED.lastIndex = 0;
    for (let m = GROUPED.exec(s); m !== null; m = GROUPED.exec(s)) {
      if (!valid(m[1]!, m[3]!, m[4]!)) continue;
      out.push(finding(q, "id_number", m.index, m.index + m[0].length, m[2] === "-" ? 0.9 : 0.8));
    }
    BARE.lastIndex = 0;
    for (let m = BARE.exec(s); m !== null; m = BARE.exec(s)) {
      if (!valid(m[1]!, m[2]!, m[3]!) || !CUE.test(s.slice(0, m.index))) continue;
      out.push(finding(q, "id_number", m.index, m.index + m[0].length, 0.9));
    }
    return out;
  },
};
