/**
 * Information loss L of paper 004 (§5.1, Eqs. 8–9): users of the original and of the released log are
 * clustered by semantic hierarchical clustering (average linkage on Ds over their ODP category profiles), both
 * partitions are cut at the same number of clusters — fixed (80 in the paper) or chosen by the
 * Calinski–Harabasz index on the original data — and L = 100 × the López de Mántaras distance between them.
 *
 * Users are those of the original log; a user absent from the release counts as a user with no category.
 * The original's clustering is cached per (log, mapper), so measuring many releases of one log clusters it once.
 */
import type { QueryLog } from "../log/record.ts";
import type { ConceptMapper } from "../methods/mdav/concept-mapper.ts";
import { EMPTY_PROFILE, type Profile } from "../methods/mdav/profile.ts";
import { mapLogs } from "../methods/mdav/profiles.ts";
import { semanticDistanceMatrix } from "../methods/mdav/semantic-distance.ts";
import { userLogs } from "../methods/mdav/user-logs.ts";
import {
  averageLinkage,
  bestByCalinskiHarabasz,
  cutTree,
  type Dendrogram,
} from "./hierarchical-clustering.ts";
import { partitionDistance } from "./partition-distance.ts";

export interface InformationLossOptions {
  /** Queries → ODP categories (the same mapper for both logs). */
  readonly mapper: ConceptMapper;
  /** Number of clusters of both partitions; default: Calinski–Harabasz on the original. */
  readonly clusters?: number;
  /**
   * Range of K the Calinski–Harabasz search considers (default 10 … ⌊n/10⌋, clamped to [2, n − 1]). On Ds the
   * index is high at K = 2 (one outlier split off), where the partition distance is meaningless, and infinite
   * near K = n, hence the bounded range.
   */
  readonly minClusters?: number;
  readonly maxClusters?: number;
}

export interface InformationLossResult {
  /** L = dPart × 100, in [0, 100]. */
  readonly loss: number;
  /** The number of clusters both partitions were cut at. */
  readonly clusters: number;
  readonly chosenBy: "fixed" | "calinski-harabasz";
  readonly users: number;
}

interface Clustered {
  readonly users: string[];
  readonly tree: Dendrogram;
}

const cache = new WeakMap<QueryLog, WeakMap<ConceptMapper, Clustered>>();
const releasedCache = new WeakMap<QueryLog, WeakMap<ConceptMapper, Dendrogram>>();

/** Category profiles of `users` in `log` (empty for users absent from it). */
export function profilesOf(
  log: QueryLog,
  mapper: ConceptMapper,
  users?: readonly string[],
): { users: string[]; profiles: Profile[] } {
  const logs = userLogs(log.records);
  const { profiles } = mapLogs(logs, mapper);
  if (!users) return { users: logs.users, profiles };
  const byId = new Map(logs.users.map((u, i) => [u, profiles[i]!]));
  return { users: [...users], profiles: users.map((u) => byId.get(u) ?? EMPTY_PROFILE) };
}

/** Average-linkage dendrogram of users by Ds. */
export function semanticClustering(mapper: ConceptMapper, profiles: readonly Profile[]): Dendrogram {
  return averageLinkage(profiles.length, semanticDistanceMatrix(mapper.space, profiles));
}

function clusterOriginal(original: QueryLog, mapper: ConceptMapper): Clustered {
  let byMapper = cache.get(original);
  if (!byMapper) {
    byMapper = new WeakMap();
    cache.set(original, byMapper);
  }
  const hit = byMapper.get(mapper);
  if (hit) return hit;
  const { users, profiles } = profilesOf(original, mapper);
  const out = { users, tree: semanticClustering(mapper, profiles) };
  byMapper.set(mapper, out);
  return out;
}

function clusterReleased(released: QueryLog, mapper: ConceptMapper, users: readonly string[]): Dendrogram {
  let byMapper = releasedCache.get(released);
  if (!byMapper) {
    byMapper = new WeakMap();
    releasedCache.set(released, byMapper);
  }
  let tree = byMapper.get(mapper);
  if (!tree) {
    tree = semanticClustering(mapper, profilesOf(released, mapper, users).profiles);
    byMapper.set(mapper, tree);
  }
  return tree;
}

export function informationLoss(
  original: QueryLog,
  released: QueryLog,
  opts: InformationLossOptions,
): InformationLossResult {
  const orig = clusterOriginal(original, opts.mapper);
  const n = orig.users.length;
  const K =
    opts.clusters !== undefined
      ? Math.max(1, Math.min(opts.clusters, n))
      : bestByCalinskiHarabasz(
          orig.tree,
          opts.maxClusters ?? Math.max(2, Math.floor(n / 10)),
          Math.min(opts.minClusters ?? 10, Math.max(2, Math.floor(n / 10))),
        );
  const relTree = clusterReleased(released, opts.mapper, orig.users);
  const d = partitionDistance(cutTree(orig.tree, K), cutTree(relTree, K));
  return {
    loss: 100 * d,
    clusters: K,
    chosenBy: opts.clusters !== undefined ? "fixed" : "calinski-harabasz",
    users: n,
  };
}
