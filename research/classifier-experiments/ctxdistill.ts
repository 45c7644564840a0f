/**
 * ctxdistill: distilling the log context (src/classify/log-context.ts, `classify --context clicks,users`) into the
 * text-only model. Per fold, with the held-out fold's labels never used:
 *
 * 1. model1 = the shipped self-trained model of the training folds (`selfTrain(tr, pool, {}, SELF_TRAINING, queryOf)`,
 *    as logctx);
 * 2. model1's p(·|q) for every distinct query of the AOL subset, and the log context's posteriors
 *    (`contextPosteriors`, the shipped `LOG_CONTEXT`) of every query text of the log (as logcontext's `productEvents`);
 *    a pool query (the subset's distinct queries less train.tsv's and dev.tsv's, compared lower-cased and
 *    single-spaced) takes the mean of its logged texts' posteriors, weighted by their query events;
 * 3. the pool queries whose posterior's largest share is ≥ t join with its argmax as their label and weight w, and
 *    the second model is fitted as `selfTrain`'s second fit (the same options: `SELF_TRAINING.average`, `.refit`; the
 *    pool's features keep only the word features of ≥ `SELF_TRAINING.minUsers` users, as `poolFeatures` computes
 *    them): clicks 0 — variant (a), the context labels replace all of the shipped pseudo-labels; clicks 1 — variant
 *    (b), the click graph's labels (`SELF_TRAINING.click`, from the training folds) stay and the context labels
 *    replace only the model-confidence ones;
 * 4. the second model is scored on the held-out fold by its text alone (argmax of its scores), paired fold by fold
 *    with model1's text alone (the shipped baseline); and, as a secondary figure, with the log context on top
 *    (`contextBranches` of its own p over the log; held-out rows not in the log keep the text's branch), paired with
 *    model1's.
 *
 * The control, ctx 0: the same with model1's own p(·|q) (text alone) in place of the posteriors — a second round of
 * self-training — so that a gain can be told apart from what another round gives by itself.
 *
 * CTXDISTILL_CONFIGS: `t:w:clicks:ctx,…` (default 0.9:0.5:1:1,0.7:0.5:1:1). All settings share one model1 and one set of
 * posteriors per fold, so their CPU-s are given apart from the shared part. Prints counts and figures only, never a
 * query, a host or a user.
 */
import { fitLinearModel } from "../../src/classify/fit.ts";
import { comparable, TOP_LEVELS } from "../../src/classify/labels.ts";
import { contextBranches, contextPosteriors, LOG_CONTEXT } from "../../src/classify/log-context.ts";
import type { Example, LinearModel } from "../../src/classify/model.ts";
import { clickLabels, SELF_TRAINING, selfTrain } from "../../src/classify/self-training.ts";
import { loadLogContext } from "./logcontext.ts";
import { configs, type ExperimentContext, K, queryOfExample } from "./setup.ts";

interface Setting {
  readonly t: number;
  readonly w: number;
  /** 1: variant (b), the click graph's labels kept; 0: variant (a), the context's labels alone. */
  readonly clicks: number;
  /** 1: the context posteriors label the pool; 0: model1's own p (text alone: the control, a second round). */
  readonly ctx: number;
  readonly name: string;
}

const pct = (x: number) => (100 * x).toFixed(1);
const cpuS = (c: NodeJS.CpuUsage) => (c.user + c.system) / 1e6;

function meanSd(a: readonly number[]): [number, number] {
  const m = a.reduce((x, y) => x + y, 0) / a.length;
  return [m, Math.sqrt(a.reduce((x, y) => x + (y - m) ** 2, 0) / Math.max(a.length - 1, 1))];
}

function argmax(x: ArrayLike<number>, from = 0): number {
  let best = 0;
  for (let c = 1; c < K; c++) if (x[from + c]! > x[from + best]!) best = c;
  return best;
}

