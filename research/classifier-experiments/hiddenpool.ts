/**
 * hiddenpool: hidden's tanh layer on the mean word vector beside the linear part, fitted on the labelled queries
 * plus the shipped self-training's pseudo-labelled pool queries (`pseudoLabelled`, SELF_TRAINING): with ten
 * times the examples, a layer that was within noise on the labelled queries alone may pay. HIDDEN_UNITS lists the
 * layer sizes. Its weights are averaged over the last passes as the shipped fits' are (`SELF_TRAINING.average`).
 */
import { existsSync } from "node:fs";
import { pseudoLabelled, SELF_TRAINING } from "../../src/classify/self-training.ts";
import { hybrid } from "./hidden.ts";
import { aolPool, cv, type ExperimentContext, type Options, queryOfExample } from "./setup.ts";

export default async function hiddenpool(ctx: ExperimentContext, options: Options): Promise<void> {
  const { aol } = ctx.paths;
  if (!existsSync(aol)) {
    console.log(`hiddenpool: ${aol} not found; skipping`);
    return;
  }
  const pool = await aolPool(ctx);
  const byExample = queryOfExample(ctx);
  for (const units of options.hiddenUnits)
    cv(
      ctx,
      `shipped self-training + hidden layer of ${units}`,
      () => undefined,
      1,
      undefined,
      (gold, seed) =>
        hybrid(
          [...gold, ...pseudoLabelled(gold, pool, {}, undefined, byExample)],
          units,
          seed,
          SELF_TRAINING.average,
        ),
    );
}
