/**
 * The run's {@link RunMeta}: the log's figures as `querymask stats` counts them (src/log/stats.ts, so the report
 * and `stats` agree), the config, the versions and the run's timing.
 */
import type { QueryLog } from "../log/record.ts";
import { StatsAccumulator } from "../log/stats.ts";
import type { RunMeta } from "../report/results.ts";
import type { ExperimentConfig } from "./config.ts";

export const VERSION = "0.1.0";

export interface RunFacts {
  /** The input as read (its format, and whether it carried categories). */
  readonly loaded: QueryLog;
  /** The input the methods were given (classified when the classifier ran). */
  readonly input: QueryLog;
  readonly logSha256: string;
  /** Whether the project's classifier categorised the input. */
  readonly classifier: boolean;
  readonly codeVersion: string;
  readonly started: string;
  readonly seconds: number;
  readonly computed: number;
  readonly cached: number;
  readonly notes: readonly string[];
}

export function runMeta(config: ExperimentConfig, f: RunFacts): RunMeta {
  const stats = new StatsAccumulator();
  stats.push(f.input.records);
  const counted = stats.result();
  return {
    config: config.source,
    log: config.log,
    logSha256: f.logSha256,
    format: f.loaded.format,
    records: counted.rows,
    events: counted.queryEvents,
    users: counted.users,
    distinctQueries: counted.distinctQueries,
    clicks: counted.clickRows,
    classified: f.classifier
      ? "yes (project classifier)"
      : f.loaded.classified
        ? "yes (input carried categories)"
        : "no",
    version: VERSION,
    codeVersion: f.codeVersion,
    node: process.version,
    seeds: config.seeds,
    yardsticks: config.yardsticks,
    options: config.options,
    frontier: config.frontier,
    started: f.started,
    seconds: f.seconds,
    computed: f.computed,
    cached: f.cached,
    notes: f.notes,
  };
}
