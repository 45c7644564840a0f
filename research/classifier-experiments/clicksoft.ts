/**
 * clicksoft: the shipped self-training (SELF_TRAINING: clicks 0.95 / 2 / w 1, then the model p ≥ 0.9 w 0.5), and
 * the pool queries whose clicks point to a mix of labels also join, once per label that holds ≥ `minShare` of the
 * click graph's shares, with weight `weight` × that share (a soft target: the same gradient as the mixed label).
 * CLICKSOFT_CONFIGS lists `support:minShare:weight,…` (support: labelled clicks the mix needs).
 */

import { fitLinearModel } from "../../src/classify/fit.ts";
import { TOP_LEVELS } from "../../src/classify/labels.ts";
import type { Example } from "../../src/classify/model.ts";
import { clickLabels, clickShares, confidentClass, SELF_TRAINING } from "../../src/classify/self-training.ts";
import { aolPoolOrSkip, configs, cv, type ExperimentContext, queryOfExample } from "./setup.ts";

export default async function clicksoft(ctx: ExperimentContext): Promise<void> {
  const settings = configs<[number, number, number]>("CLICKSOFT_CONFIGS", "2:0.25:1", [
    "support",
    "minShare",
    "weight",
  ]);
  const pool = await aolPoolOrSkip(ctx, "clicksoft");
  if (pool === undefined) return;
  const queryOf = queryOfExample(ctx);
  const st = SELF_TRAINING;
  const k = TOP_LEVELS.length;
  for (const [support, minShare, weight] of settings) {
    let soft = 0;
    cv(
      ctx,
      `clicks soft ≥ ${support} clicks, share ≥ ${minShare}, w ${weight}`,
      () => undefined,
      1,
      undefined,
      (gold) => {
        const first = fitLinearModel(TOP_LEVELS, gold, {});
        const hard = clickLabels(gold, queryOf, pool, st.click!);
        const { shares, support: sup } = clickShares(gold, queryOf, pool);
        const s = new Float64Array(k);
        const added: Example[] = [];
        pool.features.forEach((f, j) => {
          if (hard[j]! >= 0) {
            added.push({ features: f, label: hard[j]!, weight: st.click!.weight });
            return;
          }
          if (sup[j]! >= support && sup[j]! > 0) {
            let sum = 0;
            for (let c = 0; c < k; c++) sum += shares[j * k + c]!;
            let any = false;
            for (let c = 0; c < k; c++) {
              const p = shares[j * k + c]! / sum;
              if (p >= minShare) {
                added.push({ features: f, label: c, weight: weight * p });
                any = true;
                soft++;
              }
            }
            if (any) return;
          }
          const best = confidentClass(first, f, st.threshold, s);
          if (best >= 0) added.push({ features: f, label: best, weight: st.weight });
        });
        return fitLinearModel(TOP_LEVELS, [...gold, ...added], {});
      },
    );
    console.log(`  soft examples per fold: ${(soft / 5).toFixed(0)}`);
  }
}
