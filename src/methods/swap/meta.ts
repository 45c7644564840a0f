/**
 * What the CLI, the registry and the report need of the "swap" method without loading its implementation
 * (./index.ts): name, summary, paper, parameters. The parser is ./params.ts.
 */
import type { MethodInfo } from "../method.ts";

export const swapInfo: MethodInfo = {
  name: "swap",
  summary:
    "Swap queries between users within a category bucket of k events (never a query under its author).",
  paper: "000",
  rows: true,
  params: [
    { name: "k", type: "int", description: "bucket size that triggers a release (≥ 2)", default: 3 },
    {
      name: "delta",
      type: "number",
      description: "growth factor of a bucket's k when it holds a single user (> 1)",
      default: 1.2,
    },
    {
      name: "depth",
      type: "int",
      description: "ODP depth of the buckets (1 = top level; deeper falls back to ancestors)",
      default: 1,
    },
    {
      name: "end",
      type: "string",
      description: "end of stream: release (pair what is left, suppress the rest) | suppress",
      default: "release",
    },
    {
      name: "time",
      type: "string",
      description: "time of a released record: release (stream time of release) | original (re-links!)",
      default: "release",
    },
    {
      name: "maxDelay",
      type: "number",
      description: "max seconds (stream time) an event waits in a bucket; 0 = unbounded",
      default: 0,
    },
    {
      name: "ownAuthor",
      type: "boolean",
      description: "paper's A(NR) ablation: allow a query under its own author (unsafe)",
      default: false,
    },
  ],
};
