/**
 * `querymask check-km --k K --m M <log…>`: verify that a log is (k,m)-anonymous (paper 003): every combination
 * of at most m terms out of a user's history is held by at least k users. It recounts from the log itself, so
 * it checks the output of any method, not only km's.
 *
 * Exit codes: 0 the log is (k,m)-anonymous; 1 it is not (the violating combinations are printed); 2 bad input
 * or usage (unreadable log, k < 2, m < 1).
 */
import type { Command } from "commander";
import { loadLog } from "../../log/read.ts";
import { checkKm } from "../../methods/km/check.ts";
import { EXIT_FAILURE } from "../../util/errors.ts";
import {
  addInputOptions,
  type InputFlags,
  intArg,
  printTable,
  readOptions,
  reportRejects,
} from "../shared.ts";

interface CheckKmFlags extends InputFlags {
  k: number;
  m: number;
  limit: number;
  json?: boolean;
}

export function register(program: Command): void {
  const cmd = program
    .command("check-km")
    .argument("<log...>", "log files or glob patterns (AOL TSV, Excite, NDJSON; plain or .gz)")
    .requiredOption("--k <n>", "minimum number of users holding each combination (≥ 2)", intArg(2))
    .requiredOption("--m <n>", "largest combination size an adversary knows (≥ 1)", intArg(1))
    .option("--limit <n>", "violations to print at most", intArg(0), 20)
    .option("--json", "print JSON instead of text")
    .addHelpText(
      "after",
      [
        "",
        "Terms are the whitespace-separated tokens of the query text; a user's history is the set of its terms.",
        "Exit codes: 0 (k,m)-anonymous, 1 not (violations printed), 2 bad input or usage.",
        "",
        "Example:",
        "  querymask anonymize --method km --k 5 --m 2 log.tsv -o out.tsv",
        "  querymask check-km --k 5 --m 2 out.tsv",
      ].join("\n"),
    );
  addInputOptions(cmd).action(async (inputs: string[], flags: CheckKmFlags) => {
    const opts = readOptions(flags);
    const log = await loadLog(inputs, { ...opts, keepSource: false });
    reportRejects(log.rejected, opts.rejectsPath);
    opts.progress.start("checking (k,m)-anonymity");
    const result = checkKm(log.records, flags.k, flags.m, flags.limit);
    opts.progress.stop();
    if (!result.ok) process.exitCode = EXIT_FAILURE;
    if (flags.json) {
      process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      return;
    }
    printTable([
      [`(${flags.k},${flags.m})-anonymous`, result.ok ? "yes" : "NO"],
      ["users with terms", result.users],
      ["distinct terms", result.terms],
      ["violating combinations", result.violationCount],
    ]);
    if (result.ok) return;
    const shown = result.violations.length;
    process.stdout.write(
      `\nheld by fewer than ${flags.k} users (first ${shown} of ${result.violationCount}):\n`,
    );
    for (const v of result.violations) {
      const users = v.users.slice(0, 5).join(", ") + (v.users.length > 5 ? ", …" : "");
      process.stdout.write(`  {${v.terms.join(", ")}}  support ${v.support}  users ${users}\n`);
    }
  });
}
