/**
 * poolseeds: the shipped self-training fitted with seeds 1…n (both fits: the first model's pseudo-labels and the
 * refit), the n models' scores summed. The scores are linear in the weights, so the sum is itself one linear model
 * (the weights summed): an ensemble that costs nothing at classification time. POOLSEEDS_CONFIGS: the n to try
 * (default 1,3).
 */
import { SELF_TRAINING, selfTrain } from "../../src/classify/self-training.ts";
import { aolPoolOrSkip, configs, cv, type ExperimentContext, queryOfExample } from "./setup.ts";

export default async function poolseeds(ctx: ExperimentContext): Promise<void> {
  const ns = configs<[number]>("POOLSEEDS_CONFIGS", "1,3", ["n"], (x) => Number.isInteger(x) && x >= 1);
  const pool = await aolPoolOrSkip(ctx, "poolseeds");
  if (pool === undefined) return;
  const byExample = queryOfExample(ctx);
  for (const [n] of ns)
    cv(
      ctx,
      `shipped self-training, ${n} seed${n === 1 ? "" : "s"} summed`,
      () => undefined,
      n,
      undefined,
      (gold, seed) => selfTrain(gold, pool, { seed }, SELF_TRAINING, byExample),
    );
}
