/**
 * The one small interface every privacy or utility yardstick implements (like Presidio's recognizers: a new
 * yardstick is one new file plus one line in `registry.ts`; the experiment runner never changes).
 *
 * A yardstick compares the original log with a method's {@link Release} and returns named values. A value of
 * `null` means "n/a": the yardstick does not apply to this release (e.g. per-user measures on a DP count
 * table, or linkage without ground truth). Yardsticks never invent a number to fill a gap.
 */
import type { Taxonomy } from "../knowledge/taxonomy.ts";
import type { QueryLog } from "../log/record.ts";
import type { Release } from "../methods/method.ts";
import type { Rng } from "../util/random.ts";

/** A measured value; `null` = not applicable to this release. */
export type Value = number | null;

export type Measurement = Record<string, Value>;

/** One output column of a yardstick. */
export interface Column {
  /** Key in the results (`<yardstick>.<key>` in results.tsv). */
  readonly key: string;
  /** Short human label for tables and charts. */
  readonly label: string;
  /** "%" for percentages in [0, 100]; "" for other numbers. */
  readonly unit: "%" | "";
  /** Which direction is better for the data owner: privacy risks are "lower", utilities "higher". */
  readonly better: "lower" | "higher" | "none";
}

/** Settings shared by all yardsticks, from the experiment config. */
export interface YardstickOptions {
  /** Number of known queries of the background-knowledge adversary (paper-free; the issue asks 1, 2, 3). */
  readonly backgroundM: readonly number[];
  /** At most this many target users per background attack (sampled with the run's seed). */
  readonly backgroundTargets: number;
  /** How many of the most frequent queries the frequency yardstick compares. */
  readonly topQueries: number;
  /** Bid table (term TAB value) for the ad-value yardstick's bid and revenue; absent = those are n/a. */
  readonly bids?: string;
}

export const DEFAULT_OPTIONS: YardstickOptions = {
  backgroundM: [1, 2, 3],
  backgroundTargets: 1000,
  topQueries: 1000,
};

export interface YardstickContext {
  readonly rng: Rng;
  readonly options: YardstickOptions;
  /** The ODP taxonomy, for category profiles. */
  readonly taxonomy: () => Taxonomy;
  /**
   * ODP category path of a released record ("" = unclassified): its own `category`, else the category the
   * original log gave the same query text, else the classifier's answer when one is available.
   */
  readonly categoryOf: (query: string, own?: string) => string;
}

export interface YardstickInput {
  readonly original: QueryLog;
  readonly release: Release;
  /** The method's parsed parameters (what an attacker who knows the method is assumed to know). */
  readonly params?: Readonly<Record<string, unknown>>;
  /** The method that made the release (name and paper), for yardsticks specific to a method. */
  readonly method?: { readonly name: string; readonly paper: string };
}

export interface Yardstick {
  /** Short unique name, the prefix of its columns: "rl", "background", "retention", … */
  readonly name: string;
  readonly kind: "privacy" | "utility";
  /** One-line description for the report. */
  readonly title: string;
  /** Where it comes from (paper or issue). */
  readonly source: string;
  /** Plain-language guidance on reading it, shown in the report and docs/experiment.md. */
  readonly guidance: string;
  /** The columns it produces (may depend on options, e.g. one per m). */
  columns(options: YardstickOptions): Column[];
  measure(input: YardstickInput, ctx: YardstickContext): Promise<Measurement> | Measurement;
}

/** All columns of `y` as n/a: what a yardstick returns when it does not apply. */
export function notApplicable(y: Yardstick, options: YardstickOptions): Measurement {
  const out: Measurement = {};
  for (const c of y.columns(options)) out[c.key] = null;
  return out;
}

/** `part / whole × 100`, or n/a when `whole` is 0. */
export function percent(part: number, whole: number): Value {
  return whole === 0 ? null : (100 * part) / whole;
}
