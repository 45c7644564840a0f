/**
 * priorshift: the shipped self-training (SELF_TRAINING), then each class's score moved by α · log(its share of the
 * labelled examples / its share of all the second fit's examples, by weight): the pool's pseudo-labels come mostly
 * from the classes the first model and the click graph are sure of, which shifts the prior the model learns
 * (label-shift correction). PRIORSHIFT_CONFIGS lists the α.
 */
import type { Features } from "../../src/classify/features.ts";
import { fitLinearModel } from "../../src/classify/fit.ts";
import { TOP_LEVELS } from "../../src/classify/labels.ts";
import type { Example, LinearModel } from "../../src/classify/model.ts";
import { pseudoLabelled } from "../../src/classify/self-training.ts";
import { aolPoolOrSkip, configs, cv, type ExperimentContext, K, queryOfExample } from "./setup.ts";

function shares(examples: readonly Example[]): Float64Array {
  const s = new Float64Array(K).fill(1e-3);
  for (const e of examples) s[e.label]! += e.weight ?? 1;
  const sum = s.reduce((a, b) => a + b, 0);
  return s.map((x) => x / sum);
}

export default async function priorshift(ctx: ExperimentContext): Promise<void> {
  const alphas = configs<[number]>("PRIORSHIFT_CONFIGS", "1,0.5", ["alpha"]);
  const pool = await aolPoolOrSkip(ctx, "priorshift");
  if (pool === undefined) return;
  const byExample = queryOfExample(ctx);
  for (const [alpha] of alphas)
    cv(
      ctx,
      `shipped self-training, prior shift × ${alpha}`,
      () => undefined,
      1,
      undefined,
      (gold) => {
        const added = pseudoLabelled(gold, pool, {}, undefined, byExample);
        const all = [...gold, ...added];
        const m = fitLinearModel(TOP_LEVELS, all, {});
        const g = shares(gold);
        const t = shares(all);
        const offset = g.map((x, c) => alpha * Math.log(x / t[c]!));
        return {
          scores: (f: Features) => {
            const s = m.scores(f);
            for (let c = 0; c < K; c++) s[c]! += offset[c]!;
            return s;
          },
        } as unknown as LinearModel;
      },
    );
}
