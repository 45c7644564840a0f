/**
 * `querymask demo` (what `npm start` runs): the main job on the bundled Excite sample — classify → anonymize
 * with the default method → attack → measure → report.html — printing where the report is.
 */
import type { Command } from "commander";
import { DEFAULT_OUT, runMainJob } from "../../experiment/main-job.ts";
import { checkOutputs, DEFAULT_SEED, parseSeed } from "../shared.ts";

export function register(program: Command): void {
  program
    .command("demo")
    .option("-o, --out <dir>", "output directory", DEFAULT_OUT)
    .option("--seed <n>", "random seed", parseSeed, DEFAULT_SEED)
    .option("-q, --quiet", "no progress output")
    .addHelpText(
      "after",
      "\nExample:\n  querymask demo -o out/main-job   # then open out/main-job/report.html",
    )
    .action(async (flags: { out: string; seed: number; quiet?: boolean }) => {
      await checkOutputs([], [{ path: flags.out, role: "output directory", directory: true }]);
      await runMainJob({ out: flags.out, seed: flags.seed, quiet: flags.quiet ?? false });
    });
}
