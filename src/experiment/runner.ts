/**
 * The experiment runner behind `querymask experiment <config>`: load (and classify) the log once, expand the
 * methods × parameter grid × seeds, take what the cache already knows, compute the rest in parallel, then
 * write results.tsv, results.json and report.html into the output directory. Progress and an ETA go to stderr.
 */
import { mkdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { loadClassifier } from "../classify/categorize.ts";
import { classifyLog } from "../classify/classify-log.ts";
import { createKnowledgeService } from "../classify/service.ts";
import { loadLog } from "../log/read.ts";
import type { QueryLog } from "../log/record.ts";
import { StatsAccumulator } from "../log/stats.ts";
import { paramsLabel } from "../methods/registry.ts";
import { writeReport } from "../report/html.ts";
import type { ResultRow, RunMeta } from "../report/results.ts";
import { consoleProgress, type Progress } from "../util/progress.ts";
import { codeVersion, contentHash, hashFiles, ResultCache } from "./cache.ts";
import type { ExperimentConfig } from "./config.ts";
import { writeResults } from "./output.ts";
import { runPool } from "./pool.ts";
import type { PreparedInput } from "./run-one.ts";
import type { WorkerTask } from "./worker.ts";

export const VERSION = "0.1.0";

export interface ExperimentOutput {
  readonly rows: ResultRow[];
  readonly meta: RunMeta;
  readonly files: { readonly tsv: string; readonly json: string; readonly html: string };
}

export interface RunOptions {
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
export async function runExperiment(config: ExperimentConfig, opts: RunOptions): Promise<ExperimentOutput> {
  const t0 = performance.now();
  const started = new Date().toISOString();
  const out = resolve(opts.out);
  await mkdir(out, { recursive: true });
  const say =
    opts.say ??
    ((s: string) => {
      if (!opts.quiet) process.stderr.write(`${s}\n`);
    });
  const notes: string[] = [];

  say(`experiment: reading ${config.log.join(", ")}`);
  const progress = opts.progress ?? consoleProgress({ quiet: opts.quiet });
  let loaded: QueryLog;
  if (opts.log) loaded = opts.log;
  else {
    progress.start("read", undefined);
    loaded = await loadLog(config.log, { format: config.format, keepSource: false, progress });
    progress.stop();
  }
  const logSha256 = opts.log ? contentHash(opts.log.records) : await hashFiles(config.log);

  const knowledge = createKnowledgeService();
  const { categorize, note } =
    config.classify === false ? { note: "classification off (config)" } : await loadClassifier(knowledge);
  if (note) notes.push(note);
  if (config.classify === true && !categorize) throw new Error(`classify: true, but ${note}`);
  // An unclassified input goes through the classifier as `querymask classify` sends it (category, unit,
  // identifiers scrubbed from the text and from click URLs), so the methods see what a user's would.
  let records = loaded.records;
  if (categorize && !loaded.classified) {
    const classified = classifyLog(await knowledge.classifier(), loaded, progress);
    records = classified.log.records;
    notes.push(
      `input classified as querymask classify does: identifiers scrubbed from ${classified.counts.scrubbed} query events, ${classified.clicksDropped} click URLs dropped (identifier in host), ${classified.singleUserClicksDropped} (clicked by one user only)`,
    );
  }
  const input: PreparedInput = {
    log: { ...loaded, records, classified: loaded.classified || !!categorize },
    categorizer: categorize ? async () => categorize : undefined,
    knowledge,
  };
  if (categorize) say(`experiment: classified ${records.length.toLocaleString("en")} records`);
  else say(`experiment: ${note}`);

  const code = await codeVersion();
  const cache = new ResultCache(join(out, ".cache"));
  const tasks: WorkerTask[] = [];
  const rows = new Map<string, ResultRow>();
  for (const combo of config.combinations) {
    const key = contentHash({
      log: logSha256,
      classified: !!categorize,
      method: combo.method,
      params: combo.params,
      seed: combo.seed,
      yardsticks: config.yardsticks,
      options: config.options,
      code,
    });
    if (rows.has(key) || tasks.some((t) => t.key === key)) continue;
    const hit = await cache.get<ResultRow>(key);
    if (hit) rows.set(key, hit);
    else tasks.push({ combo, key });
  }
  const cached = rows.size;
  say(`experiment: ${config.combinations.length} combinations, ${cached} cached, ${tasks.length} to compute`);

  const jobs = opts.jobs ?? config.jobs;
  let done = 0;
  const runStart = performance.now();
  await runPool(tasks, {
    jobs,
    input,
    init: { useClassifier: !!categorize, yardsticks: config.yardsticks, options: config.options },
    onResult: async (row) => {
      rows.set(row.key, row);
      if (row.status === "ok") await cache.set(row.key, row);
      done++;
      const elapsed = (performance.now() - runStart) / 1000;
      const eta = (elapsed / done) * (tasks.length - done);
      const what = `${row.method} ${paramsLabel(row.params) || "-"} seed=${row.seed}`;
      const status = row.status === "ok" ? `${row.seconds.toFixed(1)}s` : `ERROR ${row.error}`;
      say(`[${done}/${tasks.length}] ${what}: ${status}; ETA ${formatSeconds(eta)}`);
    },
  });

  const ordered = config.combinations
    .map((c) =>
      [...rows.values()].find(
        (r) => r.method === c.method && r.seed === c.seed && sameParams(r.params, c.params),
      ),
    )
    .filter((r): r is ResultRow => r !== undefined)
    .filter((r, i, all) => all.indexOf(r) === i);

  // The log's figures as `querymask stats` counts them (log/stats.ts), so the report and stats agree.
  const stats = new StatsAccumulator();
  stats.push(records);
  const counted = stats.result();
  const meta: RunMeta = {
    config: config.source,
    log: config.log,
    logSha256,
    format: loaded.format,
    records: counted.rows,
    events: counted.queryEvents,
    users: counted.users,
    distinctQueries: counted.distinctQueries,
    clicks: counted.clickRows,
    classified: categorize
      ? "yes (project classifier)"
      : loaded.classified
        ? "yes (input carried categories)"
        : "no",
    version: VERSION,
    codeVersion: code,
    node: process.version,
    seeds: config.seeds,
    yardsticks: config.yardsticks,
    options: config.options,
    frontier: config.frontier,
    started,
    seconds: (performance.now() - t0) / 1000,
    computed: tasks.length,
    cached,
    notes,
  };
  const files = await writeResults(out, ordered, meta);
  const html = await writeReport(join(out, "report.html"), ordered, meta);
  return { rows: ordered, meta, files: { ...files, html } };
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
