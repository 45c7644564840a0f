/**
 * `querymask audit --method NAME [--<param> value…] --original <log> --released <file>`: verify a release
 * before it ships, on the two files alone, with checks that share no code with the methods (src/audit): the
 * method's privacy model (k-anonymity of user logs, (k,m)-anonymity, the click graph, ≥ k users per query, the
 * swap's invariants), no identifier in released texts or click URLs, no column the method does not release,
 * and — with `--summary` (the JSON of `anonymize --json`) — the row conservation of the summary and the guarantee
 * it claims (src/audit/checks/guarantee.ts).
 *
 * Exit codes: 0 every check passed (a table of what was checked); 1 a check failed (its violating records are
 * printed, the first --limit and their count); 2 bad input or usage.
 */
import { readFile } from "node:fs/promises";
import { gunzipSync } from "node:zlib";
import type { Command } from "commander";
import { type AuditReport, audit, originalAsAudited, type ReleasedTable } from "../../audit/audit.ts";
import { parseCountTable } from "../../log/count-table.ts";
import { type Guarantee, parseGuarantee } from "../../log/guarantee.ts";
import { loadLog } from "../../log/read.ts";
import type { QueryLog } from "../../log/record.ts";
import { RejectSink } from "../../log/rejects.ts";
import { StringTable } from "../../log/strings.ts";
import { declaredInput } from "../../methods/method.ts";
import { loadMethod, methods } from "../../methods/registry.ts";
import { prepareLog } from "../../pipeline/prepare.ts";
import { EXIT_FAILURE, InputError } from "../../util/errors.ts";
import { printable } from "../../util/terminal.ts";
import { addParamFlags, givenParams } from "../param-flags.ts";
import {
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

interface AuditFlags extends InputFlags {
  method: string;
  original: string;
  released: string;
  summary?: string;
  limit: number;
  allowList?: string;
  json?: boolean;
  [param: string]: unknown;
}

export function register(program: Command): void {
  const cmd = program
    .command("audit")
    .description("verify a release on the files alone: privacy model, identifiers, columns, summary counts")
    .requiredOption(
      "-m, --method <name>",
      `the method that made the release: ${methods.map((m) => m.name).join(", ")}`,
    )
    .requiredOption("--original <file>", "the log the method was given")
    .requiredOption("--released <file>", "the released log (or dp's count table)")
    .option("--summary <file>", "the method's summary (querymask anonymize --json > summary.json)")
    .option("--limit <n>", "violating records to print per check", intArg(0), 20)
    .option(
      "--allow-list <file>",
      "the allow list the release was made with (classify, scrub or anonymize --allow-list): its phrases are not " +
        "identifiers",
    )
    .option("--json", "print the audit as JSON");
  addParamFlags(cmd, methods, "method", "method");
  cmd.addHelpText(
    "after",
    [
      "",
      "Give the method the parameters the release was made with (defaults as in anonymize).",
      "Exit codes: 0 every check passed, 1 a check failed (violations printed), 2 bad input or usage.",
      "",
      "Example:",
      "  querymask anonymize --method km --k 5 --m 2 --json log.tsv -o km.tsv > km.json",
      "  querymask audit --method km --k 5 --m 2 --original log.tsv --released km.tsv --summary km.json",
    ].join("\n"),
  );
  addInputOptions(cmd).action(async (flags: AuditFlags) => {
    const method = await loadMethod(flags.method);
    const params = method.parse(givenParams(method, methods, flags, "method")) as Record<string, unknown>;
    const declared = declaredInput(method);
    const opts = readOptions(flags);
    await checkOutputs(
      [
        { path: flags.original, role: "original log" },
        { path: flags.released, role: "released log" },
        flags.summary === undefined ? undefined : { path: flags.summary, role: "summary" },
        flags.allowList === undefined ? undefined : { path: flags.allowList, role: "allow list" },
      ],
      fileOutputs(undefined, opts.rejectsPath),
    );
    const allow = await readAllowList(flags.allowList);
    // One reject file for both logs (each reject names its file): the release's must not replace the original's.
    const rejects = new RejectSink(opts.rejectsPath);
    opts.progress.start("reading the original log");
    // The release repeats the original's texts: one table keeps one string of each for both.
    const strings = new StringTable();
    const read = await loadLog([flags.original], { ...opts, keepSource: false, strings, rejects });
    opts.progress.stop();
    let released: QueryLog | undefined;
    let table: ReleasedTable | undefined;
    if (method.releases === "count-table") table = await readTable(flags.released);
    else {
      opts.progress.start("reading the release");
      released = await loadLog([flags.released], { ...opts, keepSource: false, strings, rejects });
      opts.progress.stop();
    }
    await rejects.close();
    reportRejects(rejects.count, opts.rejectsPath);
    const original = (
      await prepareLog(read, originalAsAudited(declared, read, released), {
        crossUser: declared.crossUser,
        allow,
      })
    ).log;
    const summary = flags.summary ? await readSummary(flags.summary) : undefined;
    const guarantee = summary && flags.summary ? claimOf(summary, flags.summary) : undefined;
    opts.progress.start("auditing");
    const report = audit(
      {
        method: method.name,
        declared,
        params,
        original,
        ...(original !== read ? { asRead: read } : {}),
        released,
        table,
        summary,
        ...(guarantee ? { guarantee } : {}),
        ...(allow !== undefined ? { allow } : {}),
      },
      flags.limit,
    );
    opts.progress.stop();
    if (!report.ok) process.exitCode = EXIT_FAILURE;
    if (flags.json) {
      process.stdout.write(`${JSON.stringify({ method: method.name, params, ...report }, null, 2)}\n`);
      return;
    }
    print(report);
  });
}

function print(report: AuditReport): void {
  printTable(
    report.results.map((r): [string, string] => [
      r.name,
      `${r.ok ? "ok  " : "FAIL"}  ${r.checked}${r.ok ? "" : `; ${r.violations.toLocaleString("en")} violations`}`,
    ]),
  );
  process.stdout.write(report.ok ? "\nrelease passes the audit\n" : "\nrelease FAILS the audit\n");
  for (const r of report.results) {
    if (r.ok) continue;
    process.stdout.write(
      `\n${r.name} — ${r.promise}\n(first ${r.examples.length} of ${r.violations.toLocaleString("en")})\n`,
    );
    for (const e of r.examples) process.stdout.write(`  ${printable(e)}\n`);
  }
}

/** A count table file (dp), plain or gzip. */
async function readTable(path: string): Promise<ReleasedTable> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (err) {
    throw new InputError(path, undefined, (err as Error).message);
  }
  return parseCountTable((path.endsWith(".gz") ? gunzipSync(bytes) : bytes).toString("utf8"), path);
}

/** The JSON summary of `anonymize --json`. */
async function readSummary(path: string): Promise<Record<string, unknown>> {
  try {
    const value: unknown = JSON.parse(await readFile(path, "utf8"));
    if (value === null || typeof value !== "object" || Array.isArray(value))
      throw new Error("not a JSON object");
    return value as Record<string, unknown>;
  } catch (err) {
    throw new InputError(path, undefined, `not a summary from anonymize --json: ${(err as Error).message}`);
  }
}

/** The guarantee a summary claims (absent from a summary written before guarantees were typed). */
function claimOf(summary: Record<string, unknown>, path: string): Guarantee | undefined {
  if (summary.guarantee === undefined) return undefined;
  try {
    return parseGuarantee(summary.guarantee);
  } catch (err) {
    throw new InputError(path, undefined, `not a summary from anonymize --json: ${(err as Error).message}`);
  }
}
