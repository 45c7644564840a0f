/**
 * Famous names as searchers misspell them ("christina agulera", "bruce springsten"), and the famous three-word names
 * without their middle word ("billy thornton" for billy bob thornton). Searchers type a public figure's name from
 * memory, so a near miss of a name in the famous list (data/scrub/famous-people.txt, faker's artists and authors,
 * Pantheon) is that public figure far more often than a private person one letter away from them.
 *
 * "Near" is narrow, as first names and surnames one substitution apart are different people ("john baker",
 * "joan barker"): the first words equal, and the surname one letter longer or shorter than the famous one (a
 * doubled or dropped letter), at least 5 letters long. Looked up only for a candidate the recognizer is about to
 * accept (a few per cent of queries), through an index of the famous names by first word, built on first use
 * (~10 ms; an index of the surnames' one-letter deletions took ~200 ms, paid by every process that meets a name).
 */
import { distance } from "fastest-levenshtein";
import { nameHash } from "./name-hash.ts";
import type { NameLexicon } from "./names.ts";

/** The famous entries of two or three words, as word arrays, by first word. */
let byFirst: Map<string, string[][]> | undefined;
let indexedFrom: ReadonlySet<string> | undefined;

function buildIndex(famous: ReadonlySet<string>): Map<string, string[][]> {
  const m = new Map<string, string[][]>();
  for (const entry of famous) {
    const ws = entry.split(" ");
    if (ws.length < 2 || ws.length > 3) continue;
    const list = m.get(ws[0]!);
    if (list) list.push(ws);
    else m.set(ws[0]!, [ws]);
  }
  return m;
}

/** True when `a` and `b` are one inserted or deleted letter apart and the longer has 5 letters or more. */
function oneLetterApart(a: string, b: string): boolean {
  return Math.abs(a.length - b.length) === 1 && Math.max(a.length, b.length) >= 5 && distance(a, b) === 1;
}

/**
 * {@link nearFamous} on the built list, kept as hashes: the candidate is one of its forms or such a form with a letter
 * dropped from the surname, or the candidate with a letter dropped from its surname is one of its forms.
 */
function nearBuilt(lex: NameLexicon, words: readonly string[]): boolean {
  const key = words.join(" ");
  const h = nameHash(key);
  if (lex.nearExact.has(h) || lex.nearDropped.has(h)) return true;
  const last = words[words.length - 1]!;
  if (last.length < 5) return false;
  const head = key.slice(0, key.length - last.length);
  for (let i = 0; i < last.length; i++) {
    if (lex.nearExact.has(nameHash(head + last.slice(0, i) + last.slice(i + 1)))) return true;
  }
  return false;
}

/**
 * True when `words` (a candidate name, lower case) is a famous name with a letter more or less in the surname, a
 * famous three-word name without its middle word, or a famous two-word name with one.
 */
export function nearFamous(lex: NameLexicon, words: readonly string[]): boolean {
  if (words.length < 2 || words.length > 3) return false;
  if (nearBuilt(lex, words)) return true;
  // a famous two-word name with a middle name typed between ("kenny wayne chesney" for kenny chesney)
  // (a name, not an initial: "kenny h. chesney" is anyone's)
  if (words.length === 3 && words[1]!.replace(/\./g, "").length >= 3) {
    const outer = `${words[0]} ${words[2]}`;
    if (lex.famous.has(outer) || lex.publicHashes.has(nameHash(outer))) return true;
  }
  if (indexedFrom !== lex.famous) {
    byFirst = buildIndex(lex.famous);
    indexedFrom = lex.famous;
  }
  const last = words[words.length - 1]!;
  for (const ws of byFirst!.get(words[0]!) ?? []) {
    const famousLast = ws[ws.length - 1]!;
    if (last !== famousLast && !oneLetterApart(last, famousLast)) continue;
    // the same words, or "billy thornton" for billy bob thornton (an exact match is the famous name itself)
    if (words.length === 2 ? ws.length <= 3 : ws.length === 3 && words[1] === ws[1]) return true;
  }
  return false;
}
