/**
 * A raw-row stage that needs categories (swap) on an unclassified AOL log: the log is first classified as
 * `querymask classify` classifies it — each click URL's users counted, each row's query scrubbed and given its
 * category and unit, clicks dropped by the same rules — into a temporary file beside the output, sorted by time
 * when it is not in time order, and that file is what the stage reads. The record stage did the same per record
 * on the way (`loadCategorize`, with the same classifier and click rules), so the release is the same, byte for byte
 * (test/cli/rows.test.ts), for the cost of `classify` on raw rows instead of records.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import { ClassifyTally, classifyRows } from "../classify/classify-log.ts";
import { createKnowledgeService } from "../classify/service.ts";
import type { OpenedLog } from "../log/read.ts";
import { RejectSink } from "../log/rejects.ts";
import type { RowBlock } from "../log/row-block.ts";
import { createRowWriter } from "../log/row-write.ts";
import { readRows } from "../log/rows.ts";
import { ClickUsers } from "../scrub/click-url.ts";
import { sortRowsByTime } from "../stream/row-sort.ts";
import type { Progress } from "../util/progress.ts";

export interface ClassifyFirstOptions {
  readonly lenient: boolean;
  readonly progress: Progress;
  /** Parent of the temporary directory (the output's). */
  readonly tempDir: string;
  /** Rows per sorted run (`--sort-buffer`). */
  readonly runRows: number;
  /** Told where the log first goes back in time (`file:line`), when it does, and how many runs the sort spilled. */
  readonly onDisorder: (where: string) => void;
  readonly onRuns: (runs: number) => void;
}

/** The classified, time-ordered copy of an unclassified AOL log; `dispose` removes it. */
export interface ClassifiedCopy {
  readonly file: string;
  dispose(): Promise<void>;
}

/**
 * Classify `log` (unclassified AOL) into a time-ordered classified file (see the module comment). Its bad lines are
 * `log.rejects`' (an error at their `file:line`, or set aside with `lenient`), read once; the sink is closed.
 */
export async function classifyFirst(log: OpenedLog, opts: ClassifyFirstOptions): Promise<ClassifiedCopy> {
  const dir = await mkdtemp(join(opts.tempDir, ".querymask-classify-"));
  const dispose = () => rm(dir, { recursive: true, force: true });
  try {
    // A first pass counts each click URL's users (bad lines are the second pass's to report).
    const clicks = await ClickUsers.ofRows(readRows(log.files, true, new RejectSink()));
    const classifier = await createKnowledgeService().classifier();
    const classified = join(dir, "classified.tsv");
    const out = createRowWriter(classified, true);
    let disorder: string | undefined;
    let last = Number.NEGATIVE_INFINITY;
    /** The log's blocks, noting the first row earlier than the one before it. */
    async function* checked(): AsyncGenerator<RowBlock> {
      for await (const rows of readRows(
        log.files,
        opts.lenient,
        log.rejects,
        opts.progress,
        out.readBuffer,
      )) {
        for (let i = 0; disorder === undefined && i < rows.n; i++) {
          if (rows.time[i]! < last) disorder = `${rows.file}:${rows.line[i]}`;
          last = rows.time[i]!;
        }
        yield rows;
      }
    }
    opts.progress.start("classify");
    try {
      await classifyRows(classifier, checked(), new ClassifyTally(), clicks, out);
      await out.close();
    } catch (e) {
      await out.abort();
      throw e;
    } finally {
      opts.progress.stop();
    }
    await log.rejects.close();
    if (disorder === undefined) return { file: classified, dispose };
    opts.onDisorder(disorder);
    opts.progress.start("sorting by time");
    try {
      const sorted = await sortRowsByTime([classified], true, false, new RejectSink(), opts.progress, {
        runRows: opts.runRows,
        tempDir: dir,
        onRuns: opts.onRuns,
      });
      await rm(classified, { force: true });
      return { file: sorted.file, dispose };
    } finally {
      opts.progress.stop();
    }
  } catch (e) {
    await dispose();
    throw e;
  }
}
