/**
 * clickprop: self-training whose pseudo-labels come first from the AOL subset's click graph (self-training.ts:
 * `ClickPropagation`, `clickLabels`; distant supervision: at classification time the model still sees the query's
 * text only), then, for the pool queries the graph leaves unlabelled, from the fold's own model as in selftrain.
 * Per fold, the hosts' label counts come from the training folds' labelled queries only. CLICKPROP_CONFIGS lists
 * `purity:support:clickWeight:threshold:weight,…` (threshold 2 = no model pseudo-labels); the pool's word
 * features need ≥ 5 users, as shipped.
 */
import type { Example } from "../../src/classify/model.ts";
import { SELF_TRAINING, selfTrain } from "../../src/classify/self-training.ts";
import { aolPoolOrSkip, configs, cv, type ExperimentContext } from "./setup.ts";

export default async function clickprop(ctx: ExperimentContext): Promise<void> {
  const settings = configs<[number, number, number, number, number]>(
    "CLICKPROP_CONFIGS",
    "0.9:3:0.5:0.9:0.5,0.9:3:0.5:2:0",
    ["purity", "support", "clickWeight", "threshold", "weight"],
  );
  const pool = await aolPoolOrSkip(ctx, "clickprop");
  if (pool === undefined) return;
  const queryOf = new Map<Example, string>(ctx.rows.map((r) => [r.ex, r.query]));
  for (const [purity, support, clickWeight, threshold, weight] of settings) {
    let added = 0;
    let byClicks = 0;
    cv(
      ctx,
      `clicks ${purity}/${support}/w ${clickWeight}, model p ≥ ${threshold} w ${weight}`,
      () => undefined,
      1,
      undefined,
      (tr) =>
        selfTrain(
          tr,
          pool,
          {},
          {
            threshold,
            weight,
            minUsers: SELF_TRAINING.minUsers,
            click: { purity, support, weight: clickWeight },
          },
          (e) => queryOf.get(e),
          (a, b) => {
            added += a;
            byClicks += b;
          },
        ),
    );
    console.log(
      `  pseudo-labelled examples per fold: ${(added / 5).toFixed(0)}, ${(byClicks / 5).toFixed(0)} of them through the click graph`,
    );
  }
}
