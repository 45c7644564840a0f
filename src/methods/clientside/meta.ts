/**
 * What the CLI, the registry and the report need of the "clientside" method without loading its implementation
 * (./index.ts): name, summary, paper, parameters.
 */
import type { MethodInfo } from "../method.ts";

export const clientsideInfo: MethodInfo = {
  name: "clientside",
  summary:
    "Client-side protection: users forward queries through a social network; releases the engine's view (PEL in counts).",
  paper: "002 (Erola et al. 2011)",
  params: [
    {
      name: "graph",
      type: "string",
      description: "generated network: small-world or scale-free",
      default: "small-world",
    },
    {
      name: "edges",
      type: "string",
      description: "edge-list file (two node names per line) instead of a generated network",
    },
    {
      name: "degree",
      type: "int",
      description: "mean number of neighbours of a generated network",
      default: 6,
    },
    { name: "rewire", type: "number", description: "small-world rewiring probability", default: 0.2 },
    {
      name: "nodes",
      type: "int",
      description: "nodes of a generated network (0 = one per user)",
      default: 0,
    },
    {
      name: "maxHops",
      type: "int",
      description: "most hops a query travels (1 = as published, 0 = no forwarding)",
      default: 1,
    },
    {
      name: "selfish",
      type: "number",
      description: "share of nodes that submit their own queries directly",
      default: 0,
    },
    {
      name: "colluding",
      type: "number",
      description: "share of nodes that report query authors to the engine",
      default: 0,
    },
    { name: "hopMs", type: "number", description: "one-way delay of one hop, ms (cost model)", default: 100 },
    { name: "depth", type: "int", description: "category depth of the profiles PEL compares", default: 1 },
    {
      name: "worstCase",
      type: "int",
      description: "also run the synthetic worst case: copies of one unique query per user (0 = skip)",
      default: 0,
    },
  ],
};
