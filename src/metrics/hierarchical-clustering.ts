/**
 * Agglomerative hierarchical clustering (average linkage, UPGMA) over a precomputed distance matrix, with the
 * Calinski–Harabasz index of every level, for the information-loss measure of paper 004 (§5.1).
 *
 * The merge loop keeps each cluster's nearest neighbour, so it runs in about O(n²) time with two n×n Float32
 * matrices (mean distances between clusters, updated in place, and sums of squared distances between clusters
 * for the index): 8n² bytes, 800 MB at 10,000 items (see docs/methods/mdav.md for measured times).
 *
 * Calinski–Harabasz from distances alone (as for a non-Euclidean metric): with S_c the sum of squared distances
 * inside cluster c, W = Σ_c S_c / n_c, T = Σ_{i<j} d² / n and B = T − W, CH(K) = (B / (K−1)) / (W / (n−K)).
 */

export interface Dendrogram {
  readonly n: number;
  /** Merge t joined clusters represented by items `left[t]` and `right[t]` (n − 1 merges, by height). */
  readonly left: Int32Array;
  readonly right: Int32Array;
  readonly height: Float64Array;
  /** `ch[K]` = Calinski–Harabasz index of the K-cluster level (NaN for K < 2 or K ≥ n). */
  readonly ch: Float64Array;
}

export interface LinkageOptions {
  /** Use `dist` (a Float32Array) as the working matrix and overwrite it, instead of copying it (saves 4n² bytes). */
  readonly overwrite?: boolean;
}

export function averageLinkage(n: number, dist: ArrayLike<number>, opts: LinkageOptions = {}): Dendrogram {
  const D = opts.overwrite && dist instanceof Float32Array ? dist : Float32Array.from(dist);
  const X = new Float32Array(n * n);
  let total = 0;
  for (let i = 0; i < n; i++) {
    const row = i * n;
    for (let j = 0; j < n; j++) {
      const d = D[row + j]!;
      X[row + j] = d * d;
      if (j > i) total += d * d;
    }
  }
  const T = n > 0 ? total / n : 0;
  const size = new Float64Array(n).fill(1);
  const within = new Float64Array(n); // S_c, indexed by representative
  const active = new Uint8Array(n).fill(1);
  const nn = new Int32Array(n).fill(-1);
  const nnd = new Float64Array(n).fill(Number.POSITIVE_INFINITY);
  const refresh = (i: number) => {
    let b = -1;
    let bd = Number.POSITIVE_INFINITY;
    const row = i * n;
    for (let j = 0; j < n; j++) {
      if (j !== i && active[j] && D[row + j]! < bd) {
        bd = D[row + j]!;
        b = j;
      }
    }
    nn[i] = b;
    nnd[i] = bd;
  };
  for (let i = 0; i < n; i++) refresh(i);
  const left = new Int32Array(Math.max(0, n - 1));
  const right = new Int32Array(Math.max(0, n - 1));
  const height = new Float64Array(Math.max(0, n - 1));
  const ch = new Float64Array(n + 1).fill(Number.NaN);
  let W = 0;
  for (let t = 0; t < n - 1; t++) {
    let i = -1;
    let best = Number.POSITIVE_INFINITY;
    for (let x = 0; x < n; x++) {
      if (active[x] && nnd[x]! < best) {
        best = nnd[x]!;
        i = x;
      }
    }
    let j = nn[i]!;
    if (j < i) [i, j] = [j, i];
    left[t] = i;
    right[t] = j;
    height[t] = best;
    const si = size[i]!;
    const sj = size[j]!;
    W -= within[i]! / si + within[j]! / sj;
    within[i] = within[i]! + within[j]! + X[i * n + j]!;
    size[i] = si + sj;
    W += within[i]! / size[i]!;
    active[j] = 0;
    for (let x = 0; x < n; x++) {
      if (!active[x] || x === i) continue;
      const d = (si * D[i * n + x]! + sj * D[j * n + x]!) / (si + sj);
      D[i * n + x] = d;
      D[x * n + i] = d;
      const sq = X[i * n + x]! + X[j * n + x]!;
      X[i * n + x] = sq;
      X[x * n + i] = sq;
    }
    for (let x = 0; x < n; x++) {
      if (!active[x]) continue;
      if (x === i || nn[x] === i || nn[x] === j) refresh(x);
      else if (D[x * n + i]! < nnd[x]!) {
        nn[x] = i;
        nnd[x] = D[x * n + i]!;
      }
    }
    const K = n - t - 1;
    if (K >= 2 && K < n) ch[K] = W === 0 ? Number.POSITIVE_INFINITY : (T - W) / (K - 1) / (W / (n - K));
  }
  return { n, left, right, height, ch };
}

/** Cluster labels (0…K−1, by first item) of the K-cluster level of a dendrogram. */
export function cutTree(tree: Dendrogram, K: number): Int32Array {
  const { n } = tree;
  const parent = Int32Array.from({ length: n }, (_, i) => i);
  const find = (x: number): number => {
    while (parent[x] !== x) {
      parent[x] = parent[parent[x]!]!;
      x = parent[x]!;
    }
    return x;
  };
  const merges = Math.max(0, Math.min(n - 1, n - K));
  for (let t = 0; t < merges; t++) parent[find(tree.right[t]!)] = find(tree.left[t]!);
  const label = new Map<number, number>();
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const r = find(i);
    let l = label.get(r);
    if (l === undefined) {
      l = label.size;
      label.set(r, l);
    }
    out[i] = l;
  }
  return out;
}

/** The K in [minK, maxK] with the highest Calinski–Harabasz index (the smallest such K on ties). */
export function bestByCalinskiHarabasz(tree: Dendrogram, maxK: number, minK = 2): number {
  let best = Math.max(2, minK);
  let bestCh = Number.NEGATIVE_INFINITY;
  for (let K = Math.max(2, minK); K <= Math.min(maxK, tree.n - 1); K++) {
    const v = tree.ch[K]!;
    if (v > bestCh) {
      bestCh = v;
      best = K;
    }
  }
  return Math.min(best, Math.max(1, tree.n));
}
