/**
 * The "graph" method's declaration (query-click graph disconnection, paper 001): what the CLI, the registry and
 * the report need of it without loading its implementation (./index.ts), and its parameters' one schema.
 */
import { bool, defineParams, int, type MethodDeclaration, num, type ParamsOf } from "../method.ts";
import type { Variant } from "./disconnect.ts";

export const graphParams = defineParams(
  "graph",
  {
    variant: int("paper's Method: 1 = degree, 2 = degree/frequency, 3 = degree/clicks", {
      min: 1,
      max: 3,
      default: 1,
    }),
    /** Stop when the density is at or below this. */
    density: num("stop at this graph density (0 = disconnect fully)", { min: 0, max: 1, default: 0 }),
    vulnerable: bool("remove vulnerable queries (the query names a site clicked for it)", false),
    /** Minimum distinct clicked URLs (proxy for results shown). */
    k: int("remove queries with fewer than k distinct clicked URLs (0 = off)", { min: 0, default: 0 }),
    /** Minimum distinct clicked sites; must not exceed k when both are set. */
    K: int("remove queries with clicks on fewer than K sites (0 = off; K ≤ k)", { min: 0, default: 0 }),
  },
  (p, fail) => {
    if (p.k > 0 && p.K > p.k)
      fail("K", `must not exceed k (the paper requires k ≥ K), got K=${p.K} > k=${p.k}`);
    return { ...p, variant: p.variant as Variant };
  },
);

export type GraphParams = ParamsOf<typeof graphParams>;

export const graphDeclaration: MethodDeclaration<GraphParams, "graph"> = {
  name: "graph",
  summary:
    "Query-click graph disconnection (Methods 1–3) with optional k-anonymity extension (k results, K sites).",
  paper: "Poblete et al. 2010",
  kind: "release",
  input: { text: "scrubbed", timeOrder: false, userGrouping: true, crossUser: true, firstSeen: true },
  shards: true,
  disclosure: "exact",
  releases: "log",
  model: "graph-disconnection",
  params: graphParams,
};
