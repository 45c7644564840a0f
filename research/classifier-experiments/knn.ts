/**
 * knn: the label votes of the k training queries nearest in mean-word-vector space (training fold only,
 * leave-one-out for the fold's own examples).
 */
import { cv, dot, type ExperimentContext, K, meanVector } from "./setup.ts";

export default async function knn(ctx: ExperimentContext): Promise<void> {
  const { rows, fold } = ctx;
  const n = rows.length;
  const vecs = rows.map((r) => meanVector(ctx.emb, r.words));
  for (const [k, power, scale] of [
    [10, 1, 1],
    [10, 1, 3],
    [25, 3, 3],
  ] as const) {
    cv(ctx, `knn k=${k}, cos^${power}, ×${scale}`, (f) => {
      const memo = new Map<number, [string, number][]>();
      return (_, i) => {
        const hit = memo.get(i);
        if (hit !== undefined) return hit;
        const v = vecs[i];
        const votes = new Float64Array(K);
        if (v !== undefined) {
          const near: [number, number][] = [];
          for (let j = 0; j < n; j++) {
            const u = vecs[j];
            if (j === i || fold[j] === f || u === undefined) continue;
            const s = dot(v, u);
            if (near.length < k || s > near[near.length - 1]![0]) {
              near.push([s, j]);
              near.sort((a, b) => b[0] - a[0]);
              if (near.length > k) near.pop();
            }
          }
          let z = 0;
          for (const [s, j] of near) {
            const w = Math.max(s, 0) ** power;
            votes[rows[j]!.ex.label]! += w;
            z += w;
          }
          if (z > 0) for (let t = 0; t < K; t++) votes[t]! /= z;
        }
        const out = [...votes].map((x, t): [string, number] => [`knn:${t}`, scale * x]);
        memo.set(i, out);
        return out;
      };
    });
  }
}
