/**
 * `querymask classify <log…> -o <out>`: paper 000's classifier over a log. Writes the log with each query
 * scrubbed of identifiers and two columns added (ODP category path, main semantic unit), and prints coverage
 * and the number of query events per top-level category. Unclassified events are counted, never dropped.
 */
import { availableParallelism } from "node:os";
import { type Command, InvalidArgumentError, Option } from "commander";
import { UNCLASSIFIED } from "../../classify/classifier.ts";
import {
  assessAll,
  ClassifyTally,
  classifyBatches,
  classifyRows,
  firstPassRecords,
  firstPassRows,
  withLogContext,
} from "../../classify/classify-log.ts";
import { CONTEXT_SIGNALS, type ContextSignal, LOG_CONTEXT } from "../../classify/log-context.ts";
import {
  assessOnThreads,
  ClassifyThreads,
  classifierOf,
  classifyBatchesOnThreads,
  classifyRowsOnThreads,
} from "../../classify/threads.ts";
import { openLog } from "../../log/read.ts";
import { RejectSink } from "../../log/rejects.ts";
import type { RowBlock } from "../../log/row-block.ts";
import { createRowWriter, type RowWriter, writeThrough } from "../../log/row-write.ts";
import { readRows } from "../../log/rows.ts";
import { writeBatches } from "../../log/write.ts";
import type { ScrubMode } from "../../scrub/types.ts";
import { UsageError } from "../../util/errors.ts";
import { streamingHeap, threadedHeap } from "../heap.ts";
import {
  ALLOW_LIST_HELP,
  addInputOptions,
  checkOutputs,
  fileOutputs,
  type InputFlags,
  intArg,
  printTable,
  readAllowList,
  readOptions,
  reportRejects,
} from "../shared.ts";

interface ClassifyFlags extends InputFlags {
  out: string;
  scrub: ScrubMode;
  cacheSize: number;
  mainUnit: "vote" | "paper";
  /** commander's `--no-model`: false = Algorithm 1 alone. */
  model: boolean;
  outFormat?: "aol" | "ndjson";
  keepSingleUserClicks?: boolean;
  allowList?: string;
  threads: number;
  context?: ContextSignal[];
  contextMinutes: number;
  contextRounds: number;
  json?: boolean;
}

/** More threads than this only add memory (~200 MB each) and contention. */
const MAX_THREADS = 2 * availableParallelism();

