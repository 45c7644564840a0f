import { SELF_TRAINING, selfTrain } from "../../src/classify/self-training.ts";
import { aolPoolOrSkip, configs, cv, type ExperimentContext, queryOfExample } from "./setup.ts";

export default async function averaging(ctx: ExperimentContext): Promise<void> {
  const settings = configs<[number, number]>(
    "AVERAGE_CONFIGS",
    "1:6,6:6",
    ["first", "second"],
    (x) => Number.isInteger(x) && x >= 1,
  );
  const pool = await aolPoolOrSkip(ctx, "averaging");
  if (pool === undefined) return;
  const byExample = queryOfExample(ctx);
  for (const [first, second] of settings)
    cv(
      ctx,
      `shipped self-training, weights averaged over ${first} / ${second} passes`,
      () => undefined,
      1,
      undefined,
      (gold) =>
        selfTrain(
          gold,
          pool,
          {},
          { ...SELF_TRAINING, average: first, refit: { average: second } },
          byExample,
        ),
    );
}
