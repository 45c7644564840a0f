/**
 * What the CLI, the registry and the report need of the "identity" method without loading its implementation
 * (./index.ts): name, summary, paper, parameters.
 */
import type { MethodInfo } from "../method.ts";

export const identityInfo: MethodInfo = {
  name: "identity",
  summary: "Release the log unchanged (a yardstick sanity check, not an anonymization).",
  paper: "none (baseline)",
  rows: true,
  params: [],
};
