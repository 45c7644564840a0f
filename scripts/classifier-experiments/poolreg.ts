/**
 * poolreg: the shipped self-training (clicks, then the model; `SELF_TRAINING`) with other options for its second
 * fit, whose training set is ten times the labelled one: the L2 shrinkage, passes and step were chosen on the
 * labelled queries alone (docs/classifier.md). POOLREG_CONFIGS lists `l2:epochs:rate,…`.
 */
import type { Example } from "../../src/classify/model.ts";
import { SELF_TRAINING, selfTrain } from "../../src/classify/self-training.ts";
import { aolPoolOrSkip, configs, cv, type ExperimentContext } from "./setup.ts";

export default async function poolreg(ctx: ExperimentContext): Promise<void> {
  const settings = configs<[number, number, number]>("POOLREG_CONFIGS", "0.01:12:0.3,0.003:12:0.3", [
    "l2",
    "epochs",
    "rate",
  ]);
  const pool = await aolPoolOrSkip(ctx, "poolreg");
  if (pool === undefined) return;
  const queryOf = new Map<Example, string>(ctx.rows.map((r) => [r.ex, r.query]));
  for (const [l2, epochs, rate] of settings)
    cv(
      ctx,
      `shipped self-training, refit L2 ${l2} ${epochs} passes at ${rate}`,
      () => undefined,
      1,
      undefined,
      (tr) =>
        selfTrain(tr, pool, {}, { ...SELF_TRAINING, refit: { l2, epochs, rate } }, (e) => queryOf.get(e)),
    );
}
