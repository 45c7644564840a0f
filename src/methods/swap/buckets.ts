/**
 * Which bucket an event goes to, and when a bucket below the top level may release. At depth 1 the bucket is the
 * ODP top-level category of the query (the paper, Algorithm 2). At depth d > 1 (the authors' later saps-qls
 * work) an event enters the bucket of its category's ancestor at depth d (or its own category if shallower),
 * and the buckets form a tree under each top-level category:
 *
 * - a bucket below the top level releases only while it holds events of at least k + 1 distinct users (so a
 *   released event has at least k other candidate authors in its bucket, where the top level needs only 2);
 * - when it holds k + 1 events of fewer distinct users, it hands all of them (events and author slots) to its
 *   parent, which applies its own rule; the top level applies the paper's rule (release from ≥ 2 users, else
 *   k ← k·δ);
 * - at the end of the stream every bucket hands its events up, deepest first, and the top level pairs them.
 *
 * A deep bucket never grows its k and never holds more than k events between arrivals, so depth only refines the
 * swap where a fine category is busy with many users, and otherwise falls back to the coarser bucket. Events and
 * slots never leave their top-level category, so each user's per-top-level-category counts are preserved (§4.5).
 * This replaces a sticky rule under which a node, once it had seen k distinct users, took its category's events
 * for good: a deep bucket could then be left to one or two users (k grew to 286, and the attacks gained with
 * depth). See docs/swap.md, "Depth".
 */

/** Ancestor keys of `category` from depth `depth` (or the category's own depth if shallower) up to depth 1. */
export function ancestorKeys(category: string, depth: number): string[] {
  if (category === "") return [""];
  const parts = category.split("/");
  const offset = parts[0] === "Top" ? 1 : 0;
  const own = parts.length - offset;
  if (own <= 0) return [category];
  const keys: string[] = [];
  for (let d = Math.min(depth, own); d >= 1; d--) keys.push(parts.slice(0, offset + d).join("/"));
  return keys;
}

/** What a bucket below the top level does after events arrive: wait, release one event, or hand all up. */
export function deepBucketAction(
  events: number,
  distinctUsers: number,
  k: number,
): "wait" | "release" | "up" {
  if (events <= k) return "wait";
  return distinctUsers > k ? "release" : "up";
}
