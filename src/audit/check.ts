/**
 * The one small interface every audit check implements. A check reads the original log, the written release
 * (a log, or dp's count table) and the method's name, parameters and summary — nothing of the method's code —
 * and says whether the release keeps one promise, with the violating records (the first few, and their count).
 */

import type { DeclaredInput } from "../log/declared.ts";
import type { Guarantee } from "../log/guarantee.ts";
import type { QueryLog } from "../log/record.ts";

/** A released count table (dp), as read from its file. */
export interface ReleasedTable {
  readonly queries: readonly { readonly query: string; readonly count: number }[];
  readonly clicks: readonly { readonly query: string; readonly url: string; readonly count: number }[];
}

/**
 * The allow list a release was made with, as the audit reads it (the scrubber's `AllowList` is one): its phrases,
 * each optionally followed by a tab and a category, and its size for a person.
 */
export interface AllowedPhrases {
  entries(): string[];
  describe(): string;
}

/** What an audit looks at: the two files and what the method was asked to do. */
export interface AuditSubject {
  /** The method's registry name (swap, km, mdav, …), for messages. */
  readonly method: string;
  /** What the method declares: the model the checks apply by, the text its input was prepared to. */
  readonly declared: DeclaredInput;
  /** The method's parameters with defaults filled in (as its `parse` returns them). */
  readonly params: Readonly<Record<string, unknown>>;
  readonly original: QueryLog;
  /**
   * The original as read, when `original` is what the audit made of it to compare with the release (classified or
   * scrubbed as the method's input was): the identifiers check reads the query-URL pairs as logged.
   */
  readonly asRead?: QueryLog;
  /** The released log; absent when the method released a count table. */
  readonly released?: QueryLog;
  /** The released count table (dp). */
  readonly table?: ReleasedTable;
  /** The method's summary counts (`anonymize --json`, or the release's counts in an experiment). */
  readonly summary?: Readonly<Record<string, unknown>>;
  /** The guarantee the release claims (the summary's, or the release's in an experiment and the API). */
  readonly guarantee?: Guarantee;
  /** Phrases the release may keep in its texts though the scrubber finds them (`--allow-list`: public figures). */
  readonly allow?: AllowedPhrases;
}

export interface CheckOutcome {
  /** What was looked at, for the table: e.g. "1,204 users in 401 groups". */
  readonly checked: string;
  /** Number of violations (0 = the promise holds). */
  readonly violations: number;
  /** The first violations, one line each, naming the records. */
  readonly examples: readonly string[];
}

export interface AuditCheck {
  /** Short name, shown in the table and in the experiment's verdict. */
  readonly name: string;
  /** The promise checked, in one line. */
  readonly promise: string;
  /** Whether the check applies (by the declared model or text, by what was released, by parameters). */
  applies(s: AuditSubject): boolean;
  /** Check, keeping at most `limit` examples. */
  run(s: AuditSubject, limit: number): CheckOutcome;
}

/** Collects violations: counts all, keeps the first `limit`. */
export class Violations {
  count = 0;
  readonly examples: string[] = [];
  constructor(private readonly limit: number) {}
  add(describe: () => string): void {
    this.count++;
    if (this.examples.length < this.limit) this.examples.push(describe());
  }
  outcome(checked: string): CheckOutcome {
    return { checked, violations: this.count, examples: this.examples };
  }
}

/** `1,234` */
export const n = (x: number): string => x.toLocaleString("en");
