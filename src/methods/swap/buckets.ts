/**
 * Which bucket an event goes to, and when a bucket below the top level may release. At depth 1 the bucket is the
 * ODP top-level category of the query (the paper, Algorithm 2). At depth d > 1 (the authors' later saps-qls
 * work) an event enters the bucket of its category's ancestor at depth d (or its own category if shallower),
 * and the buckets form a tree under each top-level category:
 *
 * - a bucket below the top level releases only when it holds k + 1 events of k + 1 distinct users (so a
 *   released event has at least k other candidate authors in its bucket, where the top level needs only 2);
 * - as soon as an arriving event's author already holds a slot in the bucket, the bucket can never get there
 *   (events leave it only by a release), so it hands all it holds (events and author slots) to its parent at
 *   once, which applies its own rule; the top level applies the paper's rule (release from ≥ 2 users, else
 *   k ← k·δ);
 * - at the end of the stream every bucket hands its events up, deepest first, and the top level pairs them.
 *
 * A deep bucket never grows its k, never holds more than k events between arrivals, and never holds two slots of
 * one user, so depth only refines the swap where a fine category is busy with many users, and otherwise falls
 * back to the coarser bucket without delay. Events and slots never leave their top-level category, so each user's
 * per-top-level-category counts are preserved (§4.5). This replaces two earlier rules: a sticky one under which a
 * node, once it had seen k distinct users, took its category's events for good (a deep bucket could be left to one
 * or two users: k grew to 286, and the attacks gained with depth), and one that waited for k + 1 events before
 * handing a bucket with a repeated user up (the late clump of handed-up events let the attacks gain from depth 2
 * to 3 at k = 30). See docs/swap.md, "Depth".
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

/**
 * What a bucket below the top level does after an event arrives, from how many events (= author slots) it holds
 * and how many distinct users those slots name: hand all up (a user holds two slots), wait, or release one event.
 */
export function deepBucketAction(
  events: number,
  distinctUsers: number,
  k: number,
): "wait" | "release" | "up" {
  if (distinctUsers < events) return "up";
  return events > k ? "release" : "wait";
}
