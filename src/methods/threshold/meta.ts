/**
 * What the CLI, the registry and the report need of the "threshold" method without loading its implementation
 * (./index.ts): name, summary, paper, parameters.
 */
import type { MethodInfo } from "../method.ts";

export const thresholdInfo: MethodInfo = {
  name: "threshold",
  summary: "Release only the queries issued by at least k distinct users (frequency-threshold baseline).",
  paper: "none (baseline)",
  params: [
    { name: "k", type: "int", description: "minimum distinct users per released query (≥ 2)", default: 5 },
  ],
};
