/**
 * The "identity" method's declaration: what the CLI, the registry and the report need of it without loading its
 * implementation (./index.ts). No parameters.
 */
import { defineParams, type MethodDeclaration, type ParamsOf } from "../method.ts";

export const identityParams = defineParams("identity", {});

export const identityDeclaration: MethodDeclaration<ParamsOf<typeof identityParams>, "identity"> = {
  name: "identity",
  summary: "Release the log unchanged (a yardstick sanity check, not an anonymization).",
  paper: "none (baseline)",
  kind: "release",
  // The queries as typed, by design: the yardsticks' worst case.
  input: { text: "raw", timeOrder: false, userGrouping: false, crossUser: true },
  disclosure: "exact",
  releases: "log",
  model: "none",
  params: identityParams,
  rows: true,
};
