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
 * to 3 at k = 30). See docs/methods/swap.md, "Depth".
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
function deepBucketAction(events: number, distinctUsers: number, k: number): "wait" | "release" | "up" {
  if (distinctUsers < events) return "up";
  return events > k ? "release" : "wait";
}

/** A bucket: its events waiting, one author slot per event that entered, and (below the top level) slots per user. */
export interface Bucket<E> {
  k: number;
  readonly key: string;
  readonly entries: E[];
  readonly slots: string[];
  /** 1 = top level (the paper's rule); deeper buckets follow {@link deepBucketAction}. */
  readonly level: number;
  readonly parent: Bucket<E> | undefined;
  /** Below the top level: how many slots each user holds (for the distinct-user count). */
  readonly users: Map<string, number> | undefined;
}

/**
 * The buckets of one stream and the moves of the depth rule, shared by the anonymizer (src/methods/swap/core.ts)
 * and the attacker that replays it (src/attacks/deanonymizer.ts), so the two cannot drift apart. What a release
 * is stays the caller's: an entry `E` is the anonymizer's held event or the attacker's event index.
 */
export class BucketTree<E> {
  /** Every bucket by key, in creation order. */
  readonly byKey = new Map<string, Bucket<E>>();

  constructor(private readonly k0: number) {}

  /** The bucket for `keys` (deepest first, top level last: {@link ancestorKeys}), created with its ancestors. */
  bucket(keys: readonly string[], at = 0): Bucket<E> {
    const key = keys[at]!;
    let b = this.byKey.get(key);
    if (b === undefined) {
      const level = keys.length - at;
      const parent = level > 1 ? this.bucket(keys, at + 1) : undefined;
      b = {
        k: this.k0,
        key,
        entries: [],
        slots: [],
        level,
        parent,
        users: level > 1 ? new Map() : undefined,
      };
      this.byKey.set(key, b);
    }
    return b;
  }

  pushSlot(b: Bucket<E>, user: string): void {
    b.slots.push(user);
    if (b.users !== undefined) b.users.set(user, (b.users.get(user) ?? 0) + 1);
  }

  /** Remove slot j of `b` (the last slot takes its place); returns its user. */
  takeSlot(b: Bucket<E>, j: number): string {
    const user = b.slots[j]!;
    b.slots[j] = b.slots[b.slots.length - 1]!;
    b.slots.pop();
    if (b.users !== undefined) {
      const n = b.users.get(user)! - 1;
      if (n === 0) b.users.delete(user);
      else b.users.set(user, n);
    }
    return user;
  }

  /** Move all of b's entries and slots to its parent; returns the parent. */
  handUp(b: Bucket<E>): Bucket<E> {
    const parent = b.parent!;
    for (const e of b.entries) parent.entries.push(e);
    for (const u of b.slots) this.pushSlot(parent, u);
    b.entries.length = 0;
    b.slots.length = 0;
    b.users!.clear();
    return parent;
  }

  /**
   * A bucket below the top level after an event arrived: `release` one entry while {@link deepBucketAction} says
   * so, or hand everything up and let the parent act (`top` at the top level). Returns the hand-ups made.
   */
  settle(b: Bucket<E>, release: (b: Bucket<E>) => void, top: (b: Bucket<E>) => void): number {
    for (let handedUp = 0; ; ) {
      const action = deepBucketAction(b.entries.length, b.users!.size, this.k0);
      if (action === "wait") return handedUp;
      if (action === "release") {
        release(b);
        continue;
      }
      b = this.handUp(b);
      handedUp++;
      if (b.level === 1) {
        top(b);
        return handedUp;
      }
    }
  }

  /** End of stream: every bucket below the top level hands what it holds up, deepest first; returns how many did. */
  handUpAll(): number {
    const deep = [...this.byKey.values()].filter((b) => b.level > 1).sort((a, b) => b.level - a.level);
    let handedUp = 0;
    for (const b of deep) {
      if (b.entries.length === 0) continue;
      this.handUp(b);
      handedUp++;
    }
    return handedUp;
  }
}
