/**
 * What the CLI, the registry and the report need of the "navarro" method without loading its implementation
 * (./index.ts): name, summary, paper, parameters.
 */
import type { MethodInfo } from "../method.ts";

export const navarroInfo: MethodInfo = {
  name: "navarro",
  summary: "Navarro-Arribas et al. 2012: users clustered by syntactic query distances, frequency prototypes.",
  paper: "Navarro-Arribas et al. 2012 (baseline of 004)",
  params: [
    { name: "k", type: "int", description: "users per cluster (k-anonymity), ≥ 2", default: 3 },
    {
      name: "sample",
      type: "int",
      description: "most frequent distinct queries per user in the distance",
      default: 10,
    },
  ],
};
