/**
 * hidden: a layer of tanh units on the mean word vector beside the linear model, scores = linear part + W2 ·
 * tanh(W1 · dense + b1), all trained jointly by the shipped model's SGD (AdaGrad base 0.3, L2 1e-2 per update, 12
 * passes, features seen in < 2 training queries left out). HIDDEN_UNITS lists the layer sizes (default 64,128).
 */
import { DENSE_LENGTH, type Features } from "../../src/classify/features.ts";
import type { Example, LinearModel } from "../../src/classify/model.ts";
import { Rng } from "../../src/util/random.ts";
import { cv, DIMS, type ExperimentContext, K, type Options } from "./setup.ts";

/**
 * Fits the linear model and the hidden layer jointly (each example's gradient × its weight); with `average` > 1,
 * every weight is the mean of its values after the last `average` passes (as `TrainOptions.average`).
 */
export function hybrid(tr: Example[], units: number, seed: number, average = 1): LinearModel {
  const rate = 0.3;
  const l2 = 1e-2;
  const counts = new Map<string, number>();
  for (const e of tr) for (const nm of new Set(e.features.names)) counts.set(nm, (counts.get(nm) ?? 0) + 1);
  const w = new Map<string, Float64Array>();
  const gw = new Map<string, Float64Array>();
  for (const [nm, c] of counts)
    if (c >= 2) {
      w.set(nm, new Float64Array(K));
      gw.set(nm, new Float64Array(K).fill(1e-8));
    }
  const bias = new Float64Array(K);
  const gb = new Float64Array(K).fill(1e-8);
  const dense = new Float64Array(DIMS * K);
  const gd = new Float64Array(DIMS * K).fill(1e-8);
  const rng = Rng.fromSeed(seed);
  const w1 = Float64Array.from({ length: units * DIMS }, () => (rng.float() * 2 - 1) * Math.sqrt(3));
  const g1 = new Float64Array(units * DIMS).fill(1e-8);
  const b1 = new Float64Array(units);
  const gb1 = new Float64Array(units).fill(1e-8);
  const w2 = new Float64Array(K * units);
  const g2 = new Float64Array(K * units).fill(1e-8);
  const h = new Float64Array(units);
  const s = new Float64Array(K);
  const g = new Float64Array(K);
  const dh = new Float64Array(units);
  const score = (f: Features) => {
    s.set(bias);
    for (let j = 0; j < f.names.length; j++) {
      const v = w.get(f.names[j]!);
      if (v !== undefined) for (let c = 0; c < K; c++) s[c]! += f.values[j]! * v[c]!;
    }
    const x = f.dense;
    if (x === undefined) {
      h.fill(0);
      return;
    }
    for (let d = 0, o = 0; d < DIMS; d++) for (let c = 0; c < K; c++, o++) s[c]! += x[d]! * dense[o]!;
    for (let u = 0; u < units; u++) {
      let a = b1[u]!;
      for (let d = 0; d < DIMS; d++) a += w1[u * DIMS + d]! * (x[d]! / DENSE_LENGTH);
      h[u] = Math.tanh(a);
    }
    for (let c = 0; c < K; c++) for (let u = 0; u < units; u++) s[c]! += w2[c * units + u]! * h[u]!;
  };
  const ada = (wt: Float64Array, acc: Float64Array, i: number, grad: number) => {
    const gc = grad + l2 * wt[i]!;
    acc[i]! += gc * gc;
    wt[i]! -= (rate * gc) / Math.sqrt(acc[i]!);
  };
  const order = tr.map((_, i) => i);
  // `average`: the weights are the mean of their values after the last `average` passes (as TrainOptions.average).
  const params = () => [bias, dense, w1, b1, w2, ...w.values()];
  let sums: Float64Array[] | undefined;
  for (let epoch = 0; epoch < 12; epoch++) {
    rng.shuffle(order);
    for (const i of order) {
      const e = tr[i]!;
      const f = e.features;
      score(f);
      let m = Number.NEGATIVE_INFINITY;
      for (let c = 0; c < K; c++) m = Math.max(m, s[c]!);
      let z = 0;
      for (let c = 0; c < K; c++) z += Math.exp(s[c]! - m);
      const wt = e.weight ?? 1;
      for (let c = 0; c < K; c++) g[c] = wt * (Math.exp(s[c]! - m) / z - (c === e.label ? 1 : 0));
      for (let c = 0; c < K; c++) ada(bias, gb, c, g[c]!);
      for (let j = 0; j < f.names.length; j++) {
        const v = w.get(f.names[j]!);
        if (v !== undefined)
          for (let c = 0; c < K; c++) ada(v, gw.get(f.names[j]!)!, c, g[c]! * f.values[j]!);
      }
      const x = f.dense;
      if (x === undefined) continue;
      for (let d = 0, o = 0; d < DIMS; d++) for (let c = 0; c < K; c++, o++) ada(dense, gd, o, g[c]! * x[d]!);
      dh.fill(0);
      for (let c = 0; c < K; c++)
        for (let u = 0; u < units; u++) {
          dh[u]! += g[c]! * w2[c * units + u]!;
          ada(w2, g2, c * units + u, g[c]! * h[u]!);
        }
      for (let u = 0; u < units; u++) {
        const da = dh[u]! * (1 - h[u]! * h[u]!);
        ada(b1, gb1, u, da);
        for (let d = 0; d < DIMS; d++) ada(w1, g1, u * DIMS + d, da * (x[d]! / DENSE_LENGTH));
      }
    }
    if (average > 1 && epoch >= 12 - average) {
      const now = params();
      sums ??= now.map((a) => new Float64Array(a.length));
      now.forEach((a, i) => {
        for (let j = 0; j < a.length; j++) sums![i]![j]! += a[j]!;
      });
    }
  }
  if (sums !== undefined)
    params().forEach((a, i) => {
      for (let j = 0; j < a.length; j++) a[j] = sums![i]![j]! / average;
    });
  return {
    scores: (f: Features) => {
      score(f);
      return Float64Array.from(s);
    },
  } as unknown as LinearModel;
}

export default async function hidden(ctx: ExperimentContext, options: Options): Promise<void> {
  for (const units of options.hiddenUnits)
    cv(
      ctx,
      `+ hidden layer of ${units} tanh units on the mean vector`,
      () => undefined,
      1,
      undefined,
      (tr, seed) => hybrid(tr, units, seed),
    );
}
