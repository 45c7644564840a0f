/**
 * The "erola" method's declaration (Erola et al. 2010, a baseline of paper 004): what the CLI, the registry and
 * the report need of it without loading its implementation (./index.ts), and its parameters' one schema.
 */
import { clusterK, microaggregation } from "../mdav/meta.ts";
import { defineParams, type MethodDeclaration, type ParamsOf } from "../method.ts";

export const erolaParams = defineParams("erola", { k: clusterK() });

export type ErolaParams = ParamsOf<typeof erolaParams>;

export const erolaDeclaration: MethodDeclaration<ErolaParams, "erola"> = {
  name: "erola",
  summary:
    "Erola et al. 2010: users clustered by identical ODP categories of their words, random prototypes.",
  paper: "Erola et al. 2010 (a baseline of Batet et al. 2013)",
  ...microaggregation,
  params: erolaParams,
};
