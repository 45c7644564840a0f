/**
 * Which anonymizer partition owns a record: a stable hash of its top-level category. Swap buckets at any depth
 * lie inside one top-level category, so a bucket (and the parent a deeper bucket falls back to) never spans two
 * partitions. Query events stay whole: the rows of one event share their query and so their category. The hash
 * (util/hash.ts's FNV-1a + murmur3 mixer) is the same on every machine and run.
 */

import { methodRng } from "../methods/method.ts";
import { fmix32, hashString } from "../util/hash.ts";
import { Rng } from "../util/random.ts";

/** `Top/Sports/Soccer` → `Top/Sports`; "" (unclassified) stays "". */
export function topLevel(category: string): string {
  const first = category.indexOf("/");
  if (first < 0) return category;
  const second = category.indexOf("/", first + 1);
  return second < 0 ? category : category.slice(0, second);
}

export function partitionOf(category: string, partitions: number): number {
  return partitions <= 1 ? 0 : hashString(topLevel(category)) % partitions;
}

/**
 * Which classify shard classifies a record: a stable hash of its query text (as ingested, before the scrub), so
 * every repeat of a query goes to the same worker and its memo classifies each distinct query once. The seed keeps
 * it independent of the partition hash.
 */
export function classifyShardOf(query: string, shards: number): number {
  return shards <= 1 ? 0 : hashString(query, 0x5eed) % shards;
}

/**
 * The random stream of partition p of `partitions`: a function of (seed, p) only, the same in the cluster and
 * embedded. A single partition is the whole stream and takes `anonymize`'s own ({@link methodRng}), so a stream of
 * one partition releases what `anonymize --seed` does.
 */
export function partitionRng(seed: number, partition: number, partitions: number): Rng {
  if (partitions === 1) return methodRng(seed);
  return Rng.fromSeed(fmix32((seed ^ Math.imul(partition + 1, 0x9e3779b1)) >>> 0) | 0);
}

/** Which batch worker owns a user (`cluster run` of a batch method): a stable hash of the user id. */
export function userShardOf(user: string, shards: number): number {
  return shards <= 1 ? 0 : hashString(user, 0x05e4) % shards;
}
