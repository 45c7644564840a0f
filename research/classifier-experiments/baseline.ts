/** baseline: the shipped features alone, the figure the others are compared with. */
import { cv, type ExperimentContext } from "./setup.ts";

export default async function baseline(ctx: ExperimentContext): Promise<void> {
  cv(ctx, "shipped features", () => undefined);
}
