import { SELF_TRAINING, selfTrain } from "../../src/classify/self-training.ts";
import { aolPoolOrSkip, configs, cv, type ExperimentContext, queryOfExample } from "./setup.ts";

export default async function clickprop(ctx: ExperimentContext): Promise<void> {
  const settings = configs<[number, number, number, number, number]>(
    "CLICKPROP_CONFIGS",
    "0.9:3:0.5:0.9:0.5,0.9:3:0.5:2:0",
    ["purity", "support", "clickWeight", "threshold", "weight"],
  );
  const pool = await aolPoolOrSkip(ctx, "clickprop");
  if (pool === undefined) return;
  const queryOf = queryOfExample(ctx);
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
          queryOf,
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
