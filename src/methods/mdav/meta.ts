/**
 * The "mdav" method's declaration (semantic microaggregation, paper 004): what the CLI, the registry and the
 * report need of it without loading its implementation (./index.ts), and its parameters' one schema.
 */
import { choice, defineParams, int, type MethodDeclaration, type ParamsOf } from "../method.ts";

/** The k of the user-microaggregation methods (mdav, mdav-strings, erola, navarro). */
export const clusterK = () => int("users per cluster (k-anonymity), ≥ 2", { min: 2, default: 3 });

/** What the user-microaggregation methods declare of their input and model. */
export const microaggregation = {
  kind: "release",
  input: { text: "scrubbed", timeOrder: false, userGrouping: true, crossUser: true, sortable: false },
  disclosure: "exact",
  releases: "log",
  model: "k-anonymity",
} as const;

/** Users per block in the blocked variant, unless k asks for more (a block holds at least 2k users). */
const DEFAULT_BLOCK = 1000;

export const mdavParams = defineParams(
  "mdav",
  {
    k: clusterK(),
    variant: choice(["exact", "blocked"], "exact (O(n²)) or blocked (scalable)", "exact"),
    block: int("users per block in the blocked variant (≥ 2k; default 1000, or 2k when larger)", { min: 4 }),
    /** Worker threads for the blocked variant (0 = none). */
    workers: int("worker threads for the blocked variant (0 = none)", { min: 0, max: 64, default: 2 }),
  },
  (p, fail) => {
    // The default follows k, so a large k alone is not refused for a block size the user never gave.
    if (p.block !== undefined && p.block < 2 * p.k)
      fail("block", `must be an integer ≥ ${2 * p.k} (2k), got ${p.block}`);
    return { ...p, block: p.block ?? Math.max(DEFAULT_BLOCK, 2 * p.k) };
  },
);

export type MdavParams = ParamsOf<typeof mdavParams>;

export const mdavDeclaration: MethodDeclaration<MdavParams, "mdav"> = {
  name: "mdav",
  summary: "Semantic microaggregation of users with ODP categories (MDAV, k-anonymous synthetic logs).",
  paper: "Batet et al. 2013",
  ...microaggregation,
  params: mdavParams,
};
