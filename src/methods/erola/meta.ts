/**
 * What the CLI, the registry and the report need of the "erola" method without loading its implementation
 * (./index.ts): name, summary, paper, parameters.
 */
import type { MethodInfo } from "../method.ts";

export const erolaInfo: MethodInfo = {
  name: "erola",
  summary:
    "Erola et al. 2010: users clustered by identical ODP categories of their words, random prototypes.",
  paper: "Erola et al. 2010 (baseline of 004)",
  params: [{ name: "k", type: "int", description: "users per cluster (k-anonymity), ≥ 2", default: 3 }],
};
