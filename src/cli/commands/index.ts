/**
 * Every CLI command, registered in this order in `querymask --help`. Adding a command = one file in this folder
 * exporting `register(program)`, plus one line here.
 */
import type { Command } from "commander";
import * as anonymize from "./anonymize.ts";
import * as attack from "./attack.ts";
import * as audit from "./audit.ts";
import * as checkKm from "./check-km.ts";
import * as classify from "./classify.ts";
import * as demo from "./demo.ts";
import * as experiment from "./experiment.ts";
import * as generate from "./generate.ts";
import * as kb from "./kb.ts";
import * as profile from "./profile.ts";
import * as scrub from "./scrub.ts";
import * as simulateClientside from "./simulate-clientside.ts";
import * as stats from "./stats.ts";

export type RegisterCommand = (program: Command) => void;

export const commands: RegisterCommand[] = [
  demo.register,
  stats.register,
  anonymize.register,
  generate.register,
  profile.register,
  attack.register,
  audit.register,
  checkKm.register,
  experiment.register,
  simulateClientside.register,
  scrub.register,
  kb.register,
  classify.register,
];
