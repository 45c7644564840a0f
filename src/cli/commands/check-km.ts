/**
 * `querymask check-km --k K --m M <log…>`: verify that a log is (k,m)-anonymous (paper 003): every combination
 * of at most m terms out of a user's history is held by at least k users. It recounts from the log itself with
 * the audit's (k,m) check (src/audit/checks/km.ts), so it checks the output of any method, not only km's; it is
 * the privacy-model part of `querymask audit --method km`, which also checks identifiers, columns and counts.
 *
 * Exit codes: 0 the log is (k,m)-anonymous; 1 it is not (the violating combinations are printed); 2 bad input
 * or usage (unreadable log, k < 2, m < 1).
 */
import type { Command } from "commander";
import { checkKmAnonymity } from "../../audit/checks/km.ts";
import { loadLog } from "../../log/read.ts";
import { MAX_M } from "../../methods/km/meta.ts";
import { EXIT_FAILURE } from "../../util/errors.ts";
import { printable } from "../../util/terminal.ts";
import {
  addInputOptions,
  checkOutputs,
  fileOutputs,
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
    .requiredOption(
      "--m <n>",
      `largest combination size an adversary knows (1 to ${MAX_M})`,
      intArg(1, MAX_M, "the combinations to check grow as terms^m"),
    )
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
    await checkOutputs(inputs, fileOutputs(undefined, opts.rejectsPath));
    opts.progress.start("reading");
    const log = await loadLog(inputs, { ...opts, keepSource: false });
    reportRejects(log.rejected, opts.rejectsPath);
    opts.progress.start("checking (k,m)-anonymity");
    const result = checkKmAnonymity(log.records, flags.k, flags.m, flags.limit);
    opts.progress.stop();
    const ok = result.violations === 0;
    if (!ok) process.exitCode = EXIT_FAILURE;
    if (flags.json) {
      process.stdout.write(`${JSON.stringify({ ok, ...result }, null, 2)}\n`);
      return;
    }
    printTable([
      [`(${flags.k},${flags.m})-anonymous`, ok ? "yes" : "NO"],
      ["checked", result.checked],
      ["violating combinations", result.violations],
    ]);
    if (ok) return;
    process.stdout.write(
      `\nheld by fewer than ${flags.k} users (first ${result.examples.length} of ${result.violations}):\n`,
    );
    for (const v of result.examples) process.stdout.write(`  ${printable(v)}\n`);
  });
}
