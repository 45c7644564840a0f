/**
 * Classification on worker threads, for a log too large for one core: each thread holds its own classifier (the
 * knowledge base, the model and the word vectors, ~150–250 MB each) and classifies the lists of distinct queries it
 * is sent. The answers are those of one classifier (a query's classification depends on its text alone), so a log
 * classified on n threads is byte for byte the log classified on one.
 */
import type { Worker } from "node:worker_threads";
import { LRUCache } from "lru-cache";
import type { LogRecord } from "../log/record.ts";
import type { RowBlock } from "../log/row-block.ts";
import type { RowWriter } from "../log/row-write.ts";
import type { ClickUsers } from "../scrub/click-url.ts";
import type { NameUsers } from "../scrub/name-users.ts";
import type { ScrubMode } from "../scrub/types.ts";
import { type Progress, silentProgress } from "../util/progress.ts";
import { spawnModuleWorker } from "../util/worker.ts";
import { type Assessment, type Classification, Classifier } from "./classifier.ts";
import {
  ASSESSING,
  blockQueries,
  type ClassifyTally,
  classifyBlock,
  classifyRecords,
} from "./classify-log.ts";

/** The classifier each thread builds (what `querymask classify` is told). */
export interface ThreadSettings {
  readonly scrub: ScrubMode;
  readonly mainUnit: "vote" | "paper";
  /** false: Algorithm 1 alone. */
  readonly model: boolean;
  /** The allow list's phrases (`AllowList.entries`), when the scrubber has one. */
  readonly allow?: readonly string[];
}

/** The classifier `settings` describe, with an LRU of `cacheSize` answers (the main thread's, or a thread's: 0). */
export async function classifierOf(settings: ThreadSettings, cacheSize: number): Promise<Classifier> {
  // (the allow list's module loaded only when there is one: the classify command's start-up imports this file)
  const allow =
    settings.allow === undefined
      ? undefined
      : (await import("../scrub/allow-list.ts")).AllowList.of(settings.allow);
  return Classifier.create({
    cacheSize,
    scrub: settings.scrub,
    mainUnit: settings.mainUnit,
    ...(settings.model ? {} : { model: null }),
    ...(allow !== undefined ? { allow } : {}),
  });
}

export interface ThreadRequest {
  readonly id: number;
  readonly queries: readonly string[];
  /** What is asked of each query: its classification (default), or `Classifier.assess` (for the log context). */
  readonly kind?: "classify" | "assess";
}

/** The whole log's name evidence (`NameUsers.toJSON`), sent once before the queries. */
export interface ThreadEvidence {
  readonly nameUsers: readonly (readonly [string, number])[];
}

/** The answers to request `id`, in its order; id -1 says the thread is ready. */
export interface ThreadResponse {
  readonly id: number;
  readonly results: readonly (Classification | Assessment)[];
}

interface Waiting {
  resolve(results: readonly (Classification | Assessment)[]): void;
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

  /**
   * Give every thread's scrubber the log's name evidence (`Classifier.withNameUsers`): counted over the whole log
   * after the threads started, it reaches each before the queries that follow this call.
   */
  giveNameUsers(nameUsers: NameUsers | undefined): void {
    if (nameUsers === undefined) return;
    const message: ThreadEvidence = { nameUsers: nameUsers.toJSON() };
    for (const w of this.workers) w.postMessage(message);
  }

  /** The classifications of `queries`, in order: the list is cut into one share per thread. */
  classify(queries: readonly string[]): Promise<Classification[]> {
    return this.ask(queries, "classify") as Promise<Classification[]>;
  }

  /** `Classifier.assess` of each of `queries`, in order, shared out as {@link classify} does. */
  assess(queries: readonly string[]): Promise<Assessment[]> {
    return this.ask(queries, "assess") as Promise<Assessment[]>;
  }

