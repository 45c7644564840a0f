/**
 * What the CLI, the registry and the report need of the "km" method without loading its implementation
 * (./index.ts): name, summary, paper, parameters. The parser is ./params.ts.
 */
import type { MethodInfo } from "../method.ts";
import { TARGETS } from "./targets.ts";

export const kmInfo: MethodInfo = {
  name: "km",
  summary: "(k,m)-anonymity by term suppression: every ≤ m terms of a history are held by ≥ k users.",
  paper: "003",
  params: [
    {
      name: "k",
      type: "int",
      description: "each combination of ≤ m terms is held by ≥ k users (≥ 2)",
      default: 5,
    },
    { name: "m", type: "int", description: "size of the combinations an adversary knows (≥ 1)", default: 2 },
    {
      name: "target",
      type: "string",
      description: `which term to suppress: ${TARGETS.join(" | ")}`,
      default: "users",
    },
    {
      name: "bid",
      type: "string",
      description: "term<TAB>value bid table (TSV); required for --target bid and revenue",
    },
  ],
};
