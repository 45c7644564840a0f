/**
 * selftrain: self-training on the AOL subset's unlabelled queries (self-training.ts: readPool, poolFeatures, selfTrain):
 * per fold, the model of the training folds labels the pool (every distinct AOL query in neither train.tsv nor
 * dev.tsv), the confident ones join with a weight < 1, and the model is refitted. SELFTRAIN_CONFIGS lists
 * `threshold:weight:minUsers,…` settings; none uses the click graph (clickprop does).
 */
import { existsSync } from "node:fs";
import { selfTrain } from "../../src/classify/self-training.ts";
import { aolPool, cv, type ExperimentContext, type Options } from "./setup.ts";

export default async function selftrain(ctx: ExperimentContext, options: Options): Promise<void> {
  const { aol } = ctx.paths;
  if (!existsSync(aol)) {
    console.log(`selftrain: ${aol} not found; skipping`);
    return;
  }
  for (const [threshold, weight, minUsers] of options.selftrainConfigs) {
    const pool = await aolPool(ctx, minUsers);
    let kept = 0;
    cv(
      ctx,
      `self-training p ≥ ${threshold}, weight ${weight}, ≥ ${minUsers} users`,
      () => undefined,
      1,
      undefined,
      (tr) =>
        selfTrain(tr, pool, {}, { threshold, weight, minUsers }, undefined, (added) => {
          kept += added;
        }),
    );
    console.log(`  pseudo-labelled examples per fold: ${(kept / 5).toFixed(0)}`);
  }
}
