/**
 * `querymask anonymize --method NAME [--<param> value…] <log…> -o <out>`: run any registered method. The flags
 * for method parameters are built from the registry's ParamSpecs (../param-flags.ts), so a new method needs no CLI
 * code; `--method NAME --help` lists that method's own parameters. A method
 * with a streaming stage runs as a stream (memory flat in the log size); the others load the log. The release
 * is written in the input's format, or as a query-click count table when the method releases counts only.
 */

import { dirname, resolve } from "node:path";
import type { Command } from "commander";
import { describeGuarantee } from "../../log/guarantee.ts";
import { loadLog, type OpenedLog, openLog } from "../../log/read.ts";
import type { RowBlock } from "../../log/row-block.ts";
import { createRowWriter, writeThrough } from "../../log/row-write.ts";
import { readRows } from "../../log/rows.ts";
import { catalog, loadMethod } from "../../methods/catalog.ts";
import {
  type Guarantee,
  type MethodContext,
  methodRng,
  NO_GUARANTEE,
  type Release,
  withParamRange,
} from "../../methods/method.ts";
import type { ScrubCounts } from "../../scrub/scrub-log.ts";
import { streamingHeap } from "../heap.ts";
import { addParamFlags, givenParams } from "../param-flags.ts";
import {
  ALLOW_LIST_HELP,
  addInputOptions,
  checkOutputs,
  DEFAULT_SEED,
  fileOutputs,
  type InputFlags,
  intArg,
  parseSeed,
  printTable,
  readAllowList,
  readOptions,
  reportRejects,
} from "../shared.ts";

interface AnonymizeFlags extends InputFlags {
  method: string;
  out: string;
  seed: number;
  json?: boolean;
  batch?: boolean;
  sortBuffer: number;
  allowList?: string;
  [param: string]: unknown;
}

const RESERVED = new Set([
  "method",
  "out",
  "seed",
  "batch",
  "sort-buffer",
  "allow-list",
  "json",
  "format",
  "lenient",
  "rejects",
  "quiet",
  "help",
]);

