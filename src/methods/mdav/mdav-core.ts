/**
 * MDAV (Maximum Distance to Average Vector, Domingo-Ferrer & Mateo-Sanz 2002) as given in paper 004,
 * Algorithm 1, over any precomputed distance matrix. Shared by the semantic method and its three baselines.
 *
 * The centroid of a set of records is the record minimizing the sum of distances to all others (paper 004,
 * Eq. 5: for set-valued data the centroid is a medoid). Row sums over the records still unassigned are kept
 * up to date as clusters are removed, so the whole partition costs O(n²) after the matrix is built.
 *
 * Ties (equal distances or sums) are broken by the lower record index, so the partition is a pure function of
 * the matrix. Every cluster has between k and 2k − 1 records (all records in one cluster when n < 2k).
 */

/** A full symmetric n×n distance matrix, row-major. */
export interface DistanceMatrix {
  readonly n: number;
  readonly data: Float32Array;
}

/** The MDAV partition: clusters of record indices, in the order MDAV formed them. */
export function mdavPartition(matrix: DistanceMatrix, k: number): Int32Array[] {
  const { n, data } = matrix;
  if (k < 1) throw new RangeError(`mdav: k must be ≥ 1, got ${k}`);
  const left = new Uint8Array(n).fill(1);
  const rowSum = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    const row = i * n;
    for (let j = 0; j < n; j++) s += data[row + j]!;
    rowSum[i] = s;
  }
  let remaining = n;
  const clusters: Int32Array[] = [];

  const take = (center: number): number => {
    const members = nearest(data, n, left, center, k);
    for (const m of members) left[m] = 0;
    remaining -= members.length;
    for (let i = 0; i < n; i++) {
      if (!left[i]) continue;
      const row = i * n;
      let s = 0;
      for (const m of members) s += data[row + m]!;
      rowSum[i]! -= s;
    }
    clusters.push(members);
    return center;
  };

  while (remaining >= 3 * k) {
    const xr = farthest(data, n, left, medoid(rowSum, left));
    take(xr);
    take(farthest(data, n, left, xr));
  }
  if (remaining >= 2 * k) take(farthest(data, n, left, medoid(rowSum, left)));
  if (remaining > 0) {
    const last: number[] = [];
    for (let i = 0; i < n; i++) if (left[i]) last.push(i);
    clusters.push(Int32Array.from(last));
  }
  return clusters;
}

/** Unassigned record with the least sum of distances to the unassigned records (Eq. 5). */
function medoid(rowSum: Float64Array, left: Uint8Array): number {
  let best = -1;
  let bestSum = Number.POSITIVE_INFINITY;
  for (let i = 0; i < left.length; i++) {
    if (left[i] && rowSum[i]! < bestSum) {
      bestSum = rowSum[i]!;
      best = i;
    }
  }
  return best;
}

/** Unassigned record most distant from `from`. */
function farthest(data: Float32Array, n: number, left: Uint8Array, from: number): number {
  let best = -1;
  let bestD = Number.NEGATIVE_INFINITY;
  const row = from * n;
  for (let i = 0; i < n; i++) {
    if (left[i] && data[row + i]! > bestD) {
      bestD = data[row + i]!;
      best = i;
    }
  }
  return best;
}

/** `center` and its k − 1 least distant unassigned records. */
function nearest(data: Float32Array, n: number, left: Uint8Array, center: number, k: number): Int32Array {
  const row = center * n;
  const cand: number[] = [];
  for (let i = 0; i < n; i++) if (left[i] && i !== center) cand.push(i);
  cand.sort((a, b) => data[row + a]! - data[row + b]! || a - b);
  const out = new Int32Array(Math.min(k, cand.length + 1));
  out[0] = center;
  for (let i = 1; i < out.length; i++) out[i] = cand[i - 1]!;
  return out;
}
