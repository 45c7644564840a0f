/**
 * The "swap" method's declaration (paper 000, Algorithm 2): what the CLI, the registry and the report need of it
 * without loading its implementation (./index.ts), and its parameters' one schema.
 */
import { bool, choice, defineParams, int, type MethodDeclaration, num, type ParamsOf } from "../method.ts";

export const swapParams = defineParams("swap", {
  k: int("bucket size that triggers a release (≥ 2)", { min: 2, default: 3 }),
  delta: num("growth factor of a bucket's k when it holds a single user (> 1)", { gt: 1, default: 1.2 }),
  depth: int("ODP depth of the buckets (1 = top level; deeper falls back to ancestors)", {
    min: 1,
    max: 32,
    default: 1,
  }),
  /** What happens at end of stream to the entries still held in buckets (see docs/methods/swap.md). */
  end: choice(
    ["release", "suppress"],
    "end of stream: release (pair what is left, suppress the rest) | suppress",
    "release",
  ),
  /**
   * Which time a released record carries. "release": the stream time at which it was released (the time of the
   * event that filled the bucket), which says nothing about when the author searched. "original": the query's
   * own time, as in the paper's text files; it lets time re-link a query to its author and exists only to
   * reproduce the paper's matcher figures.
   */
  time: choice(
    ["release", "original"],
    "time of a released record: release (stream time of release) | original (re-links!)",
    "release",
  ),
  maxDelay: num("max seconds (stream time) an event waits in a bucket; 0 = unbounded", {
    min: 0,
    default: 0,
  }),
  ownAuthor: bool("paper's A(NR) ablation: allow a query under its own author (unsafe)", false),
});

export type SwapParams = ParamsOf<typeof swapParams>;

export const swapDeclaration: MethodDeclaration<SwapParams, "swap"> = {
  name: "swap",
  summary:
    "Swap queries between users within a category bucket of k events (never a query under its author).",
  paper: "Pàmies-Estrems et al. 2016",
  kind: "release",
  input: { text: "classified", timeOrder: true, userGrouping: false, crossUser: true },
  disclosure: "exact",
  releases: "log",
  model: "k-bucket",
  params: swapParams,
  rows: true,
};
