/**
 * goldweight: the shipped self-training (SELF_TRAINING), with the labelled queries counting `w` times in the second
 * fit: the ~13,000 click-labelled and ~38,000 model-labelled pool queries outweigh the 3,600 labelled ones of a
 * fold several times over. GOLDWEIGHT_CONFIGS lists the weights.
 */
import { existsSync } from "node:fs";
import { TOP_LEVELS } from "../../src/classify/labels.ts";
import { type Example, LinearModel } from "../../src/classify/model.ts";
import { pseudoLabelled } from "../../src/classify/self-training.ts";
import { aolPool, cv, type ExperimentContext } from "./setup.ts";

export default async function goldweight(ctx: ExperimentContext): Promise<void> {
  const { aol } = ctx.paths;
  if (!existsSync(aol)) {
    console.log(`goldweight: ${aol} not found; skipping`);
    return;
  }
  const weights = (process.env.GOLDWEIGHT_CONFIGS ?? "2,3").split(",").map((c) => {
    const x = Number(c);
    if (c.trim() === "" || !(x > 0)) throw new Error(`GOLDWEIGHT_CONFIGS: "${c}" is not a positive number`);
    return x;
  });
  const pool = await aolPool(ctx);
  const byExample = new Map<Example, string>(ctx.rows.map((r) => [r.ex, r.query]));
  for (const w of weights)
    cv(
      ctx,
      `shipped self-training, labelled queries × ${w}`,
      () => undefined,
      1,
      undefined,
      (gold) => {
        const added = pseudoLabelled(gold, pool, {}, undefined, (e) => byExample.get(e));
        return LinearModel.train(TOP_LEVELS, [...gold.map((e) => ({ ...e, weight: w })), ...added], {});
      },
    );
}
