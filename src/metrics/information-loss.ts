/**
 * Information loss L of paper 004 (§5.1, Eqs. 8–9): users of the original and of the released log are
 * clustered by semantic hierarchical clustering (average linkage on Ds over their ODP category profiles), both
 * partitions are cut at the same number of clusters — fixed (80 in the paper) or chosen by the
 * Calinski–Harabasz index on the original data — and L = 100 × the López de Mántaras distance between them.
 *
 * Users are those of the original log; a user absent from the release counts as a user with no category.
 * The original's clustering is cached per (log, mapper, sample), so measuring many releases of one log clusters
 * it once.
 *
 * Cost: the Ds matrix and average linkage are O(n²) time and 8n² bytes (two Float32 n×n matrices). Measured on
 * generated users (docs/methods/mdav.md): about 1 CPU-s at 2,000 users, 8 at 5,000, 40 at 10,000 (0.8 GB). Larger logs
 * take `sample`: L is then computed on that many users drawn at random (seeded) from the original, the same
 * users in both logs — an estimate of L, not L.
 */
import type { QueryLog } from "../log/record.ts";
import type { ConceptMapper } from "../semantic/concept-mapper.ts";
import { EMPTY_PROFILE, type Profile } from "../semantic/profile.ts";
import { mapLogs } from "../semantic/profiles.ts";
import { semanticDistanceMatrix } from "../semantic/semantic-distance.ts";
import { userLogs } from "../semantic/user-logs.ts";
import { Rng } from "../util/random.ts";
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
  /** Compute L on this many users drawn at random from the original (all users when ≥ their number). */
  readonly sample?: number;
  /** Seed of the user sample (default 1). */
  readonly sampleSeed?: number;
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

const cache = new WeakMap<QueryLog, WeakMap<ConceptMapper, Map<string, Clustered>>>();
const releasedCache = new WeakMap<QueryLog, WeakMap<ConceptMapper, Map<string, Dendrogram>>>();

/** Two-level weak cache with a string key last. */
function memo<T>(
  store: WeakMap<QueryLog, WeakMap<ConceptMapper, Map<string, T>>>,
  log: QueryLog,
  mapper: ConceptMapper,
  key: string,
  make: () => T,
): T {
  let byMapper = store.get(log);
  if (!byMapper) {
    byMapper = new WeakMap();
    store.set(log, byMapper);
  }
  let byKey = byMapper.get(mapper);
  if (!byKey) {
    byKey = new Map();
    byMapper.set(mapper, byKey);
  }
  let hit = byKey.get(key);
  if (hit === undefined) {
    hit = make();
    byKey.set(key, hit);
  }
  return hit;
}

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
  return averageLinkage(profiles.length, semanticDistanceMatrix(mapper.space, profiles), { overwrite: true });
}

/** `m` of the indices 0…n−1 drawn without replacement (seeded), in increasing order; all when m ≥ n. */
export function sampleIndices(n: number, m: number, seed: number): number[] {
  const all = Array.from({ length: n }, (_, i) => i);
  if (m >= n) return all;
  return Rng.fromSeed(seed)
    .shuffle(all)
    .slice(0, m)
    .sort((a, b) => a - b);
}

function clusterOriginal(original: QueryLog, mapper: ConceptMapper, sample: number, seed: number): Clustered {
  return memo(cache, original, mapper, `${sample}:${seed}`, () => {
    const all = profilesOf(original, mapper);
    const keep = sampleIndices(all.users.length, sample, seed);
    const users = keep.map((i) => all.users[i]!);
    return {
      users,
      tree: semanticClustering(
        mapper,
        keep.map((i) => all.profiles[i]!),
      ),
    };
  });
}

function clusterReleased(
  released: QueryLog,
  mapper: ConceptMapper,
  users: readonly string[],
  key: string,
): Dendrogram {
  return memo(releasedCache, released, mapper, key, () =>
    semanticClustering(mapper, profilesOf(released, mapper, users).profiles),
  );
}

export function informationLoss(
  original: QueryLog,
  released: QueryLog,
  opts: InformationLossOptions,
): InformationLossResult {
  const sample = opts.sample ?? Number.POSITIVE_INFINITY;
  const seed = opts.sampleSeed ?? 1;
  const orig = clusterOriginal(original, opts.mapper, sample, seed);
  const n = orig.users.length;
  const K =
    opts.clusters !== undefined
      ? Math.max(1, Math.min(opts.clusters, n))
      : bestByCalinskiHarabasz(
          orig.tree,
          opts.maxClusters ?? Math.max(2, Math.floor(n / 10)),
          Math.min(opts.minClusters ?? 10, Math.max(2, Math.floor(n / 10))),
        );
  const relTree = clusterReleased(released, opts.mapper, orig.users, `${n}:${sample}:${seed}`);
  const d = partitionDistance(cutTree(orig.tree, K), cutTree(relTree, K));
  return {
    loss: 100 * d,
    clusters: K,
    chosenBy: opts.clusters !== undefined ? "fixed" : "calinski-harabasz",
    users: n,
  };
}
