#!/usr/bin/env node
/**
 * The `querymask` command line. Each command lives in its own file under ./commands and only parses flags,
 * calls the library, and prints; the work is done in src/<concern>.
 *
 * Exit codes: 0 ok, 1 runtime failure, 2 bad input or usage.
 */
import { Command, CommanderError } from "commander";
import { EXIT_BAD_INPUT, EXIT_FAILURE, InputError, UsageError } from "../util/errors.ts";
import { ParamError } from "../util/params.ts";
import { commands } from "./commands/index.ts";

export function buildProgram(): Command {
  const program = new Command("querymask")
    .description("Anonymize search query logs, attack the result, and measure the utility that is left.")
    .version("0.1.0")
    .showHelpAfterError()
    // Throw instead of exiting, here and (inherited) in every subcommand, so main() maps the exit code.
    .exitOverride()
    .addHelpText(
      "after",
      "\nExit codes: 0 ok, 1 runtime failure, 2 bad input or usage.\nRun `querymask <command> --help` for each command.",
    );
  for (const register of commands) register(program);
  return program;
}

export async function main(argv: string[]): Promise<number> {
  // A reader that stops early (`querymask stats log | head`) is not an error.
  process.stdout.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code === "EPIPE") process.exit(0);
    throw e;
  });
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return process.exitCode === undefined ? 0 : Number(process.exitCode);
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version end here with code 0; commander already printed usage errors.
      return err.exitCode === 0 ? 0 : EXIT_BAD_INPUT;
    }
    if (err instanceof InputError || err instanceof UsageError || err instanceof ParamError) {
      process.stderr.write(`querymask: ${err.message}\n`);
      return EXIT_BAD_INPUT;
    }
    if (err instanceof Error && typeof (err as NodeJS.ErrnoException).syscall === "string") {
      // A system error (disk full, a directory removed mid-run…): the message names the path; no stack trace.
      process.stderr.write(`querymask: ${err.message}\n`);
      return EXIT_FAILURE;
    }
    process.stderr.write(`querymask: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    return EXIT_FAILURE;
  }
}

const invokedDirectly =
  process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/^.*\//, "/"));
if (invokedDirectly) {
  main(process.argv).then((code) => {
    process.exitCode = code;
  });
}
