/**
 * Information loss L (paper 004, Eqs. 8–9) as a yardstick; the measure itself is src/metrics/information-loss.ts,
 * with the same label-based ODP concept mapper the mdav method uses by default. n/a for a count table.
 */

import type { ConceptMapper } from "../semantic/concept-mapper.ts";
import { labelConceptMapper } from "../semantic/label-mapper.ts";
import { informationLoss } from "./information-loss.ts";
import type { Yardstick } from "./yardstick.ts";

let mapper: ConceptMapper | undefined;

export const loss: Yardstick = {
  name: "loss",
  kind: "utility",
  title: "Information loss L (Batet et al. 2013, Eqs. 8–9)",
  source: "Batet et al. 2013, §5.1",
  guidance:
    "Users are clustered by the topics of their queries, once on the original and once on the release; L is how " +
    "different the two clusterings are, in %. 0% = a data miner grouping users would reach the same conclusions " +
    "as on the original; 100% = completely different ones. Lower is better.",
  columns: () => [{ key: "L", label: "information loss L (%)", unit: "%", better: "lower" }],
  measure({ original, release }, ctx) {
    if (!release.log) return { L: null };
    mapper ??= labelConceptMapper(ctx.taxonomy());
    return { L: informationLoss(original, release.log, { mapper }).loss };
  },
};
