/**
 * Which bucket an event goes to. At depth 1 the bucket is the ODP top-level category of the query (the paper).
 * Deeper buckets (the authors' later saps-qls work) are finer and so leak less about the query's topic, but fill
 * slowly: an event goes to the deepest ancestor of its category, up to `depth`, that has seen at least k distinct
 * users, else to its top-level category.
 *
 * A node opens for good once it has seen k distinct users (a sticky threshold: a category that has had k users
 * can fill a bucket; the delay bound and the end policy cover one that later dries up). Until then it keeps the
 * distinct users seen (fewer than k), so memory stays O(k × categories) whatever the log size; all of it is
 * part of the stage snapshot. Once a category's deepest node is open its bucket never changes, so the hot path
 * is a single map lookup at any depth.
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

export interface ChooserSnapshot {
  /** Nodes that have seen `need` distinct users (open for good). */
  readonly open: string[];
  /** Distinct users seen so far by nodes not yet open. */
  readonly seen: [string, string[]][];
}

export class BucketChooser {
  private readonly cache = new Map<string, string[]>();
  private readonly open: Set<string>;
  private readonly seen: Map<string, string[]>;

  constructor(
    private readonly depth: number,
    private readonly need: number,
    snap?: ChooserSnapshot,
  ) {
    this.open = new Set(snap?.open ?? []);
    this.seen = new Map((snap?.seen ?? []).map(([k, v]) => [k, [...v]]));
  }

  private keys(category: string): string[] {
    let keys = this.cache.get(category);
    if (keys === undefined) {
      keys = ancestorKeys(category, this.depth);
      this.cache.set(category, keys);
    }
    return keys;
  }

  /**
   * The bucket key for an event of `user` in `category`: the deepest open ancestor, walking up from the deepest
   * and counting the user at each closed node on the way (a node opens at `need` distinct users); the top level
   * if none is open.
   */
  choose(category: string, user: string): string {
    const keys = this.keys(category);
    if (keys.length === 1) return keys[0]!;
    for (const key of keys) {
      if (this.open.has(key)) return key;
      let seen = this.seen.get(key);
      if (seen === undefined) {
        seen = [];
        this.seen.set(key, seen);
      }
      if (!seen.includes(user)) seen.push(user);
      if (seen.length >= this.need) {
        this.open.add(key);
        this.seen.delete(key);
        return key;
      }
    }
    return keys[keys.length - 1]!;
  }

  /** True when {@link choose} will always answer the same for `category` (so callers may cache it). */
  settled(category: string): boolean {
    const keys = this.keys(category);
    return keys.length === 1 || this.open.has(keys[0]!);
  }

  snapshot(): ChooserSnapshot {
    return { open: [...this.open], seen: [...this.seen.entries()].map(([k, v]) => [k, [...v]]) };
  }
}
