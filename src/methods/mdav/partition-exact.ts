/** Exact semantic MDAV (paper 004 §4.2): the all-pairs Ds matrix, then Algorithm 1 with the Eq. 5 medoid. */
import type { CategorySpace } from "./category-space.ts";
import { mdavPartition } from "./mdav-core.ts";
import type { Profile } from "./profile.ts";
import { semanticDistanceMatrix } from "./semantic-distance.ts";

export function exactSemanticPartition(
  space: CategorySpace,
  profiles: readonly Profile[],
  k: number,
  onRow?: () => void,
): Int32Array[] {
  const data = semanticDistanceMatrix(space, profiles, onRow);
  return mdavPartition({ n: profiles.length, data }, k);
}
