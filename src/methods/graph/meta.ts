/**
 * What the CLI, the registry and the report need of the "graph" method without loading its implementation
 * (./index.ts): name, summary, paper, parameters.
 */
import type { MethodInfo } from "../method.ts";

export const graphInfo: MethodInfo = {
  name: "graph",
  summary:
    "Query-click graph disconnection (Methods 1–3) with optional k-anonymity extension (k results, K sites).",
  paper: "001",
  params: [
    {
      name: "variant",
      type: "int",
      description: "paper's Method: 1 = degree, 2 = degree/frequency, 3 = degree/clicks",
      default: 1,
    },
    {
      name: "density",
      type: "number",
      description: "stop at this graph density (0 = disconnect fully)",
      default: 0,
    },
    {
      name: "vulnerable",
      type: "boolean",
      description: "remove vulnerable queries (the query names a site clicked for it)",
      default: false,
    },
    {
      name: "k",
      type: "int",
      description: "remove queries with fewer than k distinct clicked URLs (0 = off)",
      default: 0,
    },
    {
      name: "K",
      type: "int",
      description: "remove queries with clicks on fewer than K sites (0 = off; K ≤ k)",
      default: 0,
    },
  ],
};
