import { SELF_TRAINING, selfTrain } from "../../src/classify/self-training.ts";
import { aolPoolOrSkip, configs, cv, type ExperimentContext, queryOfExample } from "./setup.ts";

export default async function poolreg(ctx: ExperimentContext): Promise<void> {
  const settings = configs<[number, number, number]>("POOLREG_CONFIGS", "0.01:12:0.3,0.003:12:0.3", [
    "l2",
    "epochs",
    "rate",
  ]);
  const pool = await aolPoolOrSkip(ctx, "poolreg");
  if (pool === undefined) return;
  const queryOf = queryOfExample(ctx);
  for (const [l2, epochs, rate] of settings)
    cv(
      ctx,
      `shipped self-training, refit L2 ${l2} ${epochs} passes at ${rate}`,
      () => undefined,
      1,
      undefined,
      (tr) => selfTrain(tr, pool, {}, { ...SELF_TRAINING, refit: { l2, epochs, rate } }, queryOf),
    );
}
