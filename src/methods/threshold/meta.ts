/**
 * The "threshold" method's declaration (the frequency-threshold baseline): what the CLI, the registry and the
 * report need of it without loading its implementation (./index.ts), and its parameters' one schema.
 */
import { defineParams, int, type MethodDeclaration, type ParamsOf } from "../method.ts";

export const thresholdParams = defineParams("threshold", {
  /** Minimum number of distinct users who issued a query for it to be released. */
  k: int("minimum distinct users per released query (≥ 2)", { min: 2, default: 5 }),
});

export type ThresholdParams = ParamsOf<typeof thresholdParams>;

export const thresholdDeclaration: MethodDeclaration<ThresholdParams, "threshold"> = {
  name: "threshold",
  summary: "Release only the queries issued by at least k distinct users (frequency-threshold baseline).",
  paper: "none (baseline)",
  kind: "release",
  input: { text: "scrubbed", timeOrder: false, userGrouping: true, crossUser: true },
  shards: true,
  disclosure: "exact",
  releases: "log",
  model: "k-users-per-query",
  params: thresholdParams,
};
