/**
 * The "km" method's declaration ((k,m)-anonymity, paper 003): what the CLI, the registry and the report need of it
 * without loading its implementation (./index.ts), and its parameters' one schema.
 */
import { choice, defineParams, int, type MethodDeclaration, type ParamsOf, text } from "../method.ts";
import { BID_TARGETS, TARGETS } from "./targets.ts";

/** The largest m: the combinations to check grow as terms^m (the paper's adversaries know 1 to 4 terms). */
export const MAX_M = 8;

export const kmParams = defineParams(
  "km",
  {
    /** Every combination of up to m terms of a history must be held by at least k users. */
    k: int("each combination of ≤ m terms is held by ≥ k users (≥ 2)", { min: 2, default: 5 }),
    /** The adversary's knowledge: combinations of up to m terms. */
    m: int(`size of the combinations an adversary knows (1 to ${MAX_M}: they grow as terms^m)`, {
      min: 1,
      max: MAX_M,
      default: 2,
    }),
    /** Which term of a violating combination to suppress (Algorithm 2). */
    target: choice(TARGETS, `which term to suppress: ${TARGETS.join(" | ")}`, "users"),
    /** The term → bid TSV; required for the bid and revenue targets, optional otherwise (for measures). */
    bid: text("term<TAB>value bid table (TSV); required for --target bid and revenue"),
  },
  (p, fail) => {
    if (BID_TARGETS.includes(p.target) && p.bid === undefined) {
      fail("bid", `target ${p.target} needs a bid table (--bid FILE, term<TAB>value per line)`);
    }
    return p;
  },
);

export type KmParams = ParamsOf<typeof kmParams>;

export const kmDeclaration: MethodDeclaration<KmParams, "km"> = {
  name: "km",
  summary: "(k,m)-anonymity by term suppression: every ≤ m terms of a history are held by ≥ k users.",
  paper: "Burghardt et al. 2010",
  kind: "release",
  input: { text: "scrubbed", timeOrder: false, userGrouping: true, crossUser: true, sortable: false },
  disclosure: "exact",
  releases: "log",
  model: "km-anonymity",
  // Over shards of users: the coordinator runs the greedy on the summed histories (./sharded.ts).
  shards: true,
  params: kmParams,
};
