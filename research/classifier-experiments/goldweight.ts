/**
 * goldweight: the shipped self-training (SELF_TRAINING), with the labelled queries counting `w` times in the second
 * fit: the ~13,000 click-labelled and ~38,000 model-labelled pool queries outweigh the 3,600 labelled ones of a
 * fold several times over. GOLDWEIGHT_CONFIGS lists the weights.
 */

import { fitLinearModel } from "../../src/classify/fit.ts";
import { TOP_LEVELS } from "../../src/classify/labels.ts";
import { pseudoLabelled } from "../../src/classify/self-training.ts";
import { aolPoolOrSkip, configs, cv, type ExperimentContext, queryOfExample } from "./setup.ts";

export default async function goldweight(ctx: ExperimentContext): Promise<void> {
  const weights = configs<[number]>("GOLDWEIGHT_CONFIGS", "2,3", ["weight"], (x) => x > 0);
  const pool = await aolPoolOrSkip(ctx, "goldweight");
  if (pool === undefined) return;
  const byExample = queryOfExample(ctx);
  for (const [w] of weights)
    cv(
      ctx,
      `shipped self-training, labelled queries × ${w}`,
      () => undefined,
      1,
      undefined,
      (gold) => {
        const added = pseudoLabelled(gold, pool, {}, undefined, byExample);
        return fitLinearModel(TOP_LEVELS, [...gold.map((e) => ({ ...e, weight: w })), ...added], {});
      },
    );
}
