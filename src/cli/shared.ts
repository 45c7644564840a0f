/**
 * Options and helpers every command shares, so flags mean the same thing everywhere:
 * `--format`, `--lenient`, `--rejects`, `-o/--out`, `--seed`, `--json`, `--quiet`.
 */
import { type Command, InvalidArgumentError, Option } from "commander";
import type { ReadOptions } from "../log/read.ts";
import { LOG_FORMATS, type LogFormat } from "../log/record.ts";
import { consoleProgress, type Progress } from "../util/progress.ts";

export interface InputFlags {
  format?: LogFormat | "auto";
  lenient?: boolean;
  rejects?: string;
  quiet?: boolean;
}

/** `--format`, `--lenient`, `--rejects`, `--quiet` for commands that read logs. */
export function addInputOptions(cmd: Command): Command {
  return cmd
    .addOption(
      new Option("--format <format>", "input log format (default: detected)").choices([
        "auto",
        ...LOG_FORMATS,
      ]),
    )
    .option("--lenient", "set bad lines aside in a reject file and go on, instead of stopping at the first")
    .option(
      "--rejects <file>",
      "where --lenient writes bad lines (default: <out>.rejects.tsv, or rejects.tsv)",
    )
    .option("-q, --quiet", "no progress output");
}

/** Read options from the flags; the reject file sits beside the output unless given. */
export function readOptions(flags: InputFlags, out?: string): ReadOptions & { progress: Progress } {
  const opts: ReadOptions & { progress: Progress } = {
    format: flags.format ?? "auto",
    lenient: flags.lenient ?? false,
    progress: consoleProgress({ quiet: flags.quiet ?? false }),
  };
  if (flags.lenient) opts.rejectsPath = flags.rejects ?? (out ? `${out}.rejects.tsv` : "rejects.tsv");
  return opts;
}

/** Parse `--seed`: any integer; the default is fixed so that runs are reproducible unless asked otherwise. */
export function parseSeed(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new InvalidArgumentError("the seed must be an integer");
  return n;
}

export const DEFAULT_SEED = 1;

/** Parse a whole number ≥ `min` for a flag. */
export function intArg(min: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) throw new InvalidArgumentError(`must be a whole number ≥ ${min}`);
    return n;
  };
}

/**
 * A number for a person: thousands separators, at most 3 decimals — but small non-zero values (a DP δ of
 * 0.00001) keep 3 significant digits instead of printing as 0.
 */
export function formatNumber(v: number): string {
  if (v !== 0 && Math.abs(v) < 0.001) return v.toPrecision(3).replace(/\.?0+(e|$)/, "$1");
  return v.toLocaleString("en");
}

/** Print a two-column table of label → value to stdout. */
export function printTable(rows: [string, string | number][]): void {
  const width = Math.max(...rows.map(([k]) => k.length));
  for (const [k, v] of rows) {
    const text = typeof v === "number" ? formatNumber(v) : v;
    process.stdout.write(`${k.padEnd(width)}  ${text}\n`);
  }
}

/** Print the lenient-mode summary line (always, so a user sees that nothing was dropped silently). */
export function reportRejects(count: number, path: string | undefined): void {
  if (count > 0)
    process.stderr.write(`${count.toLocaleString("en")} bad lines set aside in ${path ?? "(not kept)"}\n`);
}
