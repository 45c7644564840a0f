/**
 * A small pool of worker threads for independent combinations. Each worker gets the prepared input once and
 * then one combination at a time; results come back in completion order. With one job (or one combination)
 * everything runs in this thread instead, which is also what tests and small runs use.
 *
 * Workers load the TypeScript sources through tsx's API themselves (`spawnModuleWorker`), so the pool works
 * however the main process was started (tsx CLI, `node --import tsx`, bin/querymask.js).
 */
import { availableParallelism } from "node:os";
import type { Worker } from "node:worker_threads";
import type { QueryLog } from "../log/record.ts";
import type { ResultRow } from "../report/results.ts";
import { spawnModuleWorker } from "../util/worker.ts";
import type { Combination } from "./config.ts";
import { type PreparedInput, runCombination } from "./run-one.ts";
import type { WorkerInit, WorkerTask } from "./worker.ts";

export interface PoolOptions {
  readonly jobs: number;
  readonly init: Omit<WorkerInit, "records" | "format" | "classified" | "prepared">;
  readonly input: PreparedInput;
  /** Called as each combination finishes. */
  readonly onResult: (row: ResultRow) => void | Promise<void>;
}

/** The workers to start for `jobs` asked: never more than the cores (each worker holds a copy of the input). */
export function capJobs(jobs: number, tasks: number): number {
  return Math.max(1, Math.min(jobs, tasks, availableParallelism()));
}

/** Run `tasks`, `opts.jobs` at a time (at most one per core); resolves when all are done. */
export async function runPool(tasks: readonly WorkerTask[], opts: PoolOptions): Promise<void> {
  const jobs = capJobs(opts.jobs, tasks.length);
  if (jobs <= 1) {
    for (const t of tasks) await opts.onResult(await runLocal(t.combo, t.key, opts));
    return;
  }
  const queue = [...tasks];
  const bare = (log: QueryLog) => log.records.map(({ source: _s, ...r }) => r);
  const init: WorkerInit = {
    ...opts.init,
    records: bare(opts.input.log),
    format: opts.input.log.format,
    classified: opts.input.log.classified ?? false,
    prepared: [...(opts.input.prepared ?? new Map<string, QueryLog>())].map(([key, log]) => ({
      key,
      records: log === opts.input.log ? undefined : bare(log),
      classified: log.classified ?? false,
    })),
  };
  await Promise.all(Array.from({ length: jobs }, () => driveWorker(queue, init, opts)));
}

function runLocal(combo: Combination, key: string, opts: PoolOptions): Promise<ResultRow> {
  return runCombination(opts.input, combo, key, opts.init.yardsticks, opts.init.options);
}

function spawn(init: WorkerInit): Worker {
  const ext = import.meta.url.endsWith(".ts") ? "ts" : "js";
  return spawnModuleWorker(new URL(`./worker.${ext}`, import.meta.url), { workerData: init, execArgv: [] });
}

/** One worker taking tasks from the shared queue until it is empty. */
function driveWorker(queue: WorkerTask[], init: WorkerInit, opts: PoolOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    const worker = spawn(init);
    let current: WorkerTask | undefined;
    let settled = false;
    const finish = (err?: Error) => {
      if (settled) return;
      settled = true;
      void worker.terminate();
      if (err) reject(err);
      else resolve();
    };
    const next = () => {
      current = queue.shift();
      worker.postMessage(current ?? null);
      if (!current) finish();
    };
    worker.on("message", async (msg: ResultRow | "ready") => {
      try {
        if (msg !== "ready") await opts.onResult(msg);
        next();
      } catch (e) {
        finish(e as Error);
      }
    });
    worker.on("error", (e) => finish(new Error(`experiment worker failed: ${e.message}`)));
    worker.on("exit", (code) => {
      if (!settled)
        finish(code === 0 && !current ? undefined : new Error(`experiment worker exited (${code})`));
    });
  });
}
