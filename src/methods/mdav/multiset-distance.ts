/**
 * Ds with a Boolean element distance (0 if identical, else 1): the user distance of the non-semantic baseline
 * (query strings) and of Erola et al. (identical ODP categories), obtained from Eq. 4 of paper 004 by replacing
 * δs with equality. It reduces to the share of the two users' items (with repetitions) not found in the other:
 *
 *   D(u, v) = (Σ_{x ∈ u, x ∉ v} ω_x + Σ_{x ∈ v, x ∉ u} ω_x) / (Σ ω(u) + Σ ω(v)).
 */
import type { Profile } from "../../semantic/profile.ts";

/** D of one pair, by merging the sorted id arrays. */
export function booleanDistance(a: Profile, b: Profile): number {
  const total = a.total + b.total;
  if (total === 0) return 0;
  let shared = 0;
  let i = 0;
  let j = 0;
  while (i < a.cats.length && j < b.cats.length) {
    const x = a.cats[i]!;
    const y = b.cats[j]!;
    if (x === y) {
      shared += a.weights[i++]! + b.weights[j++]!;
    } else if (x < y) i++;
    else j++;
  }
  return (total - shared) / total;
}

/** All-pairs D as a full symmetric n×n Float32Array. */
export function booleanDistanceMatrix(profiles: readonly Profile[], onRow?: () => void): Float32Array {
  const n = profiles.length;
  const out = new Float32Array(n * n);
  for (let u = 0; u < n; u++) {
    for (let v = u + 1; v < n; v++) {
      const d = booleanDistance(profiles[u]!, profiles[v]!);
      out[u * n + v] = d;
      out[v * n + u] = d;
    }
    onRow?.();
  }
  return out;
}