  private async ask(
    queries: readonly string[],
    kind: "classify" | "assess",
  ): Promise<(Classification | Assessment)[]> {
    if (this.failed) throw this.failed;
    if (queries.length === 0) return [];
    const n = this.workers.length;
    const share = Math.ceil(queries.length / n);
    const parts: Promise<readonly (Classification | Assessment)[]>[] = [];
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
        kind,
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

/**
 * `assessAll` (./classify-log.ts) on the threads, in groups of `group` (progress after each), in order.
 */
export async function assessOnThreads(
  threads: ClassifyThreads,
  texts: readonly string[],
  progress: Progress = silentProgress,
  group = 16_384,
): Promise<Assessment[]> {
  const out: Assessment[] = [];
  progress.start(ASSESSING, texts.length);
  for (let from = 0; from < texts.length; from += group) {
    const part = await threads.assess(texts.slice(from, from + group));
    for (const a of part) out.push(a);
    progress.tick(part.length);
  }
  progress.stop();
  return out;
}

/** Queries sent to the threads together, with their answers once they are back. */
interface Sent {
  readonly answers: Promise<Map<string, Classification>>;
  /** The queries sent. */
  readonly asked: readonly string[];
  /** Queries an earlier group still out is classifying, with that group's answers. */
  readonly borrowed: readonly [string, Promise<Map<string, Classification>>][];
}

/**
 * The answers of the threads for groups of queries sent out ahead of their use: a query that `memo` (the answers
 * kept, an LRU of `cacheSize` as the classifier's own; 0 = none) holds is not sent, nor one that a group still out
 * is classifying (the later group takes that group's answer). Groups are finished in the order they were sent.
 */
class Answers {
  private readonly memo: LRUCache<string, Classification> | undefined;
  private readonly outstanding = new Map<string, Promise<Map<string, Classification>>>();

  constructor(
    private readonly threads: ClassifyThreads,
    cacheSize: number,
  ) {
    this.memo = cacheSize > 0 ? new LRUCache({ max: cacheSize }) : undefined;
  }

  send(queries: Iterable<string>): Sent {
    const known = new Map<string, Classification>();
    const seen = new Set<string>();
    const asked: string[] = [];
    const borrowed: [string, Promise<Map<string, Classification>>][] = [];
    for (const q of queries) {
      if (seen.has(q)) continue;
      seen.add(q);
      const hit = this.memo?.get(q);
      if (hit !== undefined) known.set(q, hit);
      else {
        const earlier = this.outstanding.get(q);
        if (earlier !== undefined) borrowed.push([q, earlier]);
        else asked.push(q);
      }
    }
    const answers = this.threads.classify(asked).then((results) => {
      for (let i = 0; i < asked.length; i++) {
        known.set(asked[i]!, results[i]!);
        this.memo?.set(asked[i]!, results[i]!);
      }
      return known;
    });
    // Awaited in turn by `finish`; a thread's failure is thrown there, not as an unhandled rejection before it.
    answers.catch(() => {});
    for (const q of asked) this.outstanding.set(q, answers);
    return { answers, asked, borrowed };
  }

  /** The classifier of a group's queries, once its answers (and those it borrowed) are back. */
  async finish(sent: Sent): Promise<Pick<Classifier, "classify">> {
    const known = await sent.answers;
    for (const [q, earlier] of sent.borrowed) known.set(q, (await earlier).get(q)!);
    for (const q of sent.asked) this.outstanding.delete(q);
    return { classify: (q) => known.get(q)! };
  }
}

/** How the threaded paths send work out. */
export interface OnThreadsOptions {
  /** Only a click that more than one user made is kept (as in {@link classifyRecords}). */
  readonly clicks?: ClickUsers | undefined;
  /** Answers kept for queries that come again (an LRU, as the classifier's own `cacheSize`; 0 = none). */
  readonly cacheSize: number;
  /** Records per group sent out at once (the record path; default 8,192). */
  readonly groupRecords?: number;
  /** Groups (or blocks) out at once beside the one being written (default 2). */
  readonly ahead?: number;
}

/**
 * {@link classifyBatches} with the classification on worker threads: the records are gathered in groups, each
 * group's distinct queries are classified on the threads while the main thread reads the next groups and writes
 * the last, and each group is then counted and yielded in order. The output is {@link classifyBatches}'.
 */
export async function* classifyBatchesOnThreads(
  threads: ClassifyThreads,
  batches: AsyncIterable<readonly LogRecord[]>,
  tally: ClassifyTally,
  opts: OnThreadsOptions,
): AsyncGenerator<LogRecord[]> {
  const { clicks, groupRecords = 8192, ahead = 2 } = opts;
  const answers = new Answers(threads, opts.cacheSize);
  const out: { records: LogRecord[]; sent: Sent }[] = [];
  const send = (records: LogRecord[]) =>
    out.push({ records, sent: answers.send(records.map((r) => r.query)) });
  const finish = async (g: (typeof out)[number]) =>
    classifyRecords(await answers.finish(g.sent), g.records, tally, clicks);
  let group: LogRecord[] = [];
  for await (const batch of batches) {
    for (const r of batch) group.push(r);
    if (group.length < groupRecords) continue;
    send(group);
    group = [];
    if (out.length > ahead) yield await finish(out.shift()!);
  }
  if (group.length > 0) send(group);
  while (out.length > 0) yield await finish(out.shift()!);
}

/**
 * {@link classifyRows} with the classification on worker threads: each block of raw rows is copied (the reader
 * reuses its buffer) and its queries sent out while the main thread reads the next blocks and writes the last.
 */
export async function classifyRowsOnThreads(
  threads: ClassifyThreads,
  blocks: AsyncIterable<RowBlock>,
  tally: ClassifyTally,
  out: RowWriter,
  opts: OnThreadsOptions,
): Promise<void> {
  const { clicks, ahead = 2 } = opts;
  const answers = new Answers(threads, opts.cacheSize);
  const pending: { rows: RowBlock; queries: string[]; sent: Sent }[] = [];
  const finish = async (p: (typeof pending)[number]) => {
    classifyBlock(await answers.finish(p.sent), p.rows, p.queries, tally, clicks, out);
    const behind = out.backlog();
    if (behind) await behind;
  };
  for await (const rows of blocks) {
    const queries = blockQueries(rows, []);
    pending.push({ rows: rows.copy(), queries, sent: answers.send(queries) });
    if (pending.length > ahead) await finish(pending.shift()!);
  }
  while (pending.length > 0) await finish(pending.shift()!);
}
