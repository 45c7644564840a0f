/**
 * Options and helpers every command shares, so flags mean the same thing everywhere:
 * `--format`, `--lenient`, `--rejects`, `-o/--out`, `--seed`, `--json`, `--quiet`.
 */
import { type Command, InvalidArgumentError, Option } from "commander";
import { checkPaths, type InputPath, type OutputPath } from "../log/paths.ts";
import type { ReadOptions } from "../log/read.ts";
import { LOG_FORMATS, type LogFormat } from "../log/record.ts";
import { defaultRejectsPath } from "../log/rejects.ts";
import type { AllowList } from "../scrub/allow-list.ts";
import { consoleProgress, countText, type Progress } from "../util/progress.ts";
import { printable } from "../util/terminal.ts";

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
      "where --lenient writes bad lines — raw input rows: keep it private (default: <out>.rejects.PRIVATE.tsv)",
    )
    .option("-q, --quiet", "no progress output");
}

/** Read options from the flags; the reject file sits beside `out` (the output) unless given. */
export function readOptions(flags: InputFlags, out?: string): ReadOptions & { progress: Progress } {
  const opts: ReadOptions & { progress: Progress } = {
    format: flags.format ?? "auto",
    lenient: flags.lenient ?? false,
    progress: consoleProgress({ quiet: flags.quiet ?? false }),
  };
  if (flags.lenient) opts.rejectsPath = flags.rejects ?? defaultRejectsPath(out);
  return opts;
}

/**
 * Check, before any work, every path a command reads and writes (src/log/paths.ts): exit 2 with
 * `querymask: <path>: reason` for an output that is an input (also through a link), a directory, a device, in a
 * missing or read-only directory, or the same file as another output; for a named input that is missing or not a
 * regular file. Undefined entries (an output the run will not write) are skipped.
 */
export async function checkOutputs(
  inputs: readonly (InputPath | undefined)[],
  outputs: readonly (OutputPath | undefined)[],
): Promise<void> {
  await checkPaths(
    outputs.filter((o): o is OutputPath => o !== undefined),
    inputs.filter((i): i is InputPath => i !== undefined),
  );
}

/** The output and reject-file entries of a command that reads `inputs` and writes `out`. */
export function fileOutputs(
  out: string | undefined,
  rejectsPath: string | undefined,
): (OutputPath | undefined)[] {
  return [
    out === undefined ? undefined : { path: out, role: "output" },
    rejectsPath === undefined ? undefined : { path: rejectsPath, role: "reject file" },
  ];
}

/** Parse `--seed`: any integer; the default is fixed so that runs are reproducible unless asked otherwise. */
export function parseSeed(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new InvalidArgumentError("the seed must be an integer");
  return n;
}

export const DEFAULT_SEED = 1;

/** Parse a whole number ≥ `min` (and ≤ `max`, saying `why` that is the most) for a flag. */
export function intArg(min: number, max?: number, why?: string): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (max === undefined) {
      if (!Number.isInteger(n) || n < min) throw new InvalidArgumentError(`must be a whole number ≥ ${min}`);
    } else if (!Number.isInteger(n) || n < min || n > max) {
      throw new InvalidArgumentError(
        `must be a whole number from ${min} to ${formatNumber(max)}${why === undefined ? "" : ` (${why})`}`,
      );
    }
    return n;
  };
}

/** `--allow-list <file>`: the same help and the same reading wherever the scrubber runs. */
export const ALLOW_LIST_HELP =
  "phrases that are not identifiers, one per line (public figures, a published phone number): a span within " +
  "one of them is left in the query; a phrase followed by a tab and an ODP category (Sports, Arts/Music) is " +
  "classified there; # starts a comment line (docs/scrub.md)";

/**
 * The allow list `--allow-list` names (read once; a bad line is `file:line: reason`, exit 2). Its module is loaded
 * only when a list is given: every command's start-up imports this file.
 */
export async function readAllowList(path: string | undefined): Promise<AllowList | undefined> {
  if (path === undefined) return undefined;
  const { AllowList } = await import("../scrub/allow-list.ts");
  return AllowList.read(path);
}

/**
 * A number for a person: thousands separators, at most 3 decimals — but small non-zero values (a DP δ of
 * 0.00001) keep 3 significant digits instead of printing as 0.
 */
export function formatNumber(v: number): string {
  if (v !== 0 && Math.abs(v) < 0.001) return v.toPrecision(3).replace(/\.?0+(e|$)/, "$1");
  // What v.toLocaleString("en") prints (at most 3 decimals, rounded half away from zero on the shortest decimal
  // form of v), without loading Intl's locale data: ~30 ms on the first call, paid by every command that prints
  // a summary. Intl is still used for what this does not handle.
  const text = String(Math.abs(v));
  if (!Number.isFinite(v) || text.includes("e") || Object.is(v, -0)) return v.toLocaleString("en");
  const dot = text.indexOf(".");
  let digits = dot < 0 ? text : text.slice(0, dot);
  let frac = dot < 0 ? "" : text.slice(dot + 1);
  if (frac.length > 3) {
    const up = frac.charCodeAt(3) >= 53; // '5'
    let all = digits + frac.slice(0, 3);
    if (up) {
      let i = all.length - 1;
      while (i >= 0 && all[i] === "9") i--;
      all =
        i < 0
          ? `1${"0".repeat(all.length)}`
          : all.slice(0, i) + String(Number(all[i]) + 1) + "0".repeat(all.length - 1 - i);
    }
    digits = all.slice(0, all.length - 3);
    frac = all.slice(all.length - 3);
  }
  frac = frac.replace(/0+$/, "");
  for (let i = digits.length - 3; i > 0; i -= 3) digits = `${digits.slice(0, i)},${digits.slice(i)}`;
  return `${v < 0 ? "-" : ""}${digits}${frac === "" ? "" : `.${frac}`}`;
}

/**
 * Print a two-column table of label → value to stdout, control characters escaped (labels and values may be a
 * log's user ids and texts). Any number of rows: written in pieces, the width found without spreading the rows
 * into one call's arguments (200,000 users overflowed the stack).
 */
export function printTable(rows: readonly (readonly [string, string | number])[]): void {
  let width = 0;
  const keys = rows.map(([k]) => {
    const key = printable(k);
    if (key.length > width) width = key.length;
    return key;
  });
  let piece = "";
  for (let i = 0; i < rows.length; i++) {
    const v = rows[i]![1];
    piece += `${keys[i]!.padEnd(width)}  ${typeof v === "number" ? formatNumber(v) : printable(v)}\n`;
    if (piece.length > 1 << 16) {
      process.stdout.write(piece);
      piece = "";
    }
  }
  if (piece !== "") process.stdout.write(piece);
}

/** Print the lenient-mode summary line (always, so a user sees that nothing was dropped silently). */
export function reportRejects(count: number, path: string | undefined): void {
  if (count === 0) return;
  const where =
    path === undefined
      ? "(not kept)"
      : `${printable(path)} — it holds raw input rows: keep it private, never ship it with the release`;
  process.stderr.write(`${countText(count)} bad lines set aside in ${where}\n`);
}
