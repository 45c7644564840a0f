/**
 * The partition-selection strategies of the dp method, by name (`--selection`). Adding one = one file exporting
 * a {@link Selection} plus one line here. `korolova` (the 2009 baseline, occurrence counts with noise reuse) is not
 * a set-selection strategy and lives in `../korolova.ts`.
 */
import { dpSipsSelection } from "./dp-sips.ts";
import { gaussianSelection } from "./gaussian.ts";
import { greedyPriorSelection, greedySelection } from "./greedy.ts";
import { laplaceSelection } from "./laplace.ts";
import { lengthWeightedSelection } from "./length-weighted.ts";
import { optimalSelection } from "./optimal.ts";
import { policyGaussianSelection } from "./policy-gaussian.ts";
import { policyLaplaceSelection } from "./policy-laplace.ts";
import type { Selection } from "./selection.ts";
import { targetedSelection } from "./targeted.ts";
import { weightedGaussianSelection } from "./weighted-gaussian.ts";

// biome-ignore lint/suspicious/noExplicitAny: each strategy has its own calibration type, used only by itself.
export const selections: readonly Selection<any>[] = [
  laplaceSelection,
  gaussianSelection,
  optimalSelection,
  policyLaplaceSelection,
  policyGaussianSelection,
  weightedGaussianSelection,
  lengthWeightedSelection,
  greedySelection,
  greedyPriorSelection,
  dpSipsSelection,
  targetedSelection,
];

export const SELECTION_NAMES = ["korolova", ...selections.map((s) => s.name)] as const;
