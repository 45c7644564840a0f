/**
 * No identifier in the release, by a detector of the audit's own (../detector: patterns for e-mail, phone, SSN,
 * card and account numbers, street addresses, personal URLs, IPs, and a test for private persons' names on its own
 * word lists), which shares no code and no list with the scrubber that cleaned the release: a released query text
 * holds none, and no released click URL has a host that carries an identifier the detector finds in a query the
 * original logged with that URL (`helenwatson133 aol com` → `http://www.helenwatson1334u.com`). Each violation names
 * the first released record that holds it. A phrase of the allow list the release was made with is not a
 * violation. Every method whose declared input is scrubbed or classified text promises it (identity and clientside
 * release the text as typed, by design).
 */
import type { LogRecord } from "../../log/record.ts";
import { type AllowedPhrases, type AuditCheck, n, Violations } from "../check.ts";
import { type Detection, detectIdentifiers, hostCarries, identifierWords } from "../detector/index.ts";

/** What the audit learned of one original log, kept while the log lives (an experiment audits many releases). */
interface Known {
  readonly allow: AllowedPhrases | undefined;
  /** Click URLs whose host carries an identifier of a query the original logged with them → why. */
  readonly identifying: Map<string, string>;
  /** Query-URL pairs looked at. */
  readonly pairs: number;
}

const known = new WeakMap<readonly LogRecord[], Known>();

/** The allowed phrases' token sequences, for {@link allowed}. */
const phrasesOf = new WeakMap<AllowedPhrases, ReadonlySet<string>>();

const TOKEN = /[\p{L}\p{N}]+(?:'[\p{L}\p{N}]+)*/gu;
const tokens = (text: string) => (text.toLowerCase().match(TOKEN) ?? []).join(" ");

function phrases(allow: AllowedPhrases): ReadonlySet<string> {
  let p = phrasesOf.get(allow);
  if (p === undefined) {
    p = new Set(allow.entries().map((e) => tokens(e.split("\t")[0]!)));
    phrasesOf.set(allow, p);
  }
  return p;
}

/**
 * Whether `d` lies within an occurrence of an allowed phrase in `text` (also with `'s` or `s` on its last word,
 * and a two-word phrase reversed): the list's promise that these phrases are not identifiers.
 */
function allowed(text: string, d: Detection, allow: AllowedPhrases | undefined): boolean {
  if (allow === undefined) return false;
  const list = phrases(allow);
  const words: { text: string; start: number; end: number }[] = [];
  TOKEN.lastIndex = 0;
  const lower = text.toLowerCase();
  for (let m = TOKEN.exec(lower); m !== null; m = TOKEN.exec(lower))
    words.push({ text: m[0], start: m.index, end: m.index + m[0].length });
  for (let i = 0; i < words.length; i++) {
    for (let j = i; j < words.length && j < i + 12; j++) {
      if (words[i]!.start > d.start || words[j]!.end < d.end) continue;
      const ws = words.slice(i, j + 1).map((w) => w.text);
      const key = ws.join(" ");
      const bare = key.replace(/(?:'s|s)$/, "");
      if (list.has(key) || list.has(bare) || (ws.length === 2 && list.has(`${ws[1]} ${ws[0]}`))) return true;
    }
  }
  return false;
}

function describe(found: readonly Detection[]): string {
  return found.map((d) => `${d.kind} ${JSON.stringify(d.value)}`).join(", ");
}

function knownOf(records: readonly LogRecord[], allow: AllowedPhrases | undefined): Known {
  let k = known.get(records);
  if (k && k.allow === allow) return k;
  const identifying = new Map<string, string>();
  const seen = new Set<string>();
  for (const r of records) {
    if (!r.clickUrl || r.query === "") continue;
    const key = `${r.query}\u0000${r.clickUrl}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (identifying.has(r.clickUrl)) continue;
    const found = detectIdentifiers(r.query).filter((d) => !allowed(r.query, d, allow));
    const words = identifierWords(found);
    if (hostCarries(r.clickUrl, words))
      identifying.set(r.clickUrl, `names ${words.join(", ")} (input query ${JSON.stringify(r.query)})`);
  }
  k = { allow, identifying, pairs: seen.size };
  known.set(records, k);
  return k;
}

export const identifiers: AuditCheck = {
  name: "identifiers",
  promise: "the audit's own detector finds no identifier in released query texts or click URLs",
  applies: (s) => s.declared.text !== "raw",
  run(s, limit) {
    // (the query-URL pairs as the original logged them, before any scrubbing the audit redid to compare with)
    const k = knownOf((s.asRead ?? s.original).records, s.allow);
    const v = new Violations(limit);
    /** Each distinct released text → where it first appears. */
    const texts = new Map<string, string>();
    const urls = new Map<string, string>();
    const records = s.released?.records ?? [];
    for (let i = 0; i < records.length; i++) {
      const r = records[i]!;
      const where = `record ${n(i + 1)} (user ${r.user})`;
      if (!texts.has(r.query)) texts.set(r.query, where);
      if (r.clickUrl && !urls.has(r.clickUrl)) urls.set(r.clickUrl, where);
    }
    (s.table?.queries ?? []).forEach((q, i) => {
      if (!texts.has(q.query)) texts.set(q.query, `query row ${n(i + 1)}`);
    });
    (s.table?.clicks ?? []).forEach((c, i) => {
      if (!texts.has(c.query)) texts.set(c.query, `click row ${n(i + 1)}`);
      if (!urls.has(c.url)) urls.set(c.url, `click row ${n(i + 1)}`);
    });
    for (const [text, where] of texts) {
      const found = detectIdentifiers(text).filter((d) => !allowed(text, d, s.allow));
      if (found.length > 0) v.add(() => `${where}: ${JSON.stringify(text)}: ${describe(found)}`);
    }
    for (const [url, where] of urls) {
      const why = k.identifying.get(url);
      if (why !== undefined) v.add(() => `${where}: ${url}: ${why}`);
    }
    const list = s.allow === undefined ? "" : `; allow list of ${s.allow.describe()}`;
    return v.outcome(
      `${n(texts.size)} distinct texts, ${n(urls.size)} click URLs (${n(k.pairs)} logged query-URL pairs)${list}`,
    );
  },
};
