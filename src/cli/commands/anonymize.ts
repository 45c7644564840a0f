/**
 * `querymask anonymize --method NAME [--<param> value…] <log…> -o <out>`: run any registered method. The flags
 * for method parameters come from each method's schema (../param-flags.ts), so a new method needs no CLI code;
 * `--method NAME --help` lists that method's own parameters. The release is planned and run by the pipeline
 * (src/pipeline/release.ts: streamed, by user or in batch, prepared as the method declares); this file parses
 * flags and prints what it did. For a DP method the summary holds only what may be published; `--diagnostics`
 * writes the exact figures to a `*.PRIVATE.*` file.
 */
import type { Command } from "commander";
import { describeGuarantee } from "../../log/guarantee.ts";
import { loadMethod, methods } from "../../methods/registry.ts";
import { DEFAULT_SORT_MEMORY_MIB, releaseFiles } from "../../pipeline/release.ts";
import { diagnosticsPath } from "../../pipeline/summary.ts";
import { slowOldGenerationGrowth, streamingHeap } from "../heap.ts";
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
  sortByUser?: boolean;
  memory?: number;
  allowList?: string;
  diagnostics?: boolean;
  [param: string]: unknown;
}

const RESERVED = new Set(
  "method out seed batch sort-buffer sort-by-user memory allow-list json diagnostics format lenient rejects quiet help".split(
    " ",
  ),
);

export function register(program: Command): void {
  const cmd = program
    .command("anonymize")
    .argument("<log...>", "input log files or glob patterns")
    .requiredOption("-m, --method <name>", `method: ${methods.map((m) => m.name).join(", ")}`)
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
    .option(
      "--sort-by-user",
      "a method that reads by user: sort the log by user on disk first, without trying it as it is",
    )
    .option(
      "--memory <MiB>",
      `a log not grouped by user, sorted by user on disk: MiB of records each sort holds at once (default ${DEFAULT_SORT_MEMORY_MIB})`,
      intArg(1),
    )
    .option("--allow-list <file>", ALLOW_LIST_HELP)
    .option("--json", "print the summary as JSON")
    .option(
      "--diagnostics",
      "also write the run's exact figures (a DP method's summary omits them) to <out>.diagnostics.PRIVATE.json",
    );
  addParamFlags(cmd, methods, "method", "method", RESERVED);
  cmd.addHelpText(
    "after",
    `\nMethods:\n${methods.map((m) => `  ${m.name.padEnd(12)} ${m.summary} (${m.paper})${m.kind === "simulation" ? " [simulation: what the engine would see, not a release]" : ""}`).join("\n")}\n\nExamples:\n  querymask anonymize --method swap --k 3 --delta 1.2 --depth 1 --seed 7 data/excite/excite-small.log -o released.log\n  querymask anonymize --method dp --epsilon 1 --delta 1e-5 --d 20 log.tsv.gz -o counts.tsv`,
  );
  addInputOptions(cmd).action(async (inputs: string[], flags: AnonymizeFlags) => {
    const method = await loadMethod(flags.method);
    const params = method.parse(givenParams(method, methods, flags, "method"));
    const opts = readOptions(flags, flags.out);
    const allow = await readAllowList(flags.allowList);
    const privatePath = flags.diagnostics ? diagnosticsPath(flags.out) : undefined;
    await checkOutputs(inputs, [
      ...fileOutputs(flags.out, opts.rejectsPath),
      privatePath === undefined ? undefined : { path: privatePath, role: "diagnostics file" },
    ]);
    const say = (line: string) => {
      if (!flags.quiet) process.stderr.write(`querymask: ${line}\n`);
    };
    const run = await releaseFiles({
      method,
      params,
      seed: flags.seed,
      inputs,
      read: opts,
      out: flags.out,
      batch: !!flags.batch,
      sortBuffer: flags.sortBuffer,
      ...(flags.sortByUser ? { sortByUser: true } : {}),
      ...(flags.memory !== undefined ? { memory: flags.memory } : {}),
      ...(allow !== undefined ? { allow } : {}),
      progress: opts.progress,
      say,
      warn: (message) => process.stderr.write(`querymask: note: ${message}\n`),
      heap: { streaming: streamingHeap, byUser: (on) => slowOldGenerationGrowth(on ? 50 : 0) },
    });
    if (run.rejected !== undefined) reportRejects(run.rejected, opts.rejectsPath);
    else if (opts.rejectsPath !== undefined) {
      say(`bad lines, if any, are set aside in ${opts.rejectsPath} (raw input rows: keep it private)`);
    }
    for (const note of run.notes) process.stderr.write(`querymask: ${note}\n`);
    if (privatePath !== undefined) {
      const { writeFileAtomic } = await import("../../log/atomic.ts");
      await writeFileAtomic(privatePath, `${JSON.stringify(run.diagnostics, null, 2)}\n`);
      process.stderr.write(
        `querymask: exact figures written to ${privatePath} — they are not private: never publish them\n`,
      );
    }
    const summary = {
      method: method.name,
      params,
      seed: flags.seed,
      out: flags.out,
      ...(run.seconds !== undefined ? { seconds: run.seconds } : {}),
      ...(run.rejected !== undefined ? { rejected: run.rejected } : {}),
      guarantee: run.guarantee,
      ...(allow !== undefined ? { allowList: { file: flags.allowList, phrases: allow.size } } : {}),
      ...run.counts,
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
      ["guarantee", describeGuarantee(run.guarantee)],
      ...(allow !== undefined
        ? [["allow list (left in the queries)", allow.describe()] as [string, string]]
        : []),
      ...Object.entries(run.counts).map(([k, v]) => [k, v] as [string, number]),
      ...(run.rejected !== undefined ? [["rejected lines", run.rejected] as [string, number]] : []),
      ...(run.seconds !== undefined ? [["seconds", run.seconds.toFixed(2)] as [string, string]] : []),
    ]);
  });
}
