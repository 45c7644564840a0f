/**
 * The streaming plans of a file release (release.ts): a method's raw-row stage on an AOL log (bytes copied, not
 * parsed), else its record stage. Both are defined on a stream in time order: the log streams as it comes while it
 * is in order; at the first row out of order what was written is dropped and the run starts over on the log sorted
 * by time. An unclassified log for a stage that needs categories is classified on the way (record stage), or first
 * into a copy (raw rows: row-copies.ts) — the same release, byte for byte.
 */
import { dirname, resolve } from "node:path";
import type { KnowledgeService } from "../classify/service.ts";
import { type OpenedLog, openLog } from "../log/read.ts";
import type { RowBlock } from "../log/row-block.ts";
import { createRowWriter, writeThrough } from "../log/row-write.ts";
import { readRows } from "../log/rows.ts";
import { withParamRange } from "../methods/method.ts";
import type { FileRelease } from "./release.ts";
import { methodContext } from "./release.ts";

/** What a streamed run reports for the summary. */
export interface Streamed {
  readonly mode: "rows" | "stream";
  readonly counts: Record<string, number>;
  readonly rejected: number;
}

/**
 * The index of the first of `rows` earlier than the one before it (`last` before the first), or -1 when they are
 * in time order. (A function of its own: inside the async driver the loop ran unoptimized.)
 */
function outOfOrder(rows: RowBlock, last: number): number {
  const time = rows.time;
  for (let i = 0; i < rows.n; i++) {
    const t = time[i]!;
    if (t < last) return i;
    last = t;
  }
  return -1;
}

/**
 * The modules of the record path, loaded when a run takes it: the raw-row path (swap and identity on an AOL log)
 * starts without them (~30–45 CPU-ms of imports).
 */
const recordPath = async () => {
  const [write, clickUrl, stage, timeOrder] = await Promise.all([
    import("../log/write.ts"),
    import("../scrub/click-url.ts"),
    import("../stream/stage.ts"),
    import("../stream/time-order.ts"),
  ]);
  return { ...write, ...clickUrl, ...stage, ...timeOrder };
};

