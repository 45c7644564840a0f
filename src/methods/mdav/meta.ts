/**
 * What the CLI, the registry and the report need of the "mdav" method without loading its implementation
 * (./index.ts): name, summary, paper, parameters.
 */
import type { MethodInfo } from "../method.ts";

export const mdavInfo: MethodInfo = {
  name: "mdav",
  summary: "Semantic microaggregation of users with ODP categories (MDAV, k-anonymous synthetic logs).",
  paper: "004",
  params: [
    { name: "k", type: "int", description: "users per cluster (k-anonymity), ≥ 2", default: 3 },
    { name: "variant", type: "string", description: "exact (O(n²)) or blocked (scalable)", default: "exact" },
    { name: "block", type: "int", description: "users per block in the blocked variant", default: 1000 },
    {
      name: "workers",
      type: "int",
      description: "worker threads for the blocked variant (0 = none)",
      default: 2,
    },
  ],
};
