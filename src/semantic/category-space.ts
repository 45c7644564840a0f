/**
 * The semantic distance between ODP categories of paper 004 (Batet et al. 2013, §4.2.1, Eq. 1), on a flat
 * typed-array copy of the taxonomy so that the hot loops never touch objects.
 *
 * T(c) is the set of taxonomic generalizations of c *including c itself* and *excluding the root* `Top` (the
 * paper's Example 2: T("Swimming and Diving") = {Sports, Water Sports, Swimming and Diving}). In a tree,
 * |T(c)| = depth(c) and |T(a) ∩ T(b)| = depth(lca(a, b)), so
 *
 *   δs(a, b) = (|T(a) ∪ T(b)| − |T(a) ∩ T(b)|) / |T(a) ∪ T(b)| = (da + db − 2l) / (da + db − l).
 */
import type { Taxonomy } from "../knowledge/taxonomy.ts";

/** Eq. (1) from depths: `da`, `db` = category depths, `l` = depth of their lowest common ancestor. */
export function deltaFromDepths(da: number, db: number, l: number): number {
  const union = da + db - l;
  return union <= 0 ? 0 : (union - l) / union;
}

/** The taxonomy as typed arrays: depth of each id and its ancestors by depth, for O(depth) δs. */
export class CategorySpace {
  /** Number of category ids (the taxonomy's size). */
  readonly size: number;
  /** Depth of each id (0 = Top). */
  readonly depth: Uint8Array;
  /** `anc[c * stride + i]` = ancestor of c at depth i (i = 0…depth(c); i = depth(c) is c itself). */
  readonly anc: Int32Array;
  readonly stride: number;

  constructor(
    parents: ArrayLike<number>,
    depths: ArrayLike<number>,
    /** The taxonomy, when built from one (labels and paths for mappers and reports). */
    readonly taxonomy?: Taxonomy,
  ) {
    this.size = depths.length;
    this.depth = Uint8Array.from(depths);
    let maxDepth = 0;
    for (let i = 0; i < this.size; i++) maxDepth = Math.max(maxDepth, this.depth[i]!);
    this.stride = maxDepth + 1;
    this.anc = new Int32Array(this.size * this.stride).fill(-1);
    for (let c = 0; c < this.size; c++) {
      for (let x = c; x >= 0; x = parents[x]!) this.anc[c * this.stride + this.depth[x]!] = x;
    }
  }

  static fromTaxonomy(t: Taxonomy): CategorySpace {
    const ids = t.ids();
    return new CategorySpace(
      ids.map((i) => t.parent(i)),
      ids.map((i) => t.depth(i)),
      t,
    );
  }

  /** Parent of each id (-1 for the root), e.g. to rebuild the space in a worker thread. */
  parents(): Int32Array {
    const out = new Int32Array(this.size);
    for (let c = 0; c < this.size; c++) {
      const d = this.depth[c]!;
      out[c] = d === 0 ? -1 : this.anc[c * this.stride + d - 1]!;
    }
    return out;
  }

  /** Depth of the lowest common ancestor = |T(a) ∩ T(b)|. */
  sharedDepth(a: number, b: number): number {
    const da = this.depth[a]!;
    const db = this.depth[b]!;
    const m = Math.min(da, db);
    const s = this.stride;
    let l = 0;
    while (l < m && this.anc[a * s + l + 1] === this.anc[b * s + l + 1]) l++;
    return l;
  }

  /** δs(a, b), Eq. (1): share of non-shared generalizations. 0 iff a = b; 1 when only `Top` is shared. */
  delta(a: number, b: number): number {
    if (a === b) return 0;
    return deltaFromDepths(this.depth[a]!, this.depth[b]!, this.sharedDepth(a, b));
  }
}
