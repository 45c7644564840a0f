/**
 * Blocking for the scalable variant of semantic MDAV: users are sorted by their *dominant category path* (the
 * top-level category with most of their weight, then its child with most weight, and so on down the tree;
 * ties by id) and the sorted list is cut into consecutive blocks of `blockSize` users. Exact MDAV then runs on
 * each block independently, so the cost is O(n · blockSize) instead of O(n²). Every block has at least
 * `minSize` users (a short last block joins the previous one), so k-anonymity holds inside each block.
 */
import type { CategorySpace } from "../../semantic/category-space.ts";
import type { Profile } from "../../semantic/profile.ts";

/** The dominant category path of a profile: at each depth, the heaviest child of the previous choice. */
export function dominantPath(space: CategorySpace, p: Profile): number[] {
  const path: number[] = [];
  let prefix = 0; // Top
  for (let depth = 1; ; depth++) {
    const w = new Map<number, number>();
    p.cats.forEach((c, i) => {
      if (space.depth[c]! < depth || space.anc[c * space.stride + depth - 1] !== prefix) return;
      const a = space.anc[c * space.stride + depth]!;
      w.set(a, (w.get(a) ?? 0) + p.weights[i]!);
    });
    if (w.size === 0) return path;
    let best = -1;
    let bestW = -1;
    for (const [a, x] of w) if (x > bestW || (x === bestW && a < best)) [best, bestW] = [a, x];
    path.push(best);
    prefix = best;
  }
}

/** Blocks of user indices (see the module comment). */
export function blockUsers(
  space: CategorySpace,
  profiles: readonly Profile[],
  blockSize: number,
  minSize: number,
): number[][] {
  const keys = profiles.map((p) => dominantPath(space, p));
  return cutBlocks(profiles.length, (a, b) => comparePaths(keys[a]!, keys[b]!), blockSize, minSize);
}

/** Dominant paths compared element by element, a path before its extensions. */
export function comparePaths(ka: ArrayLike<number>, kb: ArrayLike<number>): number {
  for (let i = 0; i < Math.min(ka.length, kb.length); i++) if (ka[i] !== kb[i]) return ka[i]! - kb[i]!;
  return ka.length - kb.length;
}

/**
 * Users 0…n−1 sorted by `compare` of their paths (ties by index, so the order is total and the blocks do not
 * depend on the sort), cut into blocks as the module comment says. Shared with the log read by user, which
 * keeps the paths packed instead of as profiles.
 */
export function cutBlocks(
  n: number,
  compare: (a: number, b: number) => number,
  blockSize: number,
  minSize: number,
): number[][] {
  const order = Array.from({ length: n }, (_, i) => i);
  order.sort((a, b) => compare(a, b) || a - b);
  const blocks: number[][] = [];
  for (let i = 0; i < order.length; i += blockSize) blocks.push(order.slice(i, i + blockSize));
  const last = blocks[blocks.length - 1];
  if (blocks.length > 1 && last && last.length < Math.max(minSize, Math.floor(blockSize / 2))) {
    blocks.pop();
    blocks[blocks.length - 1]!.push(...last);
  }
  return blocks;
}
