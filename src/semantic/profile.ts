/**
 * A user as a multiset of ODP categories: C_u = {⟨c_i, ω_i⟩} of paper 004 §4.1.3, in sorted typed arrays.
 */

export interface Profile {
  /** Distinct category ids, ascending. */
  readonly cats: Int32Array;
  /** ω_i: repetitions of `cats[i]` (how many of the user's semantic units mapped to it). */
  readonly weights: Float64Array;
  /** Σ ω_i. */
  readonly total: number;
}

export const EMPTY_PROFILE: Profile = { cats: new Int32Array(0), weights: new Float64Array(0), total: 0 };

/** Count the category ids (repetitions allowed) into a profile. */
export function profileOf(categories: Iterable<number>): Profile {
  const counts = new Map<number, number>();
  for (const c of categories) counts.set(c, (counts.get(c) ?? 0) + 1);
  return profileFromCounts(counts);
}

/** A profile from `category → ω`; zero and negative weights are dropped. */
export function profileFromCounts(counts: ReadonlyMap<number, number>): Profile {
  const ids = [...counts.entries()]
    .filter(([, w]) => w > 0)
    .map(([c]) => c)
    .sort((a, b) => a - b);
  const weights = new Float64Array(ids.length);
  let total = 0;
  ids.forEach((c, i) => {
    weights[i] = counts.get(c)!;
    total += weights[i]!;
  });
  return { cats: Int32Array.from(ids), weights, total };
}