/** The release streamed, or undefined when this method or input needs the by-user or batch path. */
export async function streamRelease<P>(
  req: FileRelease<P>,
  knowledge: () => Promise<KnowledgeService>,
): Promise<Streamed | undefined> {
  const { method, params, progress } = req;
  const createStage = method.createStage?.bind(method);
  const createRowStage = method.rows ? method.createRowStage?.bind(method) : undefined;
  if (!createStage && !createRowStage) return undefined;
  let log = await openLog(req.inputs, req.read);
  const say = req.say ?? (() => {});
  const tempDir = dirname(resolve(req.out));
  const lenient = req.read.lenient ?? false;
  const rowStream =
    log.format === "aol" && createRowStage
      ? async (log: OpenedLog, dropColumns = false): Promise<Streamed | undefined> => {
          // `dropColumns`: a log this run classified, released in the input's layout (row-copies.ts).
          const out = dropColumns
            ? createRowWriter(req.out, false, { dropColumns })
            : createRowWriter(req.out, log.classified);
          const ctx = methodContext(req.seed, progress, req.warn, undefined);
          const stage = createRowStage(params, ctx, out, { classified: log.classified });
          if (stage === undefined) {
            await out.abort();
            return undefined;
          }
          progress.start(method.name);
          try {
            await writeThrough(out, async () => {
              let last = Number.NEGATIVE_INFINITY;
              for await (const rows of readRows(log.files, lenient, log.rejects, progress, out.readBuffer)) {
                if (stage.timeOrdered && rows.n > 0) {
                  const bad = outOfOrder(rows, last);
                  if (bad >= 0) {
                    const { NotInTimeOrder } = await import("../stream/time-order.ts");
                    const before = bad === 0 ? last : rows.time[bad - 1]!;
                    throw new NotInTimeOrder(`${rows.file}:${rows.line[bad]}`, before, rows.time[bad]!);
                  }
                  last = rows.time[rows.n - 1]!;
                }
                stage.push(rows);
                const behind = out.backlog();
                if (behind) await behind;
              }
              stage.flush();
            });
          } finally {
            progress.stop();
          }
          await log.rejects.close();
          return { mode: "rows", counts: stage.counts(), rejected: log.rejects.count };
        }
      : undefined;
  /**
   * `rowStream` on a time-ordered copy of `log` (row-copies.ts: sorted, or classified and sorted, beside the
   * output), written in the input's layout (`dropColumns`: the copy has the classifier's columns, the input not).
   */
  const onCopy = async (log: OpenedLog, copyOf: "sorted" | "classified"): Promise<Streamed | undefined> => {
    const copies = await import("./row-copies.ts");
    const copyOpts = {
      lenient,
      progress,
      tempDir,
      runRows: req.sortBuffer ?? 16_384,
      say,
      ...(copyOf === "classified" ? { knowledge: await knowledge() } : {}),
    };
    const copy = await (copyOf === "sorted" ? copies.sortedCopy : copies.classifiedCopy)(log, copyOpts);
    try {
      const run = await rowStream!(
        await openLog([copy.file], { format: "aol", progress }),
        copyOf === "classified",
      );
      return run && { ...run, rejected: log.rejects.count };
    } finally {
      await copy.dispose();
    }
  };
  if (!createStage && !rowStream) return undefined;
  // The stream's state is small; V8's throughput sizing of the heap would be most of the peak RSS.
  req.heap?.streaming();
  /** The record stage over `log`, as it comes (`sorted` false) or sorted by time. */
  const stream = async (log: OpenedLog, sorted: boolean): Promise<Streamed> => {
    const { ClickUsers, checkTimeOrder, runStage, sortByTime, writeBatches } = await recordPath();
    // Classifying on the way drops the clicks only one user made, as `querymask classify` does: that needs the
    // whole log's click counts first (one pass; bad lines are the main pass's to report).
    const clickUsers =
      log.classified || !method.input.crossUser
        ? undefined
        : await ClickUsers.of(
            (await openLog(req.inputs, { format: req.read.format, lenient: true })).batches(),
          );
    const ctx = methodContext(req.seed, progress, req.warn, await knowledge());
    const stage = await withParamRange(method.name, async () =>
      createStage!(params, ctx, { classified: log.classified, ...(clickUsers ? { clickUsers } : {}) }),
    );
    const input = sorted
      ? sortByTime(log.batches(), {
          runRecords: req.sortBuffer ?? 16_384,
          tempDir,
          onRuns: (n) => {
            if (n > 0) say(`merging ${n} sorted runs`);
          },
        })
      : checkTimeOrder(log.batches());
    progress.start(sorted ? `${method.name} (sorting by time)` : method.name);
    try {
      await writeBatches(req.out, log.format, runStage(stage, input), { classified: log.classified });
    } finally {
      progress.stop();
    }
    await log.rejects.close();
    return { mode: "stream", counts: stage.counts(), rejected: log.rejects.count };
  };
  if (!createStage) return rowStream!(log);
  /** Whether the raw-row stream ran (and so is the one that found the log out of time order). */
  let onRows = false;
  try {
    let run: Streamed | undefined;
    if (rowStream !== undefined) {
      onRows = true;
      run = await rowStream(log);
      onRows = run !== undefined;
      // The stage needs categories the log does not have (swap): the log classified first, then streamed.
      if (run === undefined && !log.classified) run = await onCopy(log, "classified");
    }
    return run ?? (await stream(log, false));
  } catch (e) {
    const { NotInTimeOrder } = await import("../stream/time-order.ts");
    if (!(e instanceof NotInTimeOrder)) throw e;
    await log.rejects.abort();
    say(`${e.where}: the log is not in time order; sorting it by time and starting over`);
    log = await openLog(req.inputs, req.read);
    return (onRows ? await onCopy(log, "sorted") : undefined) ?? (await stream(log, true));
  }
}
