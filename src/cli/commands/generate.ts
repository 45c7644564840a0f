/**
 * `querymask generate --users N [--rows N] --seed S -o out.tsv[.gz]`: write a seeded synthetic query log
 * (src/synth). Streams to disk; the same flags give a byte-identical file.
 */
import { type Command, InvalidArgumentError, Option } from "commander";
import { LOG_FORMATS, type LogFormat } from "../../log/record.ts";
import { createLogWriter } from "../../log/write.ts";
import { loadCalibration } from "../../synth/calibration.ts";
import { type GenerateOptions, generateRecords, newStats, usersForRows } from "../../synth/generate.ts";
import { UsageError } from "../../util/errors.ts";
import { consoleProgress } from "../../util/progress.ts";
import { checkOutputs, DEFAULT_SEED, fileOutputs, intArg, parseSeed, printTable } from "../shared.ts";

interface GenerateFlags {
  users?: number;
  rows?: number;
  seed: number;
  format?: LogFormat;
  out: string;
  piiShare?: number;
  truth?: boolean;
  start?: string;
  days?: number;
  calibration?: string;
  json?: boolean;
  quiet?: boolean;
}

function share(value: string): number {
  const x = Number(value);
  if (!(x >= 0 && x <= 1)) throw new InvalidArgumentError("must be a number in [0, 1]");
  return x;
}

/** Bounds of a log one can wait for (the AOL log: 657,426 users, 36,389,567 rows). */
const MAX_USERS = 100_000_000;
const MAX_ROWS = 10_000_000_000;

/** The layout: --format, else from the file name (`.ndjson`, `.jsonl`), else AOL. */
function formatFor(flags: GenerateFlags): LogFormat {
  if (flags.format) return flags.format;
  return /\.(ndjson|jsonl)(\.gz)?$/.test(flags.out) ? "ndjson" : "aol";
}

export function register(program: Command): void {
  program
    .command("generate")
    .option(
      "--users <n>",
      "number of users (default: enough for --rows)",
      intArg(1, MAX_USERS, "150 times the AOL log's; more would take days to write"),
    )
    .option(
      "--rows <n>",
      "stop after this many rows",
      intArg(0, MAX_ROWS, "280 times the AOL log's; more would take days to write"),
    )
    .option("--seed <n>", "random seed: the same seed gives a byte-identical log", parseSeed, DEFAULT_SEED)
    .addOption(
      new Option("--format <format>", "output layout (default: aol, or ndjson by file name)").choices(
        LOG_FORMATS,
      ),
    )
    .requiredOption("-o, --out <file>", "output file (.gz to compress)")
    .option(
      "--pii-share <x>",
      "share of query events carrying a fake identifier (default: calibrated)",
      share,
    )
    .option("--truth", "add the true ODP category of each query (Category column; aol or ndjson)")
    .option("--start <date>", "first day of the period, YYYY-MM-DD", "2006-03-01")
    .option("--days <n>", "length of the period in days (the period must end by 9999-12-31)", intArg(1), 92)
    .option("--calibration <file>", "calibration JSON (default: the bundled AOL calibration)")
    .option("--json", "print the summary as JSON")
    .option("-q, --quiet", "no progress output")
    .addHelpText(
      "after",
      "\nExamples:\n  querymask generate --users 1000 --seed 7 -o synth.tsv\n" +
        "  querymask generate --rows 50000000 --seed 1 -o big.tsv.gz\n" +
        "  querymask generate --users 200 --truth --format ndjson -o labelled.ndjson",
    )
    .action(async (flags: GenerateFlags) => {
      if (flags.users === undefined && flags.rows === undefined)
        throw new UsageError("give --users, --rows or both");
      const format = formatFor(flags);
      const base: Omit<GenerateOptions, "seed" | "users"> = {
        start: flags.start ?? "2006-03-01",
        days: flags.days ?? 92,
        style: format === "excite" ? "excite" : "aol",
        withTruth: flags.truth ?? false,
      };
      if (flags.rows !== undefined) base.rows = flags.rows;
      if (flags.piiShare !== undefined) base.piiShare = flags.piiShare;
      if (flags.calibration !== undefined) base.calibration = loadCalibration(flags.calibration);
      const users = flags.users ?? usersForRows(flags.rows!, base);
      const opts: GenerateOptions = { ...base, seed: flags.seed, users };

      await checkOutputs([], fileOutputs(flags.out, undefined));
      const stats = newStats();
      const progress = consoleProgress({ quiet: flags.quiet ?? false });
      const writer = createLogWriter(flags.out, format, { classified: opts.withTruth ?? false });
      const started = performance.now();
      progress.start("generating rows", flags.rows);
      let pending = 0;
      try {
        for (const rec of generateRecords(opts, stats)) {
          const p = writer.write(rec);
          if (p) await p;
          if (++pending === 65536) {
            progress.tick(pending);
            pending = 0;
          }
        }
        progress.tick(pending);
        await writer.close();
      } catch (e) {
        await writer.abort();
        throw e;
      } finally {
        progress.stop();
      }
      const seconds = (performance.now() - started) / 1000;
      const summary = {
        out: flags.out,
        format,
        seed: flags.seed,
        users: stats.users,
        rows: stats.rows,
        queryEvents: stats.events,
        clickRows: stats.clicks,
        nextPageRequests: stats.nextPage,
        piiQueries: stats.pii,
        reformulations: stats.reformulations,
        repeats: stats.repeats,
        seconds: Number(seconds.toFixed(2)),
        rowsPerSecond: Math.round(stats.rows / seconds),
      };
      if (flags.json) {
        process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
        return;
      }
      printTable([
        ["output", `${summary.out} (${format})`],
        ["users", summary.users],
        ["rows", summary.rows],
        ["query events", summary.queryEvents],
        ["click rows", summary.clickRows],
        ["next-page requests", summary.nextPageRequests],
        ["pii queries", summary.piiQueries],
        ["reformulations", summary.reformulations],
        ["repeated queries", summary.repeats],
        ["time", `${summary.seconds}s (${summary.rowsPerSecond.toLocaleString("en")} rows/s)`],
      ]);
    });
}
