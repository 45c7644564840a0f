/**
 * Ds, the semantic distance between users of paper 004 (§4.2.2, Eq. 4): every category of one user is matched
 * to the least distant (δs) category of the other, weighted by its repetitions, in both directions, and the sum
 * is divided by the total number of categories (with repetitions) of both users:
 *
 *   Ds(u1, u2) = (Σ_i ω_i · min_j δs(c_i, c_j) + Σ_j ω_j · min_i δs(c_i, c_j)) / (Σ ω_i + Σ ω_j).
 *
 * Conventions for users with no mapped category (the paper does not say): two empty users are at distance 0; an
 * empty user is at distance 1 from any other (min over an empty set taken as the maximum, 1).
 *
 * The all-pairs matrix is computed in O(n·K·depth + n²·|C|) rather than O(n²·|C|²): for each user v and each
 * category c of the universe, `near[v][c] = min_j δs(c, c_j)` is precomputed from the minimal depth of v's
 * categories below each ancestor of c (δs grows with the other category's depth for a fixed common ancestor,
 * and shrinks as the common ancestor deepens, so the minimum over ancestors is exact).
 */
import { type CategorySpace, deltaFromDepths } from "./category-space.ts";
import type { Profile } from "./profile.ts";

/** Eq. (4) evaluated directly (O(|C1|·|C2|)); the reference the fast matrix is tested against. */
export function semanticUserDistance(space: CategorySpace, a: Profile, b: Profile): number {
  const total = a.total + b.total;
  if (total === 0) return 0;
  if (a.total === 0 || b.total === 0) return 1;
  return (directed(space, a, b) + directed(space, b, a)) / total;
}

function directed(space: CategorySpace, from: Profile, to: Profile): number {
  let sum = 0;
  for (let i = 0; i < from.cats.length; i++) {
    let best = 1;
    for (let j = 0; j < to.cats.length && best > 0; j++) {
      const d = space.delta(from.cats[i]!, to.cats[j]!);
      if (d < best) best = d;
    }
    sum += from.weights[i]! * best;
  }
  return sum;
}

/** Profiles re-indexed on the universe of categories they use, as one flat CSR structure. */
interface Packed {
  readonly universe: Int32Array;
  readonly offsets: Int32Array;
  readonly local: Int32Array;
  readonly weights: Float64Array;
}

function pack(profiles: readonly Profile[]): Packed {
  const localOf = new Map<number, number>();
  const universe: number[] = [];
  const offsets = new Int32Array(profiles.length + 1);
  let size = 0;
  profiles.forEach((p, i) => {
    size += p.cats.length;
    offsets[i + 1] = size;
  });
  const local = new Int32Array(size);
  const weights = new Float64Array(size);
  profiles.forEach((p, i) => {
    const base = offsets[i]!;
    for (let j = 0; j < p.cats.length; j++) {
      const c = p.cats[j]!;
      let l = localOf.get(c);
      if (l === undefined) {
        l = universe.length;
        localOf.set(c, l);
        universe.push(c);
      }
      local[base + j] = l;
      weights[base + j] = p.weights[j]!;
    }
  });
  return { universe: Int32Array.from(universe), offsets, local, weights };
}

/** `near[v·K + c]` = min δs(universe[c], categories of v) (1 when v has none). */
function nearestTable(
  space: CategorySpace,
  profiles: readonly Profile[],
  universe: Int32Array,
): Float32Array {
  const K = universe.length;
  const s = space.stride;
  const near = new Float32Array(profiles.length * K);
  const minDepth = new Uint8Array(space.size).fill(255);
  const touched: number[] = [];
  profiles.forEach((p, v) => {
    for (const c of p.cats) {
      const d = space.depth[c]!;
      for (let i = 1; i <= d; i++) {
        const a = space.anc[c * s + i]!;
        if (minDepth[a] === 255) touched.push(a);
        if (d < minDepth[a]!) minDepth[a] = d;
      }
    }
    const row = v * K;
    for (let x = 0; x < K; x++) {
      const c = universe[x]!;
      const d = space.depth[c]!;
      let best = 1;
      for (let l = d; l >= 1 && best > 0; l--) {
        const e = minDepth[space.anc[c * s + l]!]!;
        if (e === 255) continue; // no category of v below this ancestor
        const delta = deltaFromDepths(d, e, l);
        if (delta < best) best = delta;
      }
      near[row + x] = best;
    }
    for (const a of touched) minDepth[a] = 255;
    touched.length = 0;
  });
  return near;
}

/**
 * All-pairs Ds as a full symmetric n×n Float32Array (row-major). `onRow` is called once per finished row (for
 * progress).
 */
export function semanticDistanceMatrix(
  space: CategorySpace,
  profiles: readonly Profile[],
  onRow?: () => void,
): Float32Array {
  const n = profiles.length;
  const { universe, offsets, local, weights } = pack(profiles);
  const K = universe.length;
  const near = nearestTable(space, profiles, universe);
  const totals = new Float64Array(n);
  for (let u = 0; u < n; u++) totals[u] = profiles[u]!.total;
  const out = new Float32Array(n * n);
  for (let u = 0; u < n; u++) {
    const uFrom = offsets[u]!;
    const uTo = offsets[u + 1]!;
    const uRow = u * K;
    for (let v = u + 1; v < n; v++) {
      const total = totals[u]! + totals[v]!;
      let d: number;
      if (total === 0) d = 0;
      else if (totals[u] === 0 || totals[v] === 0) d = 1;
      else {
        let sum = 0;
        const vRow = v * K;
        for (let i = uFrom; i < uTo; i++) sum += weights[i]! * near[vRow + local[i]!]!;
        const vTo = offsets[v + 1]!;
        for (let j = offsets[v]!; j < vTo; j++) sum += weights[j]! * near[uRow + local[j]!]!;
        d = sum / total;
      }
      out[u * n + v] = d;
      out[v * n + u] = d;
    }
    onRow?.();
  }
  return out;
}
