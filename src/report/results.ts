/**
 * What an experiment hands to its readers: one {@link ResultRow} per combination and the {@link RunMeta} of the
 * run. The report (html.ts, pel.ts) and results.tsv/results.json are written from these types alone; the
 * experiment runner produces them and nothing here imports the runner back.
 */
import type { Guarantee } from "../log/guarantee.ts";
import type { Value, YardstickOptions } from "../metrics/yardstick.ts";

/**
 * The two result columns on the frontier chart's axes, and the risk budget: the most the reader accepts on the
 * privacy column (in its unit, % for the attacks), which picks the configuration the report recommends.
 */
export interface Frontier {
  readonly privacy: string;
  readonly utility: string;
  readonly budget: number;
}

/** One line of results.tsv / one entry of results.json. */
export interface ResultRow {
  /** Cache key of the combination. */
  readonly key: string;
  readonly method: string;
  readonly paper: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly seed: number;
  readonly status: "ok" | "error";
  readonly error?: string;
  /** Wall-clock seconds to anonymize and measure (not part of the cache identity). */
  readonly seconds: number;
  /** The method's own counters (released, suppressed, …). */
  readonly counts: Readonly<Record<string, number>>;
  /** The privacy model the release keeps, with its parameters (k, (k,m), (ε, δ)…; model "none" on errors). */
  readonly guarantee: Guarantee;
  /** The audit's verdict on the release: "pass", or "FAIL: " and the failed checks (absent on errors). */
  readonly audit?: string;
  /** The failed checks' first violations, one line each (absent when the audit passed). */
  readonly auditViolations?: readonly string[];
  /** Seconds spent in the method ("anonymize") and in each yardstick, by name. */
  readonly timings?: Readonly<Record<string, number>>;
  /** `<yardstick>.<column>` → value, null = n/a. */
  readonly values: Readonly<Record<string, Value>>;
}

/** Facts about the run, for reproducibility (shown in the report and stored in results.json). */
export interface RunMeta {
  readonly config: string;
  readonly log: readonly string[];
  readonly logSha256: string;
  readonly format: string;
  readonly records: number;
  readonly events: number;
  readonly users: number;
  readonly distinctQueries: number;
  readonly clicks: number;
  readonly classified: string;
  readonly version: string;
  readonly codeVersion: string;
  readonly node: string;
  readonly seeds: readonly number[];
  readonly yardsticks: readonly string[];
  readonly options: YardstickOptions;
  readonly frontier: Frontier;
  readonly started: string;
  readonly seconds: number;
  readonly computed: number;
  readonly cached: number;
  readonly notes: readonly string[];
}
