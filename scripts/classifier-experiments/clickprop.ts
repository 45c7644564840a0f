/**
 * clickprop: self-training whose pseudo-labels come first from the AOL subset's click graph (self-training.ts:
 * `ClickPropagation`, `clickLabels`; distant supervision: at classification time the model still sees the query's
 * text only), then, for the pool queries the graph leaves unlabelled, from the fold's own model as in selftrain.
 * Per fold, the hosts' label counts come from the training folds' labelled queries only. CLICKPROP_CONFIGS lists
 * `purity:support:clickWeight:threshold:weight,…` (threshold 2 = no model pseudo-labels); the pool's word
 * features need ≥ 5 users, as shipped.
 */
import { existsSync } from "node:fs";
import type { Example } from "../../src/classify/model.ts";
import { SELF_TRAINING, selfTrain } from "../../src/classify/self-training.ts";
import { aolPool, cv, type ExperimentContext } from "./setup.ts";

export default async function clickprop(ctx: ExperimentContext): Promise<void> {
  const { aol } = ctx.paths;
  if (!existsSync(aol)) {
    console.log(`clickprop: ${aol} not found; skipping`);
    return;
  }
  const configs = (process.env.CLICKPROP_CONFIGS ?? "0.9:3:0.5:0.9:0.5,0.9:3:0.5:2:0").split(",").map((c) => {
    const x = c.split(":").map(Number);
    if (x.length !== 5 || x.some((v) => !Number.isFinite(v)))
      throw new Error(`CLICKPROP_CONFIGS: "${c}" is not purity:support:clickWeight:threshold:weight`);
    return x as [number, number, number, number, number];
  });
  const pool = await aolPool(ctx);
  const queryOf = new Map<Example, string>(ctx.rows.map((r) => [r.ex, r.query]));
  for (const [purity, support, clickWeight, threshold, weight] of configs) {
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
