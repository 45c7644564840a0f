/**
 * The release of log files by one method (docs/architecture.md): plan how to read them, read, order, prepare as
 * the method declares, run the method, write the release durably, and say what was done. `querymask anonymize`,
 * the library's `anonymizeFiles` and the experiment runner's file output all run this, so the same files,
 * parameters and seed give the same bytes whichever way a user runs it.
 *
 * The plan, first match wins (`batch` skips the first three):
 * 1. raw rows (read.ts: `streamRows`): an AOL log and a method with a raw-row stage; bytes are copied, not parsed;
 * 2. a record stream (`streamRecords`): a method with a stage (it reads in time order);
 * 3. by user (by-user.ts): a method that reads each user's records together, on regular files grouped by user;
 *    a log found not grouped by user (or any, with `sortByUser`) is sorted by user on disk first (spill.ts);
 * 4. batch: the whole log loaded, prepared, given to the method's `anonymize`.
 * A stage is defined on a stream in time order: at the first record out of order, what was written is dropped and
 * the run starts over on the log sorted by time (an external merge sort, so memory stays bounded).
 */
import type { KnowledgeService } from "../classify/service.ts";
import type { Guarantee } from "../log/guarantee.ts";
import type { ReadOptions } from "../log/read.ts";
import {
  type Method,
  type MethodContext,
  methodRng,
  NO_GUARANTEE,
  type Release,
  withParamRange,
} from "../methods/method.ts";
import type { AllowList } from "../scrub/allow-list.ts";
import { HeapTooSmall } from "../util/errors.ts";
import type { Progress } from "../util/progress.ts";
import { preparationFor, prepareLog } from "./prepare.ts";
import { fileReading, type LogReading } from "./read.ts";
import { streamRelease } from "./stream.ts";
import { type Disclosed, disclose, disclosedProgress } from "./summary.ts";

/** `--memory`'s default, in MiB: the records each sort by user (spill.ts) holds at once. */
export const DEFAULT_SORT_MEMORY_MIB = 256;

/** Hooks for the process that runs the pipeline (the CLI sizes V8's heap by how the log is read). */
export interface HeapTuning {
  /** The run streams: its state is small. */
  streaming(): void;
  /** The run reads by user (`on`), or falls back to loading the log (`!on`). */
  byUser(on: boolean): void;
}

export interface FileRelease<P> {
  readonly method: Method<P>;
  readonly params: P;
  readonly seed: number;
  /** Input files or glob patterns. */
  readonly inputs: readonly string[];
  /** Format, lenient mode and reject file of the reading. */
  readonly read: ReadOptions;
  /** The release's path (the input's format; a count table for a method that releases one). */
  readonly out: string;
  /** Load the whole log even if the method can stream it or read it by user. */
  readonly batch?: boolean;
  /** Streaming a log out of time order: records held in memory per sorted run on disk. */
  readonly sortBuffer?: number;
  /** Sort the log by user on disk even when it may be grouped by user (a method that reads by user). */
  readonly sortByUser?: boolean;
  /** MiB of records each sort by user holds at once (default {@link DEFAULT_SORT_MEMORY_MIB}). */
  readonly memory?: number;
  /** Phrases that are not identifiers (`--allow-list`). */
  readonly allow?: AllowList;
  /** The knowledge base and classifier (default: the bundled one's, with `allow`). */
  readonly knowledge?: KnowledgeService;
  readonly progress: Progress;
  /** A line about how the run goes (the CLI prints it on stderr unless quiet): sorting, a fallback. */
  readonly say?: (line: string) => void;
  /** A note of the method (`MethodContext.warn`). */
  readonly warn?: (message: string) => void;
  readonly heap?: HeapTuning;
  /** How the log is read (default: the files, src/log/read.ts): the seam for another reader (read.ts). */
  readonly reading?: LogReading;
}

/** What a run of the pipeline did, split for its disclosure (summary.ts). */
export interface FileReleased extends Disclosed {
  /** How the log was read. */
  readonly mode: "rows" | "stream" | "by-user" | "batch";
  readonly guarantee: Guarantee;
}

/** The method's context for a run with `seed` (a fresh random stream: a restart gets the same one). */
export function methodContext(
  seed: number,
  progress: Progress,
  warn: ((message: string) => void) | undefined,
  knowledge: KnowledgeService | undefined,
): MethodContext {
  return {
    rng: methodRng(seed),
    progress,
    ...(warn ? { warn } : {}),
    ...(knowledge ? { knowledge } : {}),
  };
}

