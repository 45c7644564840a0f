/** seeds: the scores of models trained with seeds 1…n summed (n = 3, 5). */
import { cv, type ExperimentContext } from "./setup.ts";

export default async function seeds(ctx: ExperimentContext): Promise<void> {
  for (const m of [3, 5]) cv(ctx, `${m} seeds' scores summed`, () => undefined, m);
}