export function register(program: Command): void {
  const cmd = program
    .command("classify")
    .argument("<log...>", "log files or glob patterns (AOL TSV, Excite, NDJSON; plain or .gz)")
    .requiredOption("-o, --out <file>", "classified log (same format as the input; .gz compresses)")
    .addOption(
      new Option("--scrub <mode>", "drop or tag identifiers in the query")
        .choices(["drop", "tag"])
        .default("drop"),
    )
    .option("--cache-size <n>", "LRU cache entries for repeated queries (0 = off)", intArg(0), 100_000)
    .addOption(
      new Option(
        "--main-unit <rule>",
        "main-unit rule: vote (units vote by specificity) or paper (Algorithm 1: least-referenced unit)",
      )
        .choices(["vote", "paper"])
        .default("vote"),
    )
    .option(
      "--no-model",
      "Algorithm 1 alone, without the learned decision layer (data/model/classifier-model.json)",
    )
    .addOption(
      new Option(
        "--out-format <format>",
        "output layout (default: the input's; Excite input is written as aol)",
      ).choices(["aol", "ndjson"]),
    )
    .option(
      "--keep-single-user-clicks",
      "keep click URLs that only one user clicked (dropped by default: such a URL can name its user); the scrubber then weighs no other user's queries either (no name counts)",
    )
    .option("--allow-list <file>", ALLOW_LIST_HELP)
    .option(
      "--threads <n>",
      "classify on n worker threads (each loads its own classifier, ~200 MB); the output is the same",
      intArg(1, MAX_THREADS, `2 per core of this machine; each thread loads its own classifier`),
      1,
    )
    .option(
      "--context <signals>",
      "reconsider each query's top-level branch in the light of its log: clicks (the other queries that clicked " +
        "the same sites), users (the same users' queries around it), or clicks,users; one more pass over the log " +
        "(docs/classifier.md)",
      contextSignals,
    )
    .option(
      "--context-minutes <n>",
      "--context users: a user's queries count when this close to one of their events of the query",
      intArg(1),
      LOG_CONTEXT.minutes,
    )
    .option(
      "--context-rounds <n>",
      "--context: passes in which each query's neighbours lend it their branch as the context last gave it " +
        "(1: as their text alone gives it)",
      intArg(1),
      LOG_CONTEXT.rounds,
    )
    .option("--json", "print the summary as JSON")
    .addHelpText(
      "after",
      "\nExample:\n  querymask classify ../shared/data/excite/excite-small.log -o out/excite.classified.log",
    );
  addInputOptions(cmd).action(async (inputs: string[], flags: ClassifyFlags) => {
    if (flags.context && !flags.model)
      throw new UsageError(
        "--context reconsiders the learned layer's branch: it needs the model, not --no-model",
      );
    if (flags.threads > 1) threadedHeap();
    else streamingHeap();
    const opts = readOptions(flags, flags.out);
    await checkOutputs(inputs, fileOutputs(flags.out, opts.rejectsPath));
    const allow = await readAllowList(flags.allowList);
    // Its categories checked here, before any thread builds a classifier from it (`file:line: reason`, exit 2).
    if (allow !== undefined && allow.filed.length > 0) {
      const [{ ListedPhrases }, { Taxonomy }] = await Promise.all([
        import("../../classify/listed-phrases.ts"),
        import("../../knowledge/taxonomy.ts"),
      ]);
      ListedPhrases.of(allow, Taxonomy.bundled());
    }
    const settings = {
      scrub: flags.scrub,
      mainUnit: flags.mainUnit,
      model: flags.model,
      ...(allow !== undefined ? { allow: allow.entries() } : {}),
    };
    // On threads, each thread builds its classifier while this one reads the log for its clicks.
    const starting = flags.threads > 1 ? ClassifyThreads.start(flags.threads, settings) : undefined;
    // Stopped however the run ends (the threads would keep the process alive).
    starting?.catch(() => {});
    const tally = new ClassifyTally();
    let context: ReturnType<typeof withLogContext> | undefined;
    let rows: number;
    let log: Awaited<ReturnType<typeof openLog>>;
    try {
      log = await openLog(inputs, opts);
      // The Excite layout has no category columns: its classified form is the AOL layout.
      const format = flags.outFormat ?? (log.format === "excite" ? "aol" : log.format);
      // An AOL log written as AOL is read and written as raw rows (no record per row).
      const raw = log.format === "aol" && format === "aol";
      // A first pass counts each click URL's users and each name's (the cross-user evidence) and, for the log
      // context, gathers the query events (users, texts, times, clicks): one read of the log (bad lines are the
      // second pass's to report).
      const wants = { clicks: !flags.keepSingleUserClicks, events: flags.context !== undefined };
      const { clicks, events } = !(wants.clicks || wants.events)
        ? { clicks: undefined, events: undefined }
        : raw
          ? await firstPassRows(readRows(log.files, true, new RejectSink()), wants)
          : await firstPassRecords(
              (await openLog(inputs, { format: opts.format, lenient: true })).batches(),
              wants,
            );
      const threads = await starting;
      // The first pass counted each name's users too: every scrubber of this run weighs them.
      threads?.giveNameUsers(clicks?.names);
      // With the context on threads, the threads assess each distinct query; this thread reconsiders the few the
      // context moves (and writes the log with the answers: the threads have nothing left to do then).
      const alone =
        threads === undefined || events !== undefined
          ? (await classifierOf(settings, flags.cacheSize)).withNameUsers(clicks?.names)
          : undefined;
      if (events !== undefined) {
        const assessed =
          threads !== undefined
            ? await assessOnThreads(threads, events.texts, opts.progress)
            : assessAll(alone!, events.texts, opts.progress);
        const contextSettings = {
          ...LOG_CONTEXT,
          signals: flags.context ?? [],
          minutes: flags.contextMinutes,
          rounds: flags.contextRounds,
        };
        context = withLogContext(alone!, events, contextSettings, assessed);
      }
      const classifier = context ?? alone;
      const onThreads = context === undefined ? threads : undefined;
      opts.progress.start("classify");
      try {
        if (raw) {
          rows = await classifyRowsTo(flags.out, log, opts, (blocks, out) =>
            onThreads !== undefined
              ? classifyRowsOnThreads(onThreads, blocks, tally, out, { clicks, cacheSize: flags.cacheSize })
              : classifyRows(classifier!, blocks, tally, clicks, out),
          );
        } else {
          const classified =
            onThreads !== undefined
              ? classifyBatchesOnThreads(onThreads, log.batches(), tally, {
                  clicks,
                  cacheSize: flags.cacheSize,
                })
              : classifyBatches(classifier!, log.batches(), tally, clicks);
          rows = await writeBatches(flags.out, format, classified, { classified: true });
        }
      } finally {
        opts.progress.stop();
      }
    } finally {
      await (await starting?.catch(() => undefined))?.close();
    }
    await log.rejects.close();
    reportRejects(log.rejects.count, opts.rejectsPath);
    const { counts, coverage } = tally;
    const events = counts.events!;
    const unclassified = counts[UNCLASSIFIED]!;
    const perTop = Object.entries(counts)
      .filter(([k]) => k !== "events" && k !== "scrubbed")
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    if (flags.json) {
      const summary = {
        out: flags.out,
        rows,
        rejected: log.rejects.count,
        coverage,
        counts,
        clicksDropped: tally.clicksDropped,
        singleUserClicksDropped: tally.singleUserClicksDropped,
        noQueryText: tally.noQueryText,
        textCoverage: tally.textCoverage,
        ...(allow !== undefined ? { allowList: { file: flags.allowList, phrases: allow.size } } : {}),
        ...(context === undefined
          ? {}
          : {
              context: {
                signals: flags.context,
                ...(flags.context?.includes("users") ? { minutes: flags.contextMinutes } : {}),
                rounds: flags.contextRounds,
                queriesChanged: context.queriesChanged,
                eventsChanged: context.eventsChanged,
              },
            }),
      };
      process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
      return;
    }
    printTable([
      ["written", flags.out],
      ["rows", rows],
      ["query events", events],
      ["events with identifiers scrubbed", counts.scrubbed!],
      ...(allow !== undefined
        ? [["allow list (left in the queries)", allow.describe()] as [string, string]]
        : []),
      ["click URLs dropped (identifier in host)", tally.clicksDropped],
      ["click URLs dropped (clicked by one user only)", tally.singleUserClicksDropped],
      [
        "coverage",
        `${(100 * coverage).toFixed(2)}% (${unclassified.toLocaleString("en")} unclassified` +
          (tally.noQueryText > 0
            ? `, ${tally.noQueryText.toLocaleString("en")} of them with no query text; ` +
              `${(100 * tally.textCoverage).toFixed(2)}% of the events with text)`
            : ")"),
      ],
      ...(context === undefined
        ? []
        : [
            [
              `log context (${(flags.context ?? []).join(", ")})`,
              `${context.eventsChanged.toLocaleString("en")} events (${context.queriesChanged.toLocaleString("en")} distinct queries) ` +
                "moved to another branch",
            ] as [string, string],
          ]),
      ...perTop.map(([k, v]): [string, string] => [
        `  ${k}`,
        `${v.toLocaleString("en")} (${((100 * v) / Math.max(events, 1)).toFixed(1)}%)`,
      ]),
    ]);
  });
}

/** The raw-row path of `classify` (an AOL log): its rows read, classified by `run` and written atomically; returns their number. */
async function classifyRowsTo(
  path: string,
  log: Awaited<ReturnType<typeof openLog>>,
  opts: ReturnType<typeof readOptions>,
  run: (blocks: AsyncIterable<RowBlock>, out: RowWriter) => Promise<void>,
): Promise<number> {
  const out = createRowWriter(path, true);
  await writeThrough(out, () =>
    run(readRows(log.files, opts.lenient ?? false, log.rejects, opts.progress, out.readBuffer), out),
  );
  return out.count;
}

/** `--context`'s comma-separated signals, checked. */
function contextSignals(value: string): ContextSignal[] {
  const out: ContextSignal[] = [];
  for (const part of value.split(",")) {
    const signal = part.trim() as ContextSignal;
    if (!CONTEXT_SIGNALS.includes(signal))
      throw new InvalidArgumentError(`"${part}" is not a context signal (${CONTEXT_SIGNALS.join(", ")})`);
    if (!out.includes(signal)) out.push(signal);
  }
  return out;
}
