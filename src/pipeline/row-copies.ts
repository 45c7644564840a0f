/**
 * Time-ordered copies of an AOL log for the raw-row stages (stream.ts), in a temporary directory beside
 * the output, removed by `dispose`:
 *
 * - {@link sortedCopy}: a classified log out of time order, sorted as raw rows (src/stream/row-sort.ts);
 * - {@link classifiedCopy}: an unclassified log, for a stage that needs categories (swap), classified first as
 *   `querymask classify` classifies it — each click URL's users counted, each row's query scrubbed and given its
 *   category and unit, clicks dropped by the same rules — then sorted by time when it is not in time order. The
 *   record stage did the same per record on the way (`loadCategorize`, with the same classifier and click rules),
 *   so the release is the same, byte for byte (test/cli/rows.test.ts), for the cost of `classify` on raw rows.
 *
 * Both read the log once for its rows: its bad lines are `log.rejects`' (an error at their `file:line`, or set aside
 * with `lenient`), and the sink is closed.
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { ClassifyTally, classifyRows } from "../classify/classify-log.ts";
import { createKnowledgeService, type KnowledgeService } from "../classify/service.ts";
import { temporaryDirectory } from "../log/atomic.ts";
import type { OpenedLog } from "../log/read.ts";
import { RejectSink } from "../log/rejects.ts";
import type { RowBlock } from "../log/row-block.ts";
import { createRowWriter, writeThrough } from "../log/row-write.ts";
import { readRows } from "../log/rows.ts";
import { ClickUsers } from "../scrub/click-url.ts";
import { sortRowsByTime } from "../stream/row-sort.ts";
import type { Progress } from "../util/progress.ts";

export interface CopyOptions {
  readonly lenient: boolean;
  readonly progress: Progress;
  /** Parent of the temporary directory (the output's). */
  readonly tempDir: string;
  /** Rows per sorted run (`--sort-buffer`). */
  readonly runRows: number;
  /** A note for the user (where the log goes back in time, how many runs were merged). */
  readonly say: (line: string) => void;
  /** The run's knowledge (its classifier classifies the copy; default: the bundled lists' alone). */
  readonly knowledge?: KnowledgeService;
}

/** A time-ordered copy of a log (see the module comment); `dispose` removes it. */
export interface RowCopy {
  readonly file: string;
  dispose(): Promise<void>;
}

const note = (opts: CopyOptions, text: string) => opts.say(text);

/** The sort's options from the copy's: its runs, and a note of how many were merged. */
const sortOptions = (opts: CopyOptions, tempDir: string) => ({
  runRows: opts.runRows,
  tempDir,
  onRuns: (n: number) => {
    if (n > 0) note(opts, `merging ${n} sorted runs`);
  },
});

/** `log` (a classified AOL log) sorted by time as raw rows. */
export async function sortedCopy(log: OpenedLog, opts: CopyOptions): Promise<RowCopy> {
  opts.progress.start("sorting by time");
  try {
    const sorted = await sortRowsByTime(
      log.files,
      log.classified,
      opts.lenient,
      log.rejects,
      opts.progress,
      sortOptions(opts, opts.tempDir),
    );
    await log.rejects.close();
    return sorted;
  } finally {
    opts.progress.stop();
  }
}

/** `log` (an unclassified AOL log) classified, then sorted by time when it is not in time order. */
export async function classifiedCopy(log: OpenedLog, opts: CopyOptions): Promise<RowCopy> {
  const { dir, dispose } = await temporaryDirectory(opts.tempDir, ".querymask-classify-");
  try {
    // A first pass counts each click URL's users and each name's (bad lines are the second pass's to report).
    const clicks = await ClickUsers.ofRows(readRows(log.files, true, new RejectSink()));
    const classifier = (await (opts.knowledge ?? createKnowledgeService()).classifier()).withNameUsers(
      clicks.names,
    );
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
      await writeThrough(out, () => classifyRows(classifier, checked(), new ClassifyTally(), clicks, out));
    } finally {
      opts.progress.stop();
    }
    await log.rejects.close();
    if (disorder === undefined) return { file: classified, dispose };
    note(opts, `${disorder}: the log is not in time order; sorting it by time`);
    opts.progress.start("sorting by time");
    try {
      const sorted = await sortRowsByTime(
        [classified],
        true,
        false,
        new RejectSink(),
        opts.progress,
        sortOptions(opts, dir),
      );
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