/** Run the release of `req.inputs` to `req.out` (see the module comment). */
export async function releaseFiles<P>(given: FileRelease<P>): Promise<FileReleased> {
  try {
    return await releaseOnce(given);
  } catch (e) {
    // A method that holds the whole log refused it without knowing its name.
    if (e instanceof HeapTooSmall && e.input === undefined) throw e.withInput(given.inputs.join(", "));
    throw e;
  }
}

async function releaseOnce<P>(given: FileRelease<P>): Promise<FileReleased> {
  const t0 = performance.now();
  const req = { ...given, progress: disclosedProgress(given.method, given.progress) };
  const { method } = req;
  const knowledge = async () =>
    req.knowledge ??
    (await import("../classify/service.ts")).createKnowledgeService(undefined, undefined, req.allow);
  if (!req.batch) {
    const streamed = await streamRelease(req, knowledge);
    if (streamed !== undefined) {
      return {
        mode: streamed.mode,
        guarantee: method.stageGuarantee?.(req.params) ?? NO_GUARANTEE,
        ...disclose(method, { counts: streamed.counts, rejected: streamed.rejected, seconds: since(t0) }),
      };
    }
  }
  const ctx = methodContext(req.seed, req.progress, req.warn, await knowledge());
  let release: Release | undefined;
  let scrub: Record<string, number> = {};
  let rejected = 0;
  let mode: FileReleased["mode"] = "batch";
  let written = false;
  // The declaration decides (the registry's test holds it to the implementation's `anonymizeByUser`).
  if (!req.batch && method.input.userGrouping) {
    const { releaseByUser } = await import("./by-user.ts");
    let byUser = req.sortByUser ? "not grouped" : await releaseByUser(method, req.params, ctx, req);
    if (byUser === "not grouped" && method.anonymizeByUser !== undefined && method.input.sortable !== false) {
      const { releaseSortedByUser } = await import("./spill.ts");
      byUser = await releaseSortedByUser(method, req.params, ctx, req);
    }
    if (typeof byUser === "object") {
      ({ release, rejected, scrub, written } = byUser);
      mode = "by-user";
    }
  }
  if (release === undefined) {
    req.progress.start("reading");
    // A method that holds the whole log stops the load once it outnumbers the heap's room.
    const limit = method.heldRows?.();
    const read = await (req.reading ?? fileReading).load(req.inputs, {
      ...req.read,
      progress: req.progress,
      ...(limit ? { limit } : {}),
    });
    req.progress.stop();
    const prepared = await prepareLog(read, preparationFor(method.input.text, read), {
      crossUser: method.input.crossUser,
      allow: req.allow,
      knowledge: ctx.knowledge,
      progress: req.progress,
    });
    if (prepared.scrub) scrub = scrubCounts(prepared.scrub);
    // A log this run classified is released in the input's layout, as the stream writes it.
    const input = { ...prepared.log, classified: read.classified };
    release = await withParamRange(method.name, () => method.anonymize(input, req.params, ctx));
    rejected = read.rejected;
  }
  const { writeLog } = await import("../log/write.ts");
  if (release.log) await writeLog(req.out, release.log);
  else if (release.table)
    await (await import("../log/count-table.ts")).writeCountTable(req.out, release.table);
  else if (!written) throw new Error(`method ${method.name} released nothing`);
  return {
    mode,
    guarantee: release.guarantee,
    ...disclose(method, {
      counts: release.counts,
      prepared: scrub,
      ...(release.diagnostics ? { diagnostics: release.diagnostics } : {}),
      notes: release.notes ?? [],
      rejected,
      seconds: since(t0),
    }),
  };
}

const since = (t0: number) => (performance.now() - t0) / 1000;

/** What scrubbing the input did, for the summary (the method's own counts are of the scrubbed log). */
export function scrubCounts(c: {
  records: number;
  changed: number;
  removed: number;
  clicksDropped: number;
  singleUserClicksDropped: number;
  spans?: Readonly<Record<string, number>>;
}): Record<string, number> {
  // which kinds of identifier were removed (one per occurrence in each row), those found at all
  const kinds = Object.entries(c.spans ?? {})
    .filter(([, n]) => n > 0)
    .map(([type, n]) => [`identifiers removed: ${type}`, n] as const);
  return {
    "rows read": c.records,
    "rows with an identifier scrubbed": c.changed,
    "rows left empty by the scrubber": c.removed,
    "clicks dropped by the scrubber": c.clicksDropped + c.singleUserClicksDropped,
    ...Object.fromEntries(kinds),
  };
}
