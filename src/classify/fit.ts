/**
 * Training the learned decision layer (./model.ts): softmax regression by stochastic gradient with AdaGrad steps and
 * L2 shrinkage, examples visited in a seeded order (the same data and seed give the same weights), optionally the
 * weights averaged over the last passes.
 */
import { Rng } from "../util/random.ts";
import { type Example, LinearModel, type TrainOptions } from "./model.ts";

/** A model of `classes` fitted to `examples`. */
export function fitLinearModel(
  classes: readonly string[],
  examples: readonly Example[],
  opts: TrainOptions = {},
): LinearModel {
  const seed = opts.seed ?? 1;
  const epochs = opts.epochs ?? 12;
  const rate = opts.rate ?? 0.3;
  const l2 = opts.l2 ?? 1e-2;
  const minCount = opts.minCount ?? 2;
  const average = Math.min(opts.average ?? 1, epochs);
  const k = classes.length;
  const counts = new Map<string, number>();
  for (const e of examples)
    for (const n of new Set(e.features.names)) counts.set(n, (counts.get(n) ?? 0) + 1);
  const weights = new Map<string, Float64Array>();
  const grads = new Map<string, Float64Array>();
  for (const [n, c] of counts)
    if (c >= minCount && !opts.exclude?.has(n)) {
      weights.set(n, new Float64Array(k));
      grads.set(n, new Float64Array(k).fill(1e-8));
    }
  const bias = new Float64Array(k);
  const biasG = new Float64Array(k).fill(1e-8);
  const dims = examples.find((e) => e.features.dense !== undefined)?.features.dense?.length ?? 0;
  const dense = new Float64Array(dims * k);
  const denseG = new Float64Array(dims * k).fill(1e-8);
  const model = LinearModel.of(classes, bias, weights, dense);
  const order = examples.map((_, i) => i);
  const rng = Rng.fromSeed(seed);
  const s = new Float64Array(k);
  const g = new Float64Array(k);
  // `average`: the running sums of every weight array (bias, dense, then the features' in the map's order).
  const params = () => [bias, dense, ...weights.values()];
  let sums: Float64Array[] | undefined;
  for (let epoch = 0; epoch < epochs; epoch++) {
    rng.shuffle(order);
    for (const i of order) {
      const e = examples[i]!;
      model.scores(e.features, s);
      let m = Number.NEGATIVE_INFINITY;
      for (let c = 0; c < k; c++) m = Math.max(m, s[c]!);
      let z = 0;
      for (let c = 0; c < k; c++) {
        s[c] = Math.exp(s[c]! - m);
        z += s[c]!;
      }
      const ew = e.weight ?? 1;
      for (let c = 0; c < k; c++) g[c] = ew * (s[c]! / z - (c === e.label ? 1 : 0));
      for (let c = 0; c < k; c++) {
        biasG[c]! += g[c]! * g[c]!;
        bias[c]! -= (rate * g[c]!) / Math.sqrt(biasG[c]!);
      }
      const f = e.features;
      for (let j = 0; j < f.names.length; j++) {
        const w = weights.get(f.names[j]!);
        if (w === undefined) continue;
        const acc = grads.get(f.names[j]!)!;
        const v = f.values[j]!;
        for (let c = 0; c < k; c++) {
          const gc = g[c]! * v + l2 * w[c]!;
          acc[c]! += gc * gc;
          w[c]! -= (rate * gc) / Math.sqrt(acc[c]!);
        }
      }
      const x = f.dense;
      if (x !== undefined)
        for (let d = 0, o = 0; d < dims; d++)
          for (let c = 0; c < k; c++, o++) {
            const gc = g[c]! * x[d]! + l2 * dense[o]!;
            denseG[o]! += gc * gc;
            dense[o]! -= (rate * gc) / Math.sqrt(denseG[o]!);
          }
    }
    if (average > 1 && epoch >= epochs - average) {
      const now = params();
      sums ??= now.map((w) => new Float64Array(w.length));
      now.forEach((w, i) => {
        for (let j = 0; j < w.length; j++) sums![i]![j]! += w[j]!;
      });
    }
  }
  if (sums !== undefined)
    params().forEach((w, i) => {
      for (let j = 0; j < w.length; j++) w[j] = sums![i]![j]! / average;
    });
  return model;
}
