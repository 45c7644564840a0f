/**
 * Experiments for library callers: methods × parameter grids × seeds on one log, every release audited and
 * measured on the same yardsticks, as `querymask experiment` runs them (results.tsv, results.json and
 * report.html are written to `out`; results are cached there by content hash).
 */
import { type ExperimentConfig, loadConfig, parseConfig } from "../experiment/config.ts";
import { runExperimentConfig } from "../experiment/runner.ts";
import type { QueryLog } from "../log/record.ts";
import type { ResultRow, RunMeta } from "../report/results.ts";
import { type ProgressCallback, progressOf } from "./progress.ts";

export type { ExperimentConfig, ResultRow, RunMeta };

/** What an experiment returns: one row per combination, the run's facts, and the files written. */
export interface ExperimentResults {
  readonly rows: readonly ResultRow[];
  readonly meta: RunMeta;
  readonly files: { readonly tsv: string; readonly json: string; readonly html: string };
}

export interface ExperimentOptions {
  /** Output directory (results.tsv, results.json, report.html, .cache/). */
  readonly out: string;
  /** Worker threads (default: the config's `jobs`). */
  readonly jobs?: number;
  /** The log, already in memory (otherwise the config's `log` is read). */
  readonly log?: QueryLog;
  readonly onProgress?: ProgressCallback;
  /** The run's lines ("[3/12] swap k=3 seed=1: 0.4s; ETA 4s"), which the CLI prints on stderr. */
  readonly onMessage?: (line: string) => void;
}

/**
 * Run an experiment. `config` is a config file's path (YAML or JSON, as `querymask experiment` takes), or the
 * same structure as an object (relative log paths resolve against `baseDir`, default the working directory).
 * A bad config throws a `UsageError` naming the key.
 */
export async function runExperiment(
  config: string | Readonly<Record<string, unknown>>,
  opts: ExperimentOptions & { readonly baseDir?: string },
): Promise<ExperimentResults> {
  const parsed: ExperimentConfig =
    typeof config === "string" ? loadConfig(config) : parseConfig(config, "<config>", opts.baseDir);
  return runExperimentConfig(parsed, {
    out: opts.out,
    ...(opts.jobs === undefined ? {} : { jobs: opts.jobs }),
    ...(opts.log === undefined ? {} : { log: opts.log }),
    progress: progressOf(opts.onProgress),
    say: opts.onMessage ?? (() => {}),
  });
}