export default async function ctxdistill(ctx: ExperimentContext): Promise<void> {
  const settings: Setting[] = configs<[number, number, number, number]>(
    "CTXDISTILL_CONFIGS",
    "0.9:0.5:1:1,0.7:0.5:1:1",
    ["t", "w", "clicks", "ctx"],
  ).map(([t, w, clicks, useCtx]) => {
    if (clicks !== 0 && clicks !== 1) throw new Error(`CTXDISTILL_CONFIGS: clicks is 0 or 1, not ${clicks}`);
    if (useCtx !== 0 && useCtx !== 1) throw new Error(`CTXDISTILL_CONFIGS: ctx is 0 or 1, not ${useCtx}`);
    const source = useCtx === 1 ? "context" : "model1 text";
    return { t, w, clicks, ctx: useCtx, name: `t ${t} w ${w} ${clicks === 1 ? "b" : "a"} ${source}` };
  });
  const loaded = await loadLogContext(ctx, "ctxdistill");
  if (loaded === undefined) return;
  const { pool, log, product, t0 } = loaded;
  const { events } = product;

  // Each pool query's logged texts (ids of `events.texts`) and their query events.
  const eventsOf = new Int32Array(events.texts.length);
  for (let e = 0; e < events.n; e++) eventsOf[events.query[e]!]!++;
  const textsOf = new Map<string, number[]>();
  events.texts.forEach((text, q) => {
    const key = comparable(text);
    const l = textsOf.get(key);
    if (l === undefined) textsOf.set(key, [q]);
    else l.push(q);
  });
  const poolTexts = pool.queries.map((q) => textsOf.get(q) ?? []);
  textsOf.clear();
  const P = pool.queries.length;
  const poolLogId = pool.queries.map((q) => log.id(q));
  {
    const c = process.cpuUsage(t0);
    console.log(
      `ctxdistill: ${log.size} distinct AOL queries, ${events.texts.length} logged texts, ${events.n} query events; pool ${P} queries (${poolTexts.filter((x) => x.length === 0).length} without a logged text, ${poolTexts.filter((x) => x.length > 1).length} with several); ${cpuS(c).toFixed(1)} CPU-s`,
    );
  }

  const { rows, fold } = ctx;
  const n = rows.length;
  const queryOf = queryOfExample(ctx);
  const S = settings.length;
  // acc[f]: fold f's accuracies — base text, base + context, then per setting text and + context.
  const baseText: number[] = [];
  const baseCtx: number[] = [];
  const text: number[][] = settings.map(() => []);
  const withCtx: number[][] = settings.map(() => []);
  const settingCpu = new Float64Array(S);
  let sharedCpu = 0;
  const s = new Float64Array(K);
  const poolPost = new Float64Array(P * K);
  const poolBest = new Int8Array(P);
  const poolMax = new Float64Array(P);

  /** Held-out accuracy of `model`: its text alone, and with the log context on top (its own p over the log). */
  // Text-alone hits of each held-out row: [0] the shipped model1, [1 + k] setting k (for the in-log split).
  const hit = [0, ...settings.map(() => 0)].map(() => new Uint8Array(n));
  const inLog = rows.map((r) => log.id(r.query) !== undefined);
  const score = (f: number, model: LinearModel, p: Float64Array, slot: number): [number, number] => {
    const branches = contextBranches(events, product.probs(p), K, LOG_CONTEXT);
    let tot = 0;
    let okText = 0;
    let okCtx = 0;
    for (let i = 0; i < n; i++) {
      if (fold[i] !== f) continue;
      tot++;
      model.scores(rows[i]!.ex.features, s);
      const b = argmax(s);
      const bc = product.branchOf(rows[i]!.query, branches);
      if (b === rows[i]!.ex.label) {
        okText++;
        hit[slot]![i] = 1;
      }
      if ((bc < 0 ? b : bc) === rows[i]!.ex.label) okCtx++;
    }
    return [okText / tot, okCtx / tot];
  };

  for (let f = 0; f < 5; f++) {
    const tf = process.cpuUsage();
    const tr = rows.filter((_, i) => fold[i] !== f).map((r) => r.ex);
    const model1 = selfTrain(tr, pool, {}, SELF_TRAINING, queryOf);
    const p1 = log.probs(model1);
    const post = contextPosteriors(events, product.probs(p1), K, LOG_CONTEXT);
    // Each pool query's posterior: its texts' mean, weighted by their events (model1's p where it has none).
    poolPost.fill(0);
    let moved = 0;
    for (let j = 0; j < P; j++) {
      let wsum = 0;
      for (const q of poolTexts[j]!) {
        const pq = post[q];
        if (pq === undefined) continue;
        const wq = Math.max(eventsOf[q]!, 1);
        for (let c = 0; c < K; c++) poolPost[j * K + c]! += wq * pq[c]!;
        wsum += wq;
      }
      const id = poolLogId[j];
      if (wsum === 0 && id !== undefined) {
        for (let c = 0; c < K; c++) poolPost[j * K + c] = p1[id * K + c]!;
        wsum = 1;
      }
      if (wsum > 0) for (let c = 0; c < K; c++) poolPost[j * K + c]! /= wsum;
      poolBest[j] = argmax(poolPost, j * K);
      poolMax[j] = wsum > 0 ? poolPost[j * K + poolBest[j]!]! : 0;
      if (id !== undefined && wsum > 0 && poolBest[j] !== argmax(p1, id * K)) moved++;
    }
    post.length = 0;
    const byClicks = clickLabels(tr, queryOf, pool, SELF_TRAINING.click!);
    const [bt, bc] = score(f, model1, p1, 0);
    baseText.push(bt);
    baseCtx.push(bc);
    const shared = cpuS(process.cpuUsage(tf));
    sharedCpu += shared;
    const clicked = byClicks.reduce((a, c) => a + (c >= 0 ? 1 : 0), 0);
    console.log(
      `  fold ${f + 1}: shipped model1 text ${pct(bt)}%, + context ${pct(bc)}%; pool: ${clicked} click-graph labels, ${moved} queries whose context argmax differs from model1's; ${shared.toFixed(1)} CPU-s (model1 + posteriors)`,
    );
    settings.forEach((st, k) => {
      const ts = process.cpuUsage();
      const added: Example[] = [];
      let fromClicks = 0;
      let fromCtx = 0;
      let ctxMoved = 0;
      for (let j = 0; j < P; j++) {
        const c = st.clicks === 1 ? byClicks[j]! : -1;
        if (c >= 0) {
          added.push({ features: pool.features[j]!, label: c, weight: SELF_TRAINING.click!.weight });
          fromClicks++;
          continue;
        }
        const id = poolLogId[j];
        if (st.ctx === 1) {
          if (poolMax[j]! < st.t) continue;
          added.push({ features: pool.features[j]!, label: poolBest[j]!, weight: st.w });
          fromCtx++;
          if (id !== undefined && poolBest[j] !== argmax(p1, id * K)) ctxMoved++;
        } else if (id !== undefined) {
          const b = argmax(p1, id * K);
          if (p1[id * K + b]! < st.t) continue;
          added.push({ features: pool.features[j]!, label: b, weight: st.w });
          fromCtx++;
        }
      }
      const model2 = fitLinearModel(TOP_LEVELS, [...tr, ...added], {
        ...(SELF_TRAINING.average === undefined ? {} : { average: SELF_TRAINING.average }),
        ...SELF_TRAINING.refit,
      });
      const [at, ac] = score(f, model2, log.probs(model2), 1 + k);
      text[k]!.push(at);
      withCtx[k]!.push(ac);
      const c = cpuS(process.cpuUsage(ts));
      settingCpu[k]! += c;
      console.log(
        `    ${st.name.padEnd(30)} text ${pct(at)}% (Δ ${(100 * (at - bt)).toFixed(1)}), + context ${pct(ac)}% (Δ ${(100 * (ac - bc)).toFixed(1)}); pseudo-labels ${added.length} (${fromClicks} click graph, ${fromCtx} ${st.ctx === 1 ? "context" : "model1"}, ${ctxMoved} not model1's argmax); ${c.toFixed(1)} CPU-s`,
      );
    });
  }

  const line = (name: string, a: readonly number[], base: readonly number[]) => {
    const [m, sd] = meanSd(a);
    const diff = a.map((x, f) => x - base[f]!);
    console.log(
      `${name.padEnd(44)} ${(100 * m).toFixed(2)} ± ${(100 * sd).toFixed(2)}  folds ${a.map(pct).join(" ")}  above shipped ${diff.filter((x) => x > 0).length}/5  Δ ${(100 * meanSd(diff)[0]).toFixed(2)}`,
    );
  };
  console.log("\nheld-out fold, text alone (paired with the shipped self-trained model's text alone):");
  line("shipped self-training", baseText, baseText);
  settings.forEach((st, k) => {
    line(`ctxdistill ${st.name}`, text[k]!, baseText);
  });
  const split = (slot: number, want: boolean) => {
    let ok = 0;
    let tot = 0;
    for (let i = 0; i < n; i++)
      if (inLog[i] === want) {
        tot++;
        ok += hit[slot]![i]!;
      }
    return `${((100 * ok) / Math.max(tot, 1)).toFixed(2)}% of ${tot}`;
  };
  console.log("  text alone pooled over the folds, held-out rows in the AOL subset | not in it:");
  ["shipped self-training", ...settings.map((st) => `ctxdistill ${st.name}`)].forEach((name, slot) => {
    console.log(`  ${name.padEnd(42)} ${split(slot, true)} | ${split(slot, false)}`);
  });
  console.log("\nheld-out fold, the log context on top (paired with the shipped model + context):");
  line("shipped self-training + context", baseCtx, baseCtx);
  settings.forEach((st, k) => {
    line(`ctxdistill ${st.name} + context`, withCtx[k]!, baseCtx);
  });
  console.log(
    `\nCPU-s: shared per run (5 × model1 + posteriors) ${sharedCpu.toFixed(1)}; per setting ${settings.map((st, k) => `${st.name} ${settingCpu[k]!.toFixed(1)}`).join("; ")}; ctxdistill total ${cpuS(process.cpuUsage(t0)).toFixed(1)} after the pool`,
  );
}
