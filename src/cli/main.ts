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
import { guardStream, printable } from "../util/terminal.ts";
import { commands } from "./commands/index.ts";
import { missingPackageMessage } from "./missing-package.ts";

/**
 * Columns the top-level help is laid out for, whatever the terminal: so it is the same text everywhere, and
 * bin/querymask.js prints it pre-rendered by the build (dist/cli/help.txt, {@link topHelp}) without loading the
 * CLI (~35 CPU-ms of commander and the command table). A command's own help still follows the terminal.
 */
export const TOP_HELP_COLUMNS = 80;

/**
 * The program with every command listed, and `only` (a command's name) loaded whole: its flags and action. The
 * other commands are listed by name, arguments and description only, without loading their modules.
 */
export async function buildProgram(only?: string): Promise<Command> {
  const program = new Command("querymask")
    .description("Anonymize search query logs, attack the result, and measure the utility that is left.")
    .version("0.1.0")
    .showHelpAfterError("(run `querymask <command> --help` for usage)")
    // Throw instead of exiting, here and (inherited) in every subcommand, so main() maps the exit code.
    .exitOverride()
    .addHelpText(
      "after",
      "\nExit codes: 0 ok, 1 runtime failure, 2 bad input or usage.\nRun `querymask <command> --help` for each command.",
    );
  for (const entry of commands) {
    if (entry.name === only) {
      (await entry.load()).register(program);
      program.commands.find((c) => c.name() === entry.name)?.description(entry.description);
    } else {
      const stub = program.command(entry.name).description(entry.description);
      if (entry.args !== undefined) stub.argument(entry.args);
    }
  }
  // After the commands: they copied the output settings when they were made, and keep the terminal's width.
  program.configureOutput({
    getOutHelpWidth: () => TOP_HELP_COLUMNS,
    getErrHelpWidth: () => TOP_HELP_COLUMNS,
  });
  return program;
}

/** The text `querymask --help` prints (what the build writes to dist/cli/help.txt). */
export async function topHelp(): Promise<string> {
  const program = await buildProgram();
  let text = "";
  program.configureOutput({ writeOut: (s) => (text += s), getOutHasColors: () => false });
  program.outputHelp();
  return text;
}

/** The command `argv` asks for (`querymask help <command>` asks for its help), if any. */
export function requestedCommand(argv: readonly string[]): string | undefined {
  const words = argv.slice(2).filter((a) => !a.startsWith("-"));
  return words[0] === "help" ? words[1] : words[0];
}

export async function main(argv: string[]): Promise<number> {
  // A reader that stops early (`querymask stats log | head`) is not an error.
  process.stdout.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code === "EPIPE") process.exit(0);
    throw e;
  });
  try {
    const program = await buildProgram(requestedCommand(argv));
    await program.parseAsync(argv);
    return process.exitCode === undefined ? 0 : Number(process.exitCode);
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version end here with code 0; commander already printed usage errors.
      return err.exitCode === 0 ? 0 : EXIT_BAD_INPUT;
    }
    if (err instanceof InputError || err instanceof UsageError || err instanceof ParamError) {
      process.stderr.write(`querymask: ${printable(err.message)}\n`);
      return EXIT_BAD_INPUT;
    }
    const missing = missingPackageMessage(err);
    if (missing !== undefined) {
      process.stderr.write(`querymask: ${missing}\n`);
      return EXIT_BAD_INPUT;
    }
    if (err instanceof Error && typeof (err as NodeJS.ErrnoException).syscall === "string") {
      // A system error (disk full, a directory removed mid-run…): the message names the path; no stack trace.
      process.stderr.write(`querymask: ${printable(err.message)}\n`);
      return EXIT_FAILURE;
    }
    process.stderr.write(`querymask: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    return EXIT_FAILURE;
  }
}

/**
 * The `querymask` command: {@link main} with stdout and stderr guarded, so that no control character of the data
 * (a user id, a query, a file name) reaches the terminal raw from any line a command prints. (Tests that run
 * `main` in their own process keep their streams as they are: the test runner's protocol is binary.)
 */
export function cli(argv: string[]): Promise<number> {
  guardStream(process.stdout);
  guardStream(process.stderr);
  return main(argv);
}

const invokedDirectly =
  process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/^.*\//, "/"));
if (invokedDirectly) {
  cli(process.argv).then((code) => {
    process.exitCode = code;
  });
}
