/**
 * The "clientside" method's declaration (paper 002's client-side protection): what the CLI, the registry and the
 * report need of it without loading its implementation (./index.ts), and its parameters' one schema.
 */
import { GRAPH_MODELS } from "../../clientside/graph.ts";
import { choice, defineParams, int, type MethodDeclaration, num, type ParamsOf, text } from "../method.ts";

const share = { min: 0, max: 1 } as const;

export const clientsideParams = defineParams(
  "clientside",
  {
    /** Generated network model (ignored when `edges` is given). */
    graph: choice(
      GRAPH_MODELS as readonly ["small-world", "scale-free"],
      "generated network: small-world or scale-free",
      "small-world",
    ),
    edges: text("edge-list file (two node names per line) instead of a generated network"),
    // Bounds a generated network can be built in memory with (each node's friends are an array).
    degree: int("mean number of neighbours of a generated network", { min: 1, max: 10_000, default: 6 }),
    rewire: num("small-world rewiring probability", { ...share, default: 0.2 }),
    /** Nodes of a generated network (0 = one per log user). */
    nodes: int("nodes of a generated network (0 = one per user)", { min: 0, max: 10_000_000, default: 0 }),
    maxHops: int("most hops a query travels (1 = as published, 0 = no forwarding)", {
      min: 0,
      max: 1000,
      default: 1,
    }),
    selfish: num("share of nodes that submit their own queries directly", { ...share, default: 0 }),
    colluding: num("share of nodes that report query authors to the engine", { ...share, default: 0 }),
    hopMs: num("one-way delay of one hop, ms (cost model)", { min: 0, default: 100 }),
    depth: int("category depth of the profiles PEL compares", { min: 1, max: 20, default: 1 }),
    worstCase: int("also run the synthetic worst case: copies of one unique query per user (0 = skip)", {
      min: 0,
      max: 1_000_000,
      default: 0,
    }),
  },
  (p, fail) => {
    if (p.selfish + p.colluding > 1) fail("colluding", "selfish + colluding must be at most 1");
    return p;
  },
);

export type ClientsideParams = ParamsOf<typeof clientsideParams>;

export const clientsideDeclaration: MethodDeclaration<ClientsideParams, "clientside"> = {
  name: "clientside",
  summary:
    "Client-side protection: users forward queries through a social network; releases the engine's view (PEL in counts).",
  paper: "Erola et al. 2011",
  // What the engine would see if its users ran the forwarding protocol: not a release of a log one holds.
  kind: "simulation",
  // The engine sees what users type: the queries as typed.
  input: { text: "raw", timeOrder: false, userGrouping: false, crossUser: true },
  disclosure: "exact",
  releases: "log",
  model: "none",
  params: clientsideParams,
};
