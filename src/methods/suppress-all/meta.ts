/**
 * What the CLI, the registry and the report need of the "drop-all" method without loading its implementation
 * (./index.ts): name, summary, paper, parameters.
 */
import type { MethodInfo } from "../method.ts";

export const dropAllInfo: MethodInfo = {
  name: "drop-all",
  summary: "Release an empty log (a yardstick sanity check, not an anonymization).",
  paper: "none (baseline)",
  params: [],
};
