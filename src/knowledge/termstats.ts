/**
 * Term specificity — paper 000's "entropy": the number of web references of a term (fewer = more specific).
 * A pluggable table `term TAB count`: the bundled stand-in is document frequencies of Porter stems over the
 * 1,040,984 web pages clicked in AOL (data/termstats/web-document-frequency.tsv, MIT, from
 * wasiahmad/intent_aware_privacy_protection_in_pws); a search engine plugs in its own hit counts the same way.
 *
 * A phrase's count is estimated from its words' counts assuming independence, `N · Π(df_i / N)` — the expected
 * number of pages holding all of them — so "european soccer" is more specific than either word.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { InputError } from "../util/errors.ts";
import { type CountTable, PackedCounts } from "./packed-counts.ts";

export const BUNDLED_TERMSTATS = fileURLToPath(
  new URL("../../data/termstats/web-document-frequency.tsv", import.meta.url),
);

export class TermStats {
  private constructor(
    private readonly counts: CountTable,
    /** Number of documents (line 1 of the file), the N of the estimate. */
    readonly documents: number,
    /** Where the table came from, for `kb info`. */
    readonly source: string,
  ) {}

  /**
   * Parse `N` on line 1 (optional: a line with one number) then `term TAB count` lines. Terms are expected
   * to be Porter stems (see `stem`). Malformed lines are an InputError naming file and line.
   */
  static fromTsv(text: string, source = "<termstats>"): TermStats {
    const counts = new Map<string, number>();
    let documents = 0;
    const lines = text.split("\n");
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!.trimEnd();
      if (line === "") continue;
      const tab = line.indexOf("\t");
      if (tab < 0 && i === 0 && /^\d+$/.test(line)) {
        documents = Number(line);
        continue;
      }
      const count = Number(line.slice(tab + 1));
      if (tab <= 0 || !Number.isFinite(count) || count < 0) {
        throw new InputError(source, i + 1, `expected 'term TAB count', got ${JSON.stringify(line)}`);
      }
      counts.set(line.slice(0, tab), (counts.get(line.slice(0, tab)) ?? 0) + count);
    }
    if (documents <= 0) for (const c of counts.values()) documents = Math.max(documents, c);
    return new TermStats(counts, documents, source);
  }

  static load(path: string): TermStats {
    return TermStats.fromTsv(readFileSync(path, "utf8"), path);
  }

  static bundled(): TermStats {
    return TermStats.load(BUNDLED_TERMSTATS);
  }

  /** Build from an existing map (used when a snapshot is loaded). */
  static fromEntries(
    entries: Iterable<readonly [string, number]>,
    documents: number,
    source: string,
  ): TermStats {
    return new TermStats(new Map(entries as Iterable<[string, number]>), documents, source);
  }

  /** Read a snapshot's `stem TAB count` table in place (see packed-counts.ts; used when a snapshot is loaded). */
  static fromTable(table: string, documents: number, source: string): TermStats {
    return new TermStats(new PackedCounts(table), documents, source);
  }

  get size(): number {
    return this.counts.size;
  }

  entries(): IterableIterator<[string, number]> {
    return this.counts.entries();
  }

  /** Count of one stem; undefined when the table does not know it (rarer than its cut-off, or a typo). */
  count(term: string): number | undefined {
    return this.counts.get(term);
  }

  /**
   * Estimated references of a phrase given as stems. Unknown stems count as 1 (rarer than anything listed),
   * so an unknown word is the most specific unit — the classifier then decides whether it maps anywhere.
   */
  phraseCount(stems: readonly string[]): number {
    let p = 1;
    for (const s of stems) p *= (this.counts.get(s) ?? 1) / this.documents;
    return p * this.documents;
  }
}
