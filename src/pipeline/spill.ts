/**
 * The by-user release of a log that is not grouped by user (or of any log, with `--sort-by-user`): the log is read
 * once and sorted by user out of core (src/log/user-sort.ts: users in the order of their first row, each user's rows
 * in their original order, in runs of at most `--memory` MiB spilled beside the output), then the by-user path
 * (./by-user.ts) reads the sorted copy, and a released log goes back to the original log order as it is written
 * (src/log/log-order.ts), as the batch path writes it. A method whose release numbers keys by first appearance
 * (`input.firstSeen`: graph, dp) runs its sharded path in this process with each record's original position as the
 * order key, so its ids are the batch path's. The temporary files are removed at the end, also on error.
 */
import { dirname, resolve } from "node:path";
import { createLogOrderWriter } from "../log/log-order.ts";
import type { LogRecord } from "../log/record.ts";
import { sortByUser } from "../log/user-sort.ts";
import type { Method, MethodContext, Release, ReleaseSink, UserPasses } from "../methods/method.ts";
import { UsageError } from "../util/errors.ts";
import { type ByUserHow, type ByUserRun, releaseByUser } from "./by-user.ts";
import { fileReading, type LogReading } from "./read.ts";
import { DEFAULT_SORT_MEMORY_MIB, type FileRelease } from "./release.ts";

/** The by-user release of `req.inputs` sorted by user (see the module comment). */
export async function releaseSortedByUser<P>(
  method: Method<P>,
  params: P,
  ctx: MethodContext,
  req: FileRelease<P>,
): Promise<ByUserRun> {
  const memoryBytes = (req.memory ?? DEFAULT_SORT_MEMORY_MIB) * 2 ** 20;
  const tempDir = dirname(resolve(req.out));
  const log = await (req.reading ?? fileReading).open(req.inputs, req.read);
  req.progress.start("sorting by user");
  let sorted: Awaited<ReturnType<typeof sortByUser>>;
  try {
    sorted = await sortByUser(log, {
      tempDir,
      memoryBytes,
      onRuns: (n) => {
        if (n > 1) req.say?.(`merging ${n} sorted runs`);
      },
    });
  } catch (e) {
    await log.rejects.abort();
    throw e;
  } finally {
    req.progress.stop();
  }
  try {
    const reading: LogReading = {
      load: () => Promise.reject(new Error("a log sorted by user is read by user")),
      open: async () => sorted.open(),
    };
    const order = orderIn(log.files);
    const how: ByUserHow<P> = {
      sorted: true,
      ...(method.input.firstSeen ? { release: inOriginalOrder(method, order) } : {}),
      writer: (path, format, o) =>
        createLogOrderWriter(path, format, {
          classified: o.classified,
          files: log.files,
          tempDir,
          memoryBytes,
        }),
    };
    const run = await releaseByUser(method, params, ctx, { ...req, reading }, how);
    if (typeof run !== "object") throw new Error(`method ${method.name} cannot read a log by user`);
    await log.rejects.close();
    return { ...run, rejected: log.rejects.count };
  } catch (e) {
    await log.rejects.abort();
    throw e;
  } finally {
    await sorted.dispose();
  }
}

/** A record's position among `files`: its file's index, then its line (the cluster's order key). */
function orderIn(files: readonly string[]): (r: LogRecord) => number {
  const index = new Map(files.map((f, i) => [f, i]));
  return (r) => (r.source ? index.get(r.source.file)! * 2 ** 32 + r.source.line : 0);
}

/**
 * The method's sharded path as one shard, each record's order key its position in the original `files`, or its
 * `anonymizeByUser` where it has no sharded path for these parameters (then ids follow the sorted order).
 */
function inOriginalOrder<P>(method: Method<P>, order: (r: LogRecord) => number) {
  const sharded = method.sharded;
  return async (log: UserPasses, params: P, ctx: MethodContext, out: ReleaseSink): Promise<Release> => {
    let runs = sharded !== undefined;
    try {
      sharded?.check?.(params);
    } catch (e) {
      if (!(e instanceof UsageError)) throw e;
      runs = false;
    }
    if (!runs) return method.anonymizeByUser!(log, params, ctx, out);
    const { shardedInProcess } = await import("../cluster/batch-shard.ts");
    const passes = log as UserPasses & { pass(): AsyncIterable<readonly LogRecord[]> };
    return shardedInProcess(
      sharded!,
      params,
      passes,
      { shards: 1, batchUsers: Number.POSITIVE_INFINITY },
      order,
      ctx,
      out,
    );
  };
}
