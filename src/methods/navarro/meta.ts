/**
 * The "navarro" method's declaration (Navarro-Arribas et al. 2012, a baseline of paper 004): what the CLI, the
 * registry and the report need of it without loading its implementation (./index.ts), and its parameters' one
 * schema.
 */
import { clusterK, microaggregation } from "../mdav/meta.ts";
import { defineParams, int, type MethodDeclaration, type ParamsOf } from "../method.ts";

export const navarroParams = defineParams("navarro", {
  k: clusterK(),
  sample: int("most frequent distinct queries per user in the distance", { min: 1, default: 10 }),
});

export type NavarroParams = ParamsOf<typeof navarroParams>;

export const navarroDeclaration: MethodDeclaration<NavarroParams, "navarro"> = {
  name: "navarro",
  summary: "Navarro-Arribas et al. 2012: users clustered by syntactic query distances, frequency prototypes.",
  paper: "Navarro-Arribas et al. 2012 (a baseline of Batet et al. 2013)",
  ...microaggregation,
  params: navarroParams,
};
