/**
 * sessionprop: the shipped self-training (clicks, then the model) plus labels carried along sessions: a pool
 * query the click graph leaves unlabelled takes the label of a training-fold labelled query that the same user
 * typed within SESSIONPROP_MINUTES (default 10) of it and that shares a content word with it, when all such
 * labelled neighbours agree; weight 1.
 */
import { existsSync } from "node:fs";
import { isContentWord } from "../../src/classify/features.ts";
import { comparable } from "../../src/classify/labels.ts";
import type { Example } from "../../src/classify/model.ts";
import { clickLabels, confidentClass, SELF_TRAINING } from "../../src/classify/self-training.ts";
import { trainModel } from "../../src/classify/train.ts";
import {
  aolPool,
  aolRows,
  cv,
  type ExperimentContext,
  K,
  queryOfExample,
  shippedSelfTraining,
} from "./setup.ts";

export default async function sessionprop(ctx: ExperimentContext): Promise<void> {
  const { aol } = ctx.paths;
  const lines = existsSync(aol) ? aolRows(ctx.paths) : undefined;
  if (lines === undefined) {
    console.log(`sessionprop: ${aol} not found; skipping`);
    return;
  }
  const window = 60 * Number(process.env.SESSIONPROP_MINUTES ?? 10);
  const st = SELF_TRAINING;
  const pool = await aolPool(ctx);
  const poolIndex = new Map(pool.queries.map((q, j) => [q, j]));
  const rowOf = new Map(ctx.rows.map((r, i) => [comparable(r.query), i]));
  // Per pool query, the labelled rows typed near it by the same user that share a content word with it.
  const near: number[][] = pool.queries.map(() => []);
  let user = "";
  let events: { q: string; t: number }[] = [];
  const flush = () => {
    for (let a = 0; a < events.length; a++) {
      const j = poolIndex.get(events[a]!.q);
      if (j === undefined) continue;
      const words = new Set(events[a]!.q.split(" ").filter(isContentWord));
      for (let b = 0; b < events.length; b++) {
        if (Math.abs(events[b]!.t - events[a]!.t) > window) continue;
        const i = rowOf.get(events[b]!.q);
        if (i === undefined) continue;
        if (events[b]!.q.split(" ").some((w) => words.has(w)) && !near[j]!.includes(i)) near[j]!.push(i);
      }
    }
    events = [];
  };
  for (const line of lines) {
    const c = line.split("\t");
    if (c.length < 3 || !c[1]) continue;
    if (c[0] !== user) {
      flush();
      user = c[0]!;
    }
    events.push({ q: comparable(c[1]), t: Date.parse(`${c[2]!.replace(" ", "T")}Z`) / 1000 });
  }
  flush();
  console.log(
    `sessionprop: ${near.filter((n) => n.length > 0).length} pool queries have a labelled neighbour`,
  );
  const queryOf = queryOfExample(ctx);
  shippedSelfTraining(ctx, pool);
  let added = 0;
  cv(
    ctx,
    `+ session neighbours (${window / 60} min)`,
    () => undefined,
    1,
    undefined,
    (tr) => {
      const inFold = new Set(tr);
      const clicks = clickLabels(tr, (e) => queryOf(e), pool, st.click!);
      const first = trainModel(tr, {});
      const s = new Float64Array(K);
      const ex: Example[] = [];
      pool.features.forEach((f, j) => {
        if (clicks[j]! >= 0) {
          ex.push({ features: f, label: clicks[j]!, weight: st.click!.weight });
          return;
        }
        const labels = new Set(
          near[j]!.filter((i) => inFold.has(ctx.rows[i]!.ex)).map((i) => ctx.rows[i]!.ex.label),
        );
        if (labels.size === 1) {
          ex.push({ features: f, label: [...labels][0]!, weight: 1 });
          added++;
          return;
        }
        const b = confidentClass(first, f, st.threshold, s);
        if (b >= 0) ex.push({ features: f, label: b, weight: st.weight });
      });
      return trainModel([...tr, ...ex], {});
    },
  );
  console.log(`  session-labelled per fold: ${(added / 5).toFixed(0)}`);
}
