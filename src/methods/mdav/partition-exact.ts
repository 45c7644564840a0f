/** Exact semantic MDAV (paper 004 §4.2): the all-pairs Ds matrix, then Algorithm 1 with the Eq. 5 medoid. */
import type { CategorySpace } from "../../semantic/category-space.ts";
import type { Profile } from "../../semantic/profile.ts";
import { semanticDistanceMatrix } from "../../semantic/semantic-distance.ts";
import { mdavPartition } from "./mdav-core.ts";

export function exactSemanticPartition(
  space: CategorySpace,
  profiles: readonly Profile[],
  k: number,
  onRow?: () => void,
): Int32Array[] {
  const data = semanticDistanceMatrix(space, profiles, onRow);
  return mdavPartition({ n: profiles.length, data }, k);
}
