/**
 * clickrounds: two extensions of the shipped self-training (clicks 0.95 / 2 / 1, then the model's p ≥ 0.9 at
 * 0.5), measured against it on the same folds: `hosts+self` — the sites' label counts also count the pool queries
 * the first model is confident of (p ≥ 0.9), not only the labelled ones; `two rounds` — the self-trained model
 * labels the pool again (clicks as before, then its own p ≥ 0.9) and the model is fitted a third time.
 */
import { existsSync } from "node:fs";
import type { Example, LinearModel } from "../../src/classify/model.ts";
import { clickLabels, confidentClass, SELF_TRAINING, selfTrain } from "../../src/classify/self-training.ts";
import { trainModel } from "../../src/classify/train.ts";
import { aolPool, cv, type ExperimentContext, K, queryOfExample, shippedSelfTraining } from "./setup.ts";

export default async function clickrounds(ctx: ExperimentContext): Promise<void> {
  const { aol } = ctx.paths;
  if (!existsSync(aol)) {
    console.log(`clickrounds: ${aol} not found; skipping`);
    return;
  }
  const st = SELF_TRAINING;
  const cp = st.click!;
  const pool = await aolPool(ctx);
  const queryOf = queryOfExample(ctx);
  const s = new Float64Array(K);
  /** Pseudo-labelled pool examples: the click graph's label, else the model's confident one. */
  const pseudo = (clicks: Int32Array, m: LinearModel): Example[] => {
    const out: Example[] = [];
    pool.features.forEach((f, j) => {
      if (clicks[j]! >= 0) out.push({ features: f, label: clicks[j]!, weight: cp.weight });
      else {
        const c = confidentClass(m, f, st.threshold, s);
        if (c >= 0) out.push({ features: f, label: c, weight: st.weight });
      }
    });
    return out;
  };
  shippedSelfTraining(ctx, pool);
  cv(
    ctx,
    "hosts+self: sites also count confident pool",
    () => undefined,
    1,
    undefined,
    (tr) => {
      const first = trainModel(tr, {});
      const sure: Example[] = [];
      const q = new Map<Example, string>();
      pool.features.forEach((f, j) => {
        const c = confidentClass(first, f, st.threshold, s);
        if (c < 0) return;
        const e = { features: f, label: c };
        sure.push(e);
        q.set(e, pool.queries[j]!);
      });
      const clicks = clickLabels([...tr, ...sure], (e) => queryOf(e) ?? q.get(e), pool, cp);
      return trainModel([...tr, ...pseudo(clicks, first)], {});
    },
  );
  cv(
    ctx,
    "two rounds",
    () => undefined,
    1,
    undefined,
    (tr) => {
      const clicks = clickLabels(tr, (e) => queryOf(e), pool, cp);
      const second = selfTrain(tr, pool, {}, st, (e) => queryOf(e));
      return trainModel([...tr, ...pseudo(clicks, second)], {});
    },
  );
}
