/**
 * Every CLI command, registered in this order in `querymask --help`. Adding a command = one file in this folder
 * exporting `register(program)`, plus one line here.
 */
import type { Command } from "commander";
import * as anonymize from "./anonymize.ts";
import * as demo from "./demo.ts";
import * as stats from "./stats.ts";

export type RegisterCommand = (program: Command) => void;

export const commands: RegisterCommand[] = [demo.register, stats.register, anonymize.register];
