/**
 * The experiment runner behind `querymask experiment <config>`, one step per function: load the log
 * (input.ts), classify it (input.ts), take what the cache already knows (cache.ts), compute the rest in
 * parallel (pool.ts, one combination per task: run-one.ts), describe the run (meta.ts, the log's figures from
 * src/log/stats.ts), then write results.tsv and results.json (output.ts) and report.html (src/report, which
 * reads the results types only). Progress and an ETA go to stderr.
 */
import { mkdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { createKnowledgeService } from "../classify/service.ts";
import type { QueryLog } from "../log/record.ts";
import { paramsLabel } from "../methods/registry.ts";
import { writeReport } from "../report/html.ts";
import type { ResultRow, RunMeta } from "../report/results.ts";
import { consoleProgress, type Progress } from "../util/progress.ts";
import { codeVersion, contentHash, lookUp, ResultCache } from "./cache.ts";
import type { Combination, ExperimentConfig } from "./config.ts";
import { loadInput, prepareInputs } from "./input.ts";
import { runMeta } from "./meta.ts";
import { writeResults } from "./output.ts";
import { type PoolOptions, runPool } from "./pool.ts";
import type { WorkerTask } from "./worker.ts";

export { VERSION } from "./meta.ts";

export interface ExperimentOutput {
  readonly rows: ResultRow[];
  readonly meta: RunMeta;
  readonly files: { readonly tsv: string; readonly json: string; readonly html: string };
}

export interface ExperimentRunOptions {
  readonly out: string;
  /** Overrides the config's `jobs`. */
  readonly jobs?: number;
  /** No progress lines. */
  readonly quiet?: boolean;
  /** Where progress and the run's lines go instead of stderr (the library API: nothing prints). */
  readonly progress?: Progress;
  readonly say?: (line: string) => void;
  /** Already-loaded input (tests, the main job); otherwise the config's log is read. */
  readonly log?: QueryLog;
}

/** Run an experiment end to end; see the module comment. */
export async function runExperimentConfig(
  config: ExperimentConfig,
  opts: ExperimentRunOptions,
): Promise<ExperimentOutput> {
  const t0 = performance.now();
  const started = new Date().toISOString();
  const out = resolve(opts.out);
  await mkdir(out, { recursive: true });
  const say =
    opts.say ??
    ((s: string) => {
      if (!opts.quiet) process.stderr.write(`${s}\n`);
    });
  const progress = opts.progress ?? consoleProgress({ quiet: opts.quiet });

  say(`experiment: reading ${config.log.join(", ")}`);
  const loaded = await loadInput(config, opts.log, progress);
  const allow =
    config.allowList === undefined
      ? undefined
      : (await import("../scrub/allow-list.ts")).AllowList.read(config.allowList);
  if (allow !== undefined) say(`experiment: allow list ${config.allowList} (${allow.describe()})`);
  const { input, classifier, notes } = await prepareInputs(
    config,
    loaded.log,
    createKnowledgeService(undefined, undefined, allow),
    progress,
  );
  say(
    classifier
      ? `experiment: classified ${input.log.records.length.toLocaleString("en")} records`
      : `experiment: ${notes[0]}`,
  );

  const code = await codeVersion();
  const cache = new ResultCache(join(out, ".cache"));
  const { rows, tasks } = await lookUp(config.combinations, cache, {
    log: loaded.sha256,
    classified: classifier,
    yardsticks: config.yardsticks,
    options: config.options,
    code,
    ...(allow !== undefined ? { allow: contentHash(allow.entries()) } : {}),
  });
  const cached = rows.size;
  say(`experiment: ${config.combinations.length} combinations, ${cached} cached, ${tasks.length} to compute`);

  await compute(tasks, rows, cache, say, {
    jobs: opts.jobs ?? config.jobs,
    input,
    init: {
      useClassifier: classifier,
      yardsticks: config.yardsticks,
      options: config.options,
      ...(allow !== undefined ? { allow: allow.entries() } : {}),
    },
  });

  const ordered = inConfigOrder(config.combinations, rows);
  const meta = runMeta(config, {
    loaded: loaded.log,
    input: input.log,
    logSha256: loaded.sha256,
    classifier,
    codeVersion: code,
    started,
    seconds: (performance.now() - t0) / 1000,
    computed: tasks.length,
    cached,
    notes:
      allow === undefined
        ? notes
        : [...notes, `allow list ${config.allowList} (${allow.describe()}): its phrases are not identifiers`],
  });
  const files = await writeResults(out, ordered, meta);
  const html = await writeReport(join(out, "report.html"), ordered, meta, say);
  return { rows: ordered, meta, files: { ...files, html } };
}

/** Compute the tasks in the pool: each result into `rows` and (when ok) the cache, one progress line each. */
async function compute(
  tasks: readonly WorkerTask[],
  rows: Map<string, ResultRow>,
  cache: ResultCache,
  say: (line: string) => void,
  pool: Omit<PoolOptions, "onResult">,
): Promise<void> {
  let done = 0;
  const start = performance.now();
  await runPool(tasks, {
    ...pool,
    onResult: async (row) => {
      rows.set(row.key, row);
      if (row.status === "ok") await cache.set(row.key, row);
      done++;
      const eta = ((performance.now() - start) / 1000 / done) * (tasks.length - done);
      const what = `${row.method} ${paramsLabel(row.params) || "-"} seed=${row.seed}`;
      const status = row.status === "ok" ? `${row.seconds.toFixed(1)}s` : `ERROR ${row.error}`;
      say(`[${done}/${tasks.length}] ${what}: ${status}; ETA ${formatSeconds(eta)}`);
    },
  });
}

/** The results in the config's order, each once (combinations with the same key share a row). */
function inConfigOrder(
  combinations: readonly Combination[],
  rows: ReadonlyMap<string, ResultRow>,
): ResultRow[] {
  const all = [...rows.values()];
  return combinations
    .map((c) => all.find((r) => r.method === c.method && r.seed === c.seed && sameParams(r.params, c.params)))
    .filter((r): r is ResultRow => r !== undefined)
    .filter((r, i, list) => list.indexOf(r) === i);
}

function sameParams(a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>): boolean {
  return contentHash(a) === contentHash(b);
}

export function formatSeconds(s: number): string {
  if (!Number.isFinite(s) || s < 0.5) return "0s";
  const r = Math.round(s);
  if (r < 120) return `${r}s`;
  return `${Math.floor(r / 60)}m${String(r % 60).padStart(2, "0")}s`;
}
