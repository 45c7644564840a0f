/** classweights: each training example repeated round((largest class / its class)^p) times, at most 4. */
import type { Example } from "../../src/classify/model.ts";
import { cv, type ExperimentContext, K } from "./setup.ts";

export default async function classweights(ctx: ExperimentContext): Promise<void> {
  for (const p of [0.25, 0.5]) {
    cv(
      ctx,
      `class weights (size ratio)^${p}`,
      () => undefined,
      1,
      (tr) => {
        const size = new Array<number>(K).fill(0);
        for (const e of tr) size[e.label]!++;
        const largest = Math.max(...size);
        return tr.flatMap((e) =>
          new Array<Example>(Math.min(4, Math.round((largest / size[e.label]!) ** p))).fill(e),
        );
      },
    );
  }
}
