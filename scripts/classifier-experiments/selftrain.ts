/**
 * selftrain: self-training on the AOL subset's unlabelled queries (self-training.ts: readPool, poolFeatures, selfTrain):
 * per fold, the model of the training folds labels the pool (every distinct AOL query in neither train.tsv nor
 * dev.tsv), the confident ones join with a weight < 1, and the model is refitted. SELFTRAIN_CONFIGS lists
 * `threshold:weight:minUsers,…` settings; none uses the click graph (clickprop does).
 */
import { existsSync } from "node:fs";
import { labelledBeside } from "../../src/classify/labels.ts";
import { type PoolExamples, poolFeatures, readPool, selfTrain } from "../../src/classify/self-training.ts";
import { cv, type ExperimentContext, type Options } from "./setup.ts";

export default async function selftrain(ctx: ExperimentContext, options: Options): Promise<void> {
  const { aol, train } = ctx.paths;
  if (!existsSync(aol)) {
    console.log(`selftrain: ${aol} not found; skipping`);
    return;
  }
  const t0 = process.cpuUsage();
  const read = await readPool(aol, labelledBeside(train));
  const pools = new Map<number, PoolExamples>();
  for (const [threshold, weight, minUsers] of options.selftrainConfigs) {
    let pool = pools.get(minUsers);
    if (pool === undefined) {
      pool = poolFeatures(ctx.base, read, minUsers, ctx.emb);
      pools.set(minUsers, pool);
      const c = process.cpuUsage(t0);
      console.log(
        `selftrain: pool of ${pool.queries.length} distinct AOL queries (labelled ones excluded), features ${((c.user + c.system) / 1e6).toFixed(1)} CPU-s`,
      );
    }
    const p = pool;
    let kept = 0;
    cv(
      ctx,
      `self-training p ≥ ${threshold}, weight ${weight}, ≥ ${minUsers} users`,
      () => undefined,
      1,
      undefined,
      (tr) =>
        selfTrain(tr, p, {}, { threshold, weight, minUsers }, undefined, (added) => {
          kept += added;
        }),
    );
    console.log(`  pseudo-labelled examples per fold: ${(kept / 5).toFixed(0)}`);
  }
}
