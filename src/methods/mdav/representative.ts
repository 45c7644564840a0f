/**
 * The synthetic representative of a cluster of users (paper 004 §4.3):
 *  1. the centroid category z of the cluster, minimizing the ω-weighted δs to all the cluster's categories (Eq. 6);
 *  2. each user u contributes Quota(u) = Σω(u) / |p| categories (Eq. 7), the ones of hers least distant (δs) to z;
 *  3. each category is replaced by a query picked at random among all original queries mapped to it.
 */

import type { CategorySpace } from "../../semantic/category-space.ts";
import type { Profile } from "../../semantic/profile.ts";
import type { Rng } from "../../util/random.ts";

/** Eq. (6): the category of the cluster with the least ω-weighted sum of δs to all categories of the cluster. */
export function centroidCategory(space: CategorySpace, members: readonly Profile[]): number {
  const weight = new Map<number, number>();
  for (const p of members) {
    p.cats.forEach((c, i) => {
      weight.set(c, (weight.get(c) ?? 0) + p.weights[i]!);
    });
  }
  const cats = [...weight.keys()].sort((a, b) => a - b);
  let best = -1;
  let bestSum = Number.POSITIVE_INFINITY;
  for (const c of cats) {
    let sum = 0;
    for (const d of cats) {
      sum += weight.get(d)! * space.delta(c, d);
      if (sum >= bestSum) break;
    }
    if (sum < bestSum) {
      bestSum = sum;
      best = c;
    }
  }
  return best;
}

/**
 * Eq. (7) made integral: the exact quotas Σω(u)/|p| are rounded by the largest-remainder method so that they
 * add up to round(Σ_u Σω(u) / |p|), the mean profile size of the cluster; ties go to the earlier user. No
 * user is asked for more categories than she has.
 */
export function quotas(totals: readonly number[]): number[] {
  const size = totals.length;
  if (size === 0) return [];
  const exact = totals.map((t) => t / size);
  const out = exact.map(Math.floor);
  const target = Math.round(totals.reduce((a, b) => a + b, 0) / size);
  let missing = target - out.reduce((a, b) => a + b, 0);
  const order = exact
    .map((q, i) => ({ i, frac: q - Math.floor(q) }))
    .sort((a, b) => b.frac - a.frac || a.i - b.i);
  for (const { i } of order) {
    if (missing <= 0) break;
    if (out[i]! < totals[i]!) {
      out[i]!++;
      missing--;
    }
  }
  return out;
}

/**
 * The categories of the representative p̄ (with repetitions): for each member, her categories sorted by δs to
 * the centroid category z (ties: more repetitions first, then lower id), expanded by repetitions, cut at her
 * quota.
 */
export function representativeCategories(space: CategorySpace, members: readonly Profile[]): number[] {
  if (members.every((p) => p.total === 0)) return [];
  const z = centroidCategory(space, members);
  const q = quotas(members.map((p) => p.total));
  const out: number[] = [];
  members.forEach((p, m) => {
    const order = [...p.cats.keys()].sort(
      (a, b) =>
        space.delta(p.cats[a]!, z) - space.delta(p.cats[b]!, z) ||
        p.weights[b]! - p.weights[a]! ||
        p.cats[a]! - p.cats[b]!,
    );
    let need = q[m]!;
    for (const i of order) {
      for (let r = 0; r < p.weights[i]! && need > 0; r++, need--) out.push(p.cats[i]!);
      if (need === 0) break;
    }
  });
  return out;
}

/** Step 3: one random query event of each category (`pool.get(c)` = events mapped to c, with repetitions). */
export function pickQueries(
  categories: readonly number[],
  pool: ReadonlyMap<number, number[]>,
  rng: Rng,
): number[] {
  return categories.map((c) => {
    const events = pool.get(c);
    if (!events || events.length === 0) throw new Error(`mdav: no query of category ${c} to pick`);
    return rng.pick(events);
  });
}
