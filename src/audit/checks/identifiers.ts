/**
 * No identifier in the release: the scrubber (src/scrub, the HIPAA Safe Harbor step) finds nothing in any
 * released query text, and no released click URL has a host that carries an identifier the scrubber finds in a
 * query the input logged with that URL (`helenwatson133 aol com` → `http://www.helenwatson1334u.com`).
 * Every method but the identity baseline promises it.
 */
import { hostCarries, identifierWords } from "../../scrub/click-url.ts";
import { createScrubber } from "../../scrub/scrubber.ts";
import { type AuditCheck, n, Violations } from "../check.ts";

export const identifiers: AuditCheck = {
  name: "identifiers",
  promise: "the scrubber finds no identifier in released query texts or click URLs",
  applies: (s) => s.method !== "identity",
  run(s, limit) {
    const scrubber = createScrubber();
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
      const spans = scrubber.scrub(text).spans;
      if (spans.length > 0) {
        v.add(
          () =>
            `${JSON.stringify(text)}: ${spans.map((x) => `${x.type} ${JSON.stringify(x.value)}`).join(", ")}`,
        );
      }
    }
    // URLs whose host carries an identifier of a query the input logged with them.
    const seen = new Set<string>();
    for (const r of s.original.records) {
      if (!r.clickUrl || !urls.has(r.clickUrl) || r.query === "") continue;
      const key = `${r.query}\u0000${r.clickUrl}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const words = identifierWords(scrubber.scrub(r.query).spans);
      if (hostCarries(r.clickUrl, words)) {
        urls.delete(r.clickUrl);
        v.add(() => `${r.clickUrl}: names ${words.join(", ")} (input query ${JSON.stringify(r.query)})`);
      }
    }
    return v.outcome(`${n(texts.size)} distinct texts, ${n(seen.size)} logged query-URL pairs`);
  },
};
