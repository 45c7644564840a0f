/**
 * What the CLI, the registry and the report need of the "mdav-strings" method without loading its implementation
 * (./index.ts): name, summary, paper, parameters.
 */
import type { MethodInfo } from "../method.ts";

export const mdavStringsInfo: MethodInfo = {
  name: "mdav-strings",
  summary: "Non-semantic user microaggregation: queries compared as strings, representative by distribution.",
  paper: "004 (§5.2 non-semantic baseline)",
  params: [{ name: "k", type: "int", description: "users per cluster (k-anonymity), ≥ 2", default: 3 }],
};
