/**
 * The "drop-all" method's declaration: what the CLI, the registry and the report need of it without loading its
 * implementation (./index.ts). No parameters.
 */
import { defineParams, type MethodDeclaration, type ParamsOf } from "../method.ts";

export const dropAllParams = defineParams("drop-all", {});

export const dropAllDeclaration: MethodDeclaration<ParamsOf<typeof dropAllParams>, "drop-all"> = {
  name: "drop-all",
  summary: "Release an empty log (a yardstick sanity check, not an anonymization).",
  paper: "none (baseline)",
  kind: "release",
  // It releases nothing, so its input needs no preparation.
  input: { text: "raw", timeOrder: false, userGrouping: false, crossUser: true },
  disclosure: "exact",
  releases: "log",
  model: "none",
  params: dropAllParams,
};
