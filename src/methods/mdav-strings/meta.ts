/**
 * The "mdav-strings" method's declaration (paper 004's non-semantic baseline): what the CLI, the registry and the
 * report need of it without loading its implementation (./index.ts), and its parameters' one schema.
 */
import { clusterK, microaggregation } from "../mdav/meta.ts";
import { defineParams, type MethodDeclaration, type ParamsOf } from "../method.ts";

export const mdavStringsParams = defineParams("mdav-strings", { k: clusterK() });

export type StringsParams = ParamsOf<typeof mdavStringsParams>;

export const mdavStringsDeclaration: MethodDeclaration<StringsParams, "mdav-strings"> = {
  name: "mdav-strings",
  summary: "Non-semantic user microaggregation: queries compared as strings, representative by distribution.",
  paper: "Batet et al. 2013 (§5.2, non-semantic baseline)",
  ...microaggregation,
  params: mdavStringsParams,
};