/** What a streamed run reports for the summary. */
interface StreamRun {
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
 * The modules of the record and batch paths, loaded when a run takes one of them: the raw-row path (swap and
 * identity on an AOL log) starts without them (~30–45 CPU-ms of imports, issue 17).
 */
const recordPath = async () => {
  const [service, countTable, write, clickUrl, stage, timeOrder] = await Promise.all([
    import("../../classify/service.ts"),
    import("../../log/count-table.ts"),
    import("../../log/write.ts"),
    import("../../scrub/click-url.ts"),
    import("../../stream/stage.ts"),
    import("../../stream/time-order.ts"),
  ]);
  return { ...service, ...countTable, ...write, ...clickUrl, ...stage, ...timeOrder };
};

/** What scrubbing the input did, for the summary (the method's own counts are of the scrubbed log). */
function scrubCountsOf(c: ScrubCounts): Record<string, number> {
  return {
    "rows read": c.records,
    "rows with an identifier scrubbed": c.changed,
    "rows left empty by the scrubber": c.removed,
    "clicks dropped by the scrubber": c.clicksDropped + c.singleUserClicksDropped,
  };
}

export function register(program: Command): void {
  const cmd = program
    .command("anonymize")
    .argument("<log...>", "input log files or glob patterns")
    .requiredOption("-m, --method <name>", `method: ${catalog.map((m) => m.name).join(", ")}`)
    .requiredOption(
      "-o, --out <file>",
      "released log (same format as the input; .gz compresses) or count table (dp)",
    )
    .option("--seed <n>", "random seed", parseSeed, DEFAULT_SEED)
    .option("--batch", "load the whole log even if the method can stream it or read it one user at a time")
    .option(
      "--sort-buffer <records>",
      "streaming a log not in time order: records (an AOL log's lines) held in memory per sorted run on disk",
      intArg(1),
      16_384,
    )
    .option("--allow-list <file>", ALLOW_LIST_HELP)
    .option("--json", "print the summary as JSON");
  addParamFlags(cmd, catalog, "method", "method", RESERVED);
  cmd.addHelpText(
    "after",
    `\nMethods:\n${catalog.map((m) => `  ${m.name.padEnd(12)} ${m.summary} (${m.paper})`).join("\n")}\n\nExamples:\n  querymask anonymize --method swap --k 3 --delta 1.2 --depth 1 --seed 7 data/excite/excite-small.log -o released.log\n  querymask anonymize --method dp --epsilon 1 --delta 1e-5 --d 20 log.tsv.gz -o counts.tsv`,
  );
  addInputOptions(cmd).action(async (inputs: string[], flags: AnonymizeFlags) => {
    const method = await loadMethod(flags.method);
    const params = method.parse(givenParams(method, catalog, flags, "method"));
    const opts = readOptions(flags, flags.out);
    const allow = await readAllowList(flags.allowList);
    await checkOutputs(inputs, fileOutputs(flags.out, opts.rejectsPath));
    const ctx: MethodContext = {
      rng: methodRng(flags.seed),
      progress: opts.progress,
      warn: (message) => process.stderr.write(`querymask: note: ${message}\n`),
    };
    const t0 = performance.now();
    let counts: Record<string, number>;
    let rejected: number;
    let notes: readonly string[] = [];
    let guarantee: Guarantee = NO_GUARANTEE;
    let scrubCounts: Record<string, number> = {};
    const createStage = method.createStage?.bind(method);
    const createRowStage = method.rows ? method.createRowStage?.bind(method) : undefined;
    // An AOL log streams as raw rows when the method can (src/log/rows.ts), else as records when it has a stage.
    let log = !flags.batch && (createStage || createRowStage) ? await openLog(inputs, opts) : undefined;
    const rowStream =
      log?.format === "aol" && createRowStage
        ? async (log: OpenedLog, dropColumns = false) => {
            // `dropColumns`: a log this run classified, released in the input's layout (../row-copies.ts).
            const out = dropColumns
              ? createRowWriter(flags.out, false, { dropColumns })
              : createRowWriter(flags.out, log.classified);
            const stage = createRowStage(params, { ...ctx, rng: methodRng(flags.seed) }, out, {
              classified: log.classified,
            });
            if (stage === undefined) {
              await out.abort();
              return undefined;
            }
            opts.progress.start(method.name);
            try {
              await writeThrough(out, async () => {
                let last = Number.NEGATIVE_INFINITY;
                for await (const rows of readRows(
                  log.files,
                  opts.lenient ?? false,
                  log.rejects,
                  opts.progress,
                  out.readBuffer,
                )) {
                  if (stage.timeOrdered && rows.n > 0) {
                    const bad = outOfOrder(rows, last);
                    if (bad >= 0) {
                      const { NotInTimeOrder } = await import("../../stream/time-order.ts");
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
              opts.progress.stop();
            }
            await log.rejects.close();
            return { counts: stage.counts(), rejected: log.rejects.count };
          }
        : undefined;
    /**
     * `rowStream` on a time-ordered copy of `log` (../row-copies.ts: sorted, or classified and sorted, beside the
     * output), written in the input's layout (`dropColumns`: the copy has the classifier's columns, the input not).
     */
    const onCopy = async (
      log: OpenedLog,
      copyOf: "sorted" | "classified",
      rows: (log: OpenedLog, dropColumns?: boolean) => Promise<StreamRun | undefined>,
    ): Promise<StreamRun | undefined> => {
      const copies = await import("../row-copies.ts");
      const copyOpts = {
        lenient: opts.lenient ?? false,
        progress: opts.progress,
        tempDir: dirname(resolve(flags.out)),
        runRows: flags.sortBuffer,
        quiet: !!flags.quiet,
        ...(allow !== undefined
          ? {
              knowledge: (await import("../../classify/service.ts")).createKnowledgeService(
                undefined,
                undefined,
                allow,
              ),
            }
          : {}),
      };
      const copy = await (copyOf === "sorted" ? copies.sortedCopy : copies.classifiedCopy)(log, copyOpts);
      try {
        const run = await rows(
          await openLog([copy.file], { format: "aol", progress: opts.progress }),
          copyOf === "classified",
        );
        return run && { counts: run.counts, rejected: log.rejects.count };
      } finally {
        await copy.dispose();
      }
    };
    if (log !== undefined && (createStage || rowStream)) {
      // The stream's state is small; V8's throughput sizing of the heap would be most of the peak RSS.
      streamingHeap();
    }
    let run: { counts: Record<string, number>; rejected: number } | undefined;
    if (log !== undefined && createStage) {
      // A stage is defined on a stream in time order. Stream the file as it comes while it is in time order;
      // at the first record out of order, discard what was written and start over on the log sorted by time
      // (an external merge sort: memory stays bounded), so the release is the one the batch path gives.
      const stream = async (log: OpenedLog, sorted: boolean) => {
        const { ClickUsers, checkTimeOrder, createKnowledgeService, runStage, sortByTime, writeBatches } =
          await recordPath();
        // Classifying on the way drops the clicks only one user made, as `querymask classify` does: that needs
        // the whole log's click counts first (one pass; bad lines are the main pass's to report).
        const clickUsers = log.classified
          ? undefined
          : await ClickUsers.of((await openLog(inputs, { format: opts.format, lenient: true })).batches());
        const stage = await withParamRange(method.name, async () =>
          createStage(
            params,
            {
              ...ctx,
              rng: methodRng(flags.seed),
              knowledge: createKnowledgeService(undefined, undefined, allow),
            },
            { classified: log.classified, ...(clickUsers ? { clickUsers } : {}) },
          ),
        );
        const input = sorted
          ? sortByTime(log.batches(), {
              runRecords: flags.sortBuffer,
              tempDir: dirname(resolve(flags.out)),
              onRuns: (n) => {
                if (n > 0 && !flags.quiet) process.stderr.write(`querymask: merging ${n} sorted runs\n`);
              },
            })
          : checkTimeOrder(log.batches());
        opts.progress.start(sorted ? `${method.name} (sorting by time)` : method.name);
        try {
          await writeBatches(flags.out, log.format, runStage(stage, input), { classified: log.classified });
        } finally {
          opts.progress.stop();
        }
        await log.rejects.close();
        return { counts: stage.counts(), rejected: log.rejects.count };
      };
      /** Whether the raw-row stream ran (and so is the one that found the log out of time order). */
      let onRows = false;
      try {
        if (rowStream !== undefined) {
          onRows = true;
          run = await rowStream(log);
          onRows = run !== undefined;
          // The stage needs categories the log does not have (swap): the log classified first, then streamed.
          if (run === undefined && !log.classified) run = await onCopy(log, "classified", rowStream);
        }
        run ??= await stream(log, false);
      } catch (e) {
        const { NotInTimeOrder } = await import("../../stream/time-order.ts");
        if (!(e instanceof NotInTimeOrder)) throw e;
        await log.rejects.abort();
        if (!flags.quiet) {
          process.stderr.write(
            `querymask: ${e.where}: the log is not in time order; sorting it by time and starting over\n`,
          );
        }
        log = await openLog(inputs, opts);
        run = onRows ? await onCopy(log, "sorted", rowStream!) : undefined;
        run ??= await stream(log, true);
      }
    } else if (log !== undefined && rowStream) {
      run = await rowStream(log);
    }
    if (run !== undefined) {
      counts = run.counts;
      guarantee = method.stageGuarantee?.(params) ?? NO_GUARANTEE;
      rejected = run.rejected;
    } else {
      const { createKnowledgeService, writeCountTable, writeLog } = await recordPath();
      const batchCtx = { ...ctx, knowledge: createKnowledgeService(undefined, undefined, allow) };
      // A method that reads by user (dp) holds one user at a time when the log is grouped by user.
      const byUser =
        flags.batch || method.anonymizeByUser === undefined
          ? undefined
          : await (await import("../by-user.ts")).releaseByUser(
              method,
              params,
              batchCtx,
              inputs,
              opts,
              !!flags.quiet,
            );
      let release: Release;
      if (byUser !== undefined) {
        release = byUser.release;
        if (byUser.scrub) scrubCounts = scrubCountsOf(byUser.scrub);
        rejected = byUser.rejected;
      } else {
        opts.progress.start("reading");
        const read = await loadLog(inputs, opts);
        opts.progress.stop();
        let input = read;
        // Loaded here only: the scrubber's dictionaries are not needed by a streaming method.
        const { scrubLog, scrubsInput } = await import("../../scrub/scrub-log.ts");
        if (scrubsInput(method.name, read)) {
          opts.progress.start("scrubbing identifiers");
          const { createScrubber } = await import("../../scrub/scrubber.ts");
          const scrubbed = await scrubLog(read, createScrubber({ allow }));
          opts.progress.stop();
          input = scrubbed.log;
          scrubCounts = scrubCountsOf(scrubbed.counts);
        }
        release = await withParamRange(method.name, () => method.anonymize(input, params, batchCtx));
        rejected = input.rejected;
      }
      if (release.log) await writeLog(flags.out, release.log);
      else if (release.table) await writeCountTable(flags.out, release.table);
      else throw new Error(`method ${method.name} released nothing`);
      counts = { ...scrubCounts, ...release.counts };
      guarantee = release.guarantee;
      notes = release.notes ?? [];
    }
    const seconds = (performance.now() - t0) / 1000;
    reportRejects(rejected, opts.rejectsPath);
    for (const note of notes) process.stderr.write(`querymask: ${note}\n`);
    const summary = {
      method: method.name,
      params,
      seed: flags.seed,
      out: flags.out,
      seconds,
      rejected,
      guarantee,
      ...(allow !== undefined ? { allowList: { file: flags.allowList, phrases: allow.size } } : {}),
      ...counts,
    };
    if (flags.json) {
      process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
      return;
    }
    printTable([
      ["method", method.name],
      ["parameters", JSON.stringify(params)],
      ["seed", flags.seed],
      ["output", flags.out],
      ["guarantee", describeGuarantee(guarantee)],
      ...(allow !== undefined
        ? [["allow list (left in the queries)", allow.describe()] as [string, string]]
        : []),
      ...Object.entries(counts).map(([k, v]) => [k, v] as [string, number]),
      ["rejected lines", rejected],
      ["seconds", seconds.toFixed(2)],
    ]);
  });
}
