/**
 * averaging: the shipped self-training (SELF_TRAINING) with its models' weights averaged over the last passes
 * (`TrainOptions.average`): the first model's (which picks the pseudo-labels) and the second's. A retrain after a
 * small change to a few examples moved 7% of the AOL subset's distinct queries to another branch (session 18):
 * the stochastic gradient's last pass lands the weights at one point of their wander. AVERAGE_CONFIGS lists
 * `first:second,…` numbers of passes (1 = the last pass only, as shipped until session 18; 6:6 since).
 */
import type { Example } from "../../src/classify/model.ts";
import { SELF_TRAINING, selfTrain } from "../../src/classify/self-training.ts";
import { aolPoolOrSkip, configs, cv, type ExperimentContext } from "./setup.ts";

export default async function averaging(ctx: ExperimentContext): Promise<void> {
  const settings = configs<[number, number]>(
    "AVERAGE_CONFIGS",
    "1:6,6:6",
    ["first", "second"],
    (x) => Number.isInteger(x) && x >= 1,
  );
  const pool = await aolPoolOrSkip(ctx, "averaging");
  if (pool === undefined) return;
  const byExample = new Map<Example, string>(ctx.rows.map((r) => [r.ex, r.query]));
  for (const [first, second] of settings)
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
