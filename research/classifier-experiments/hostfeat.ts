/**
 * hostfeat: the hosts a query clicked in the AOL subset as sparse features (`host:<name>`, its share of the query's
 * clicks, as `clicks`), now also on the pool's queries, so that the shipped self-training's pseudo-labelled pool
 * (SELF_TRAINING, both fits) gives the hosts their weights, not the labelled fold alone; a held-out query is scored
 * with its own hosts' features. The inductive counterpart of `hostprop` (it would put sites in the model file).
 * Compare with the text alone of `hostprop` (the same folds and seeds; deterministic). Prints figures only.
 */
import type { Features } from "../../src/classify/features.ts";
import { comparable } from "../../src/classify/labels.ts";
import type { Example } from "../../src/classify/model.ts";
import { SELF_TRAINING, selfTrain } from "../../src/classify/self-training.ts";
import { aolPoolOrSkip, type ExperimentContext, K, withExtra } from "./setup.ts";

export default async function hostfeat(ctx: ExperimentContext): Promise<void> {
  const pool = await aolPoolOrSkip(ctx, "hostfeat");
  if (pool === undefined) return;
  const t0 = process.cpuUsage();
  const hostFeatures = (q: string): [string, number][] => {
    const m = pool.clicks.get(q);
    if (m === undefined) return [["host:none", 1]];
    const tot = [...m.values()].reduce((a, b) => a + b, 0);
    return [...m].map(([h, c]): [string, number] => [`host:${h}`, c / tot]);
  };
  const features: Features[] = pool.features.map(
    (f, j) => withExtra({ features: f, label: 0 }, hostFeatures(pool.queries[j]!)).features,
  );
  const withHosts = { ...pool, features };
  const { rows, fold } = ctx;
  const ex = rows.map((r) => withExtra(r.ex, hostFeatures(comparable(r.query))));
  const queryOf = new Map<Example, string>(ex.map((e, i) => [e, rows[i]!.query]));
  const acc: number[] = [];
  const s = new Float64Array(K);
  for (let f = 0; f < 5; f++) {
    const tr = ex.filter((_, i) => fold[i] !== f);
    const m = selfTrain(tr, withHosts, {}, SELF_TRAINING, (e) => queryOf.get(e));
    let ok = 0;
    let tot = 0;
    ex.forEach((e, i) => {
      if (fold[i] !== f) return;
      m.scores(e.features, s);
      let best = 0;
      for (let c = 1; c < K; c++) if (s[c]! > s[best]!) best = c;
      tot++;
      if (best === e.label) ok++;
    });
    acc.push(ok / tot);
  }
  const mean = acc.reduce((a, b) => a + b, 0) / 5;
  const sd = Math.sqrt(acc.reduce((a, b) => a + (b - mean) ** 2, 0) / 4);
  const c = process.cpuUsage(t0);
  console.log(
    `${"hosts as features, both fits (pool too)".padEnd(44)} CV ${(100 * mean).toFixed(2)} ± ${(100 * sd).toFixed(2)}  (folds ${acc.map((a) => (100 * a).toFixed(1)).join(" ")}; ${((c.user + c.system) / 1e6).toFixed(1)} CPU-s)`,
  );
}
