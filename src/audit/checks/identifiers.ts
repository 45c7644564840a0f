/**
 * No identifier in the release: the scrubber (src/scrub, the HIPAA Safe Harbor step) finds nothing in any
 * released query text, and no released click URL has a host that carries an identifier the scrubber finds in a
 * query the input logged with that URL (`helenwatson133 aol com` → `http://www.helenwatson1334u.com`).
 * Every method whose declared input is scrubbed or classified text promises it (identity and clientside release
 * the text as typed, by design).
 */
import type { LogRecord } from "../../log/record.ts";
import type { AllowList } from "../../scrub/allow-list.ts";
import { hostCarries, identifierWords } from "../../scrub/click-url.ts";
import { createScrubber, type Scrubber } from "../../scrub/scrubber.ts";
import { type AuditCheck, n, Violations } from "../check.ts";

/** What the audit learned of one original log, kept while the log lives (an experiment audits many releases). */
interface Known {
  /** The allow list this was learned with. */
  readonly allow: AllowList | undefined;
  /** Click URLs whose host carries an identifier of a query the input logged with them → why. */
  readonly identifying: Map<string, string>;
  /** Query-URL pairs looked at. */
  readonly pairs: number;
  /** Texts already scrubbed → their identifiers ("" = none). */
  readonly texts: Map<string, string>;
}

const known = new WeakMap<readonly LogRecord[], Known>();
/** The scrubber without an allow list, and the one of each list. */
let plain: Scrubber | undefined;
const withList = new WeakMap<AllowList, Scrubber>();

function scrubberOf(allow: AllowList | undefined): Scrubber {
  if (allow === undefined) {
    plain ??= createScrubber();
    return plain;
  }
  let s = withList.get(allow);
  if (s === undefined) {
    s = createScrubber({ allow });
    withList.set(allow, s);
  }
  return s;
}

function knownOf(records: readonly LogRecord[], allow: AllowList | undefined): Known {
  let k = known.get(records);
  if (k && k.allow === allow) return k;
  const scrubber = scrubberOf(allow);
  const identifying = new Map<string, string>();
  const seen = new Set<string>();
  for (const r of records) {
    if (!r.clickUrl || r.query === "") continue;
    const key = `${r.query}\u0000${r.clickUrl}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (identifying.has(r.clickUrl)) continue;
    const words = identifierWords(scrubber.scrub(r.query).spans);
    if (hostCarries(r.clickUrl, words)) {
      identifying.set(r.clickUrl, `names ${words.join(", ")} (input query ${JSON.stringify(r.query)})`);
    }
  }
  k = { allow, identifying, pairs: seen.size, texts: new Map() };
  known.set(records, k);
  return k;
}

export const identifiers: AuditCheck = {
  name: "identifiers",
  promise: "the scrubber finds no identifier in released query texts or click URLs",
  applies: (s) => s.declared.text !== "raw",
  run(s, limit) {
    const k = knownOf(s.original.records, s.allow);
    const scrubber = scrubberOf(s.allow);
    const v = new Violations(limit);
    const texts = new Set<string>();
    const urls = new Set<string>();
    for (const r of s.released?.records ?? []) {
      texts.add(r.query);
      if (r.clickUrl) urls.add(r.clickUrl);
    }
    for (const q of s.table?.queries ?? []) texts.add(q.query);
    for (const c of s.table?.clicks ?? []) {
      texts.add(c.query);
      urls.add(c.url);
    }
    for (const text of texts) {
      if (text === "") continue;
      let found = k.texts.get(text);
      if (found === undefined) {
        const spans = scrubber.scrub(text).spans;
        found = spans.map((x) => `${x.type} ${JSON.stringify(x.value)}`).join(", ");
        k.texts.set(text, found);
      }
      if (found !== "") {
        const why = found;
        v.add(() => `${JSON.stringify(text)}: ${why}`);
      }
    }
    for (const url of urls) {
      const why = k.identifying.get(url);
      if (why !== undefined) v.add(() => `${url}: ${why}`);
    }
    const allowed = s.allow === undefined ? "" : `; allow list of ${s.allow.describe()}`;
    return v.outcome(
      `${n(texts.size)} distinct texts, ${n(urls.size)} click URLs (${n(k.pairs)} logged query-URL pairs)${allowed}`,
    );
  },
};
