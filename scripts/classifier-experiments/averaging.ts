/**
 * averaging: the shipped self-training (SELF_TRAINING) with its models' weights averaged over the last passes
 * (`TrainOptions.average`): the first model's (which picks the pseudo-labels) and the second's. A retrain after a
 * small change to a few examples moved 7% of the AOL subset's distinct queries to another branch (session 18):
 * the stochastic gradient's last pass lands the weights at one point of their wander. AVERAGE_CONFIGS lists
 * `first:second,…` numbers of passes (1 = the last pass only, as shipped until session 18; 6:6 since).
 */
import { existsSync } from "node:fs";
import type { Example } from "../../src/classify/model.ts";
import { SELF_TRAINING, selfTrain } from "../../src/classify/self-training.ts";
import { aolPool, cv, type ExperimentContext } from "./setup.ts";

export default async function averaging(ctx: ExperimentContext): Promise<void> {
  const { aol } = ctx.paths;
  if (!existsSync(aol)) {
    console.log(`averaging: ${aol} not found; skipping`);
    return;
  }
  const configs = (process.env.AVERAGE_CONFIGS ?? "1:6,6:6").split(",").map((c) => {
    const x = c.split(":").map(Number);
    if (x.length !== 2 || x.some((v) => !Number.isInteger(v) || v < 1))
      throw new Error(`AVERAGE_CONFIGS: "${c}" is not first:second (whole numbers ≥ 1)`);
    return x as [number, number];
  });
  const pool = await aolPool(ctx);
  const byExample = new Map<Example, string>(ctx.rows.map((r) => [r.ex, r.query]));
  for (const [first, second] of configs)
    cv(
      ctx,
      `shipped self-training, weights averaged over ${first} / ${second} passes`,
      () => undefined,
      1,
      undefined,
      (gold) =>
        selfTrain(gold, pool, {}, { ...SELF_TRAINING, average: first, refit: { average: second } }, (e) =>
          byExample.get(e),
        ),
    );
}
