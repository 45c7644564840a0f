/**
 * Classification on worker threads, for a log too large for one core: each thread holds its own classifier (the
 * knowledge base, the model and the word vectors, ~150–250 MB each) and classifies the lists of distinct queries it
 * is sent. The answers are those of one classifier (a query's classification depends on its text alone), so a log
 * classified on n threads is byte for byte the log classified on one.
 */
import type { Worker } from "node:worker_threads";
import type { ScrubMode } from "../scrub/types.ts";
import { spawnModuleWorker } from "../util/worker.ts";
import type { Classification } from "./classifier.ts";

/** The classifier each thread builds (what `querymask classify` is told). */
export interface ThreadSettings {
  readonly scrub: ScrubMode;
  readonly mainUnit: "vote" | "paper";
  /** false: Algorithm 1 alone. */
  readonly model: boolean;
}

export interface ThreadRequest {
  readonly id: number;
  readonly queries: readonly string[];
}

/** The answers to request `id`, in its order; id -1 says the thread is ready. */
export interface ThreadResponse {
  readonly id: number;
  readonly results: readonly Classification[];
}

interface Waiting {
  resolve(results: readonly Classification[]): void;
  reject(e: Error): void;
}

export class ClassifyThreads {
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 0;
  private failed: Error | undefined;
  private closing = false;

  private constructor(private readonly workers: readonly Worker[]) {
    for (const w of workers) {
      w.on("message", (m: ThreadResponse) => {
        const wait = this.waiting.get(m.id);
        this.waiting.delete(m.id);
        wait?.resolve(m.results);
      });
      w.on("error", (e) => this.fail(e));
      w.on("exit", (code) => {
        if (code !== 0 && !this.closing) this.fail(new Error(`a classifier thread exited with code ${code}`));
      });
    }
  }

  /** Start `n` threads and wait until each has loaded its classifier. */
  static async start(n: number, settings: ThreadSettings): Promise<ClassifyThreads> {
    const ext = import.meta.url.endsWith(".ts") ? "ts" : "js";
    const workers = Array.from({ length: n }, () =>
      spawnModuleWorker(new URL(`./classify-thread.${ext}`, import.meta.url), {
        workerData: settings,
        execArgv: [],
      }),
    );
    await Promise.all(
      workers.map(
        (w) =>
          new Promise<void>((resolve, reject) => {
            const exited = (code: number) =>
              reject(new Error(`a classifier thread exited with code ${code} while loading`));
            const ready = (m: ThreadResponse) => {
              if (m.id !== -1) return;
              w.off("message", ready);
              w.off("error", reject);
              w.off("exit", exited);
              resolve();
            };
            w.on("message", ready);
            w.once("error", reject);
            w.once("exit", exited);
          }),
      ),
    ).catch(async (e: unknown) => {
      // One failed to start (its classifier could not load): stop the others, which would keep the process alive.
      await Promise.all(workers.map((w) => w.terminate()));
      throw e;
    });
    return new ClassifyThreads(workers);
  }

  get size(): number {
    return this.workers.length;
  }

  /** The classifications of `queries`, in order: the list is cut into one share per thread. */
  async classify(queries: readonly string[]): Promise<Classification[]> {
    if (this.failed) throw this.failed;
    if (queries.length === 0) return [];
    const n = this.workers.length;
    const share = Math.ceil(queries.length / n);
    const parts: Promise<readonly Classification[]>[] = [];
    for (let t = 0, from = 0; from < queries.length; t++, from += share) {
      const id = this.nextId++;
      parts.push(
        new Promise((resolve, reject) => {
          this.waiting.set(id, { resolve, reject });
        }),
      );
      this.workers[t]!.postMessage({
        id,
        queries: queries.slice(from, from + share),
      } satisfies ThreadRequest);
    }
    return (await Promise.all(parts)).flat();
  }

  /** Stop the threads. */
  async close(): Promise<void> {
    this.closing = true;
    await Promise.all(this.workers.map((w) => w.terminate()));
  }

  private fail(e: Error): void {
    this.failed ??= e;
    for (const w of this.waiting.values()) w.reject(e);
    this.waiting.clear();
  }
}
