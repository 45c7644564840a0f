/**
 * userctx: a transductive user prior at classification time, on top of each fold's shipped self-trained model
 * (clicks, then the model; `selfTrain(tr, pool, {}, SELF_TRAINING, queryOf)`). The fold's model gives every
 * distinct query of the AOL subset its branch probabilities p(·|q'). A held-out labelled query q is scored
 *
 *   score(c) = log p(c|q) + γ · log D̃(c)        ("D")   or   + γ · log(D̃(c) / prior(c))   ("D/prior")
 *
 * where D = Σ over the users who typed q, over their other query events (every event of q's own text left out;
 * with a window T, only those within T minutes of one of that user's events of q) of p(·|q'), and
 * D̃(c) = (D(c) + α·prior(c)) / (|D| + α), prior = the training folds' label shares, α = USERCTX_ALPHA (5).
 * "gold": the training folds' labelled queries count as their one-hot gold label instead of p (the held-out
 * fold's labels are never read except to score). The whole grid T × γ × form × gold is evaluated on the same five
 * fold models, so every setting is paired with the shipped self-training (γ = 0) fold by fold. One setting is
 * also picked honestly: for each fold, the setting with the best mean accuracy on the OTHER four held-out folds.
 * Prints counts and figures only, never a query.
 */
import { existsSync } from "node:fs";
import { type Features, queryFeatures } from "../../src/classify/features.ts";
import { comparable } from "../../src/classify/labels.ts";
import { SELF_TRAINING, selfTrain } from "../../src/classify/self-training.ts";
import { aolPool, aolRows, configs, type ExperimentContext, K, queryOfExample } from "./setup.ts";

interface Setting {
  readonly name: string;
  readonly window: number;
  readonly gamma: number;
  readonly ratio: boolean;
  readonly gold: boolean;
}

export default async function userctx(ctx: ExperimentContext): Promise<void> {
  const { aol } = ctx.paths;
  const lines = existsSync(aol) ? aolRows(ctx.paths) : undefined;
  if (lines === undefined) {
    console.log(`userctx: ${aol} not found; skipping`);
    return;
  }
  const t0 = process.cpuUsage();
  const alpha = Number(process.env.USERCTX_ALPHA ?? 5);
  // USERCTX_PRIOR=marginal: the prior is the log's mean p over its query events, not the training labels' shares.
  const marginalPrior = process.env.USERCTX_PRIOR === "marginal";
  const windows = configs<[number]>("USERCTX_MINUTES", "10,30,120,0", ["minutes (0 = no window)"]).map(
    ([m]) => (m === 0 ? Number.POSITIVE_INFINITY : 60 * m),
  );
  const gammas = configs<[number]>("USERCTX_GAMMAS", "0.25,0.5,1,1.5,2,3", ["gamma"]).map(([g]) => g);
  const pool = await aolPool(ctx);
  const { rows, fold } = ctx;

  // Every distinct query of the log, by id: the pool's, then the labelled rows', then any other (dev.tsv's,
  // Unclassifiable rows'), whose features are computed here.
  const idOf = new Map<string, number>();
  const feats: Features[] = [];
  pool.queries.forEach((q, j) => {
    idOf.set(q, j);
    feats.push(pool.features[j]!);
  });
  const rowId = new Int32Array(rows.length);
  rows.forEach((r, i) => {
    const q = comparable(r.query);
    let id = idOf.get(q);
    if (id === undefined) {
      id = feats.length;
      idOf.set(q, id);
      feats.push(r.ex.features);
    }
    rowId[i] = id;
  });
  const tax = ctx.base.kb.taxonomy;
  // Per user, their query events in log order: query id and time (s).
  const userIds = new Map<string, number>();
  const evQuery: number[][] = [];
  const evTime: number[][] = [];
  let extra = 0;
  for (const line of lines) {
    const c = line.split("\t");
    if (c.length < 3) continue;
    const q = comparable(c[1] ?? "");
    if (q === "" || q === "-") continue;
    let id = idOf.get(q);
    if (id === undefined) {
      id = feats.length;
      idOf.set(q, id);
      feats.push(queryFeatures(ctx.base.evidence(q), tax, ctx.emb));
      extra++;
    }
    let u = userIds.get(c[0]!);
    if (u === undefined) {
      u = evQuery.length;
      userIds.set(c[0]!, u);
      evQuery.push([]);
      evTime.push([]);
    }
    evQuery[u]!.push(id);
    evTime[u]!.push(Date.parse(`${c[2]!.replace(" ", "T")}Z`) / 1000);
  }
  const n = feats.length;
  // The (user, event index) pairs of each labelled row's query.
  const labelledIds = new Set(rowId);
  const occ = new Map<number, [number, number][]>();
  evQuery.forEach((qs, u) => {
    qs.forEach((id, e) => {
      if (!labelledIds.has(id)) return;
      const list = occ.get(id);
      if (list === undefined) occ.set(id, [[u, e]]);
      else list.push([u, e]);
    });
  });
  // Per row: the most other query events one of its users typed (the subgroup of step 4).
  const others = new Int32Array(rows.length);
  rows.forEach((_, i) => {
    const id = rowId[i]!;
    const us = new Set((occ.get(id) ?? []).map(([u]) => u));
    for (const u of us) {
      const k = evQuery[u]!.filter((x) => x !== id).length;
      if (k > others[i]!) others[i] = k;
    }
  });
  const found = rows.filter((_, i) => occ.has(rowId[i]!)).length;
  const heavy = rows.filter((_, i) => others[i]! >= 20).length;
  console.log(
    `userctx: ${n} distinct queries (${extra} outside the pool and train's labelled rows), ${evQuery.length} users; ${found} of ${rows.length} labelled rows found in the log, ${heavy} typed by a user with ≥ 20 other query events; α ${alpha}`,
  );

  const settings: Setting[] = [];
  for (const gold of [false, true])
    for (const ratio of [false, true])
      for (const window of windows)
        for (const gamma of gammas)
          settings.push({
            name: `T ${window === Number.POSITIVE_INFINITY ? "∞" : `${window / 60}m`} γ ${gamma} ${ratio ? "D/prior" : "D"}${gold ? " gold" : ""}`,
            window,
            gamma,
            ratio,
            gold,
          });
  // correct[s][i]: setting s (0 = the shipped self-training, γ = 0) right on row i in its held-out fold.
  const correct = Array.from({ length: settings.length + 1 }, () => new Uint8Array(rows.length));
  const queryOf = queryOfExample(ctx);
  // ctxCount[k][i]: row i's users' other query events within window k (the same in every fold).
  const ctxCount = windows.map(() => new Int32Array(rows.length));
  const probs = new Float32Array(n * K);
  const goldProbs = new Float32Array(n * K);
  const s = new Float64Array(K);
  const d = new Float64Array(K);
  for (let f = 0; f < 5; f++) {
    const tf = process.cpuUsage();
    const tr = rows.filter((_, i) => fold[i] !== f).map((r) => r.ex);
    const model = selfTrain(tr, pool, {}, SELF_TRAINING, queryOf);
    const prior = new Float64Array(K);
    for (const e of tr) prior[e.label]! += 1;
    for (let c = 0; c < K; c++) prior[c]! /= tr.length;
    for (let id = 0; id < n; id++) {
      model.scores(feats[id]!, s);
      let m = s[0]!;
      for (let c = 1; c < K; c++) if (s[c]! > m) m = s[c]!;
      let z = 0;
      for (let c = 0; c < K; c++) z += Math.exp(s[c]! - m);
      for (let c = 0; c < K; c++) probs[id * K + c] = Math.exp(s[c]! - m) / z;
    }
    if (marginalPrior) {
      // The log's own mean of p over its query events, in place of the training labels' shares: what a
      // classifier knows of a log without labels.
      prior.fill(0);
      let events = 0;
      for (const qs of evQuery)
        for (const id of qs) {
          events++;
          for (let c = 0; c < K; c++) prior[c]! += probs[id * K + c]!;
        }
      for (let c = 0; c < K; c++) prior[c]! /= events;
    }
    goldProbs.set(probs);
    // The training folds' gold labels (rows sharing a query text share its one-hot mass).
    const goldSeen = new Set<number>();
    rows.forEach((r, i) => {
      if (fold[i] === f) return;
      const id = rowId[i]!;
      if (!goldSeen.has(id)) {
        goldSeen.add(id);
        goldProbs.fill(0, id * K, id * K + K);
      }
      goldProbs[id * K + r.ex.label]! += 1;
    });
    for (const id of goldSeen) {
      let t = 0;
      for (let c = 0; c < K; c++) t += goldProbs[id * K + c]!;
      for (let c = 0; c < K; c++) goldProbs[id * K + c]! /= t;
    }
    // Per held-out row and window: D (from p, from p with gold) and its mass.
    const dP = windows.map(() => new Float64Array(K));
    const dG = windows.map(() => new Float64Array(K));
    const mass = new Float64Array(windows.length);
    let ok = 0;
    let tot = 0;
    rows.forEach((r, i) => {
      if (fold[i] !== f) return;
      const id = rowId[i]!;
      model.scores(r.ex.features, s);
      let m = s[0]!;
      for (let c = 1; c < K; c++) if (s[c]! > m) m = s[c]!;
      let z = 0;
      for (let c = 0; c < K; c++) z += Math.exp(s[c]! - m);
      const logp = Array.from(s, (x) => x - m - Math.log(z));
      const best = argmax(logp);
      tot++;
      if (best === r.ex.label) {
        ok++;
        correct[0]![i] = 1;
      }
      for (const v of dP) v.fill(0);
      for (const v of dG) v.fill(0);
      mass.fill(0);
      const byUser = new Map<number, number[]>();
      for (const [u, e] of occ.get(id) ?? []) {
        const ts = byUser.get(u);
        if (ts === undefined) byUser.set(u, [evTime[u]![e]!]);
        else ts.push(evTime[u]![e]!);
      }
      for (const [u, ts] of byUser) {
        const qs = evQuery[u]!;
        const times = evTime[u]!;
        for (let e = 0; e < qs.length; e++) {
          const q2 = qs[e]!;
          if (q2 === id) continue;
          let gap = Number.POSITIVE_INFINITY;
          for (const t of ts) gap = Math.min(gap, Math.abs(times[e]! - t));
          windows.forEach((w, k) => {
            if (gap > w) return;
            mass[k]! += 1;
            for (let c = 0; c < K; c++) {
              dP[k]![c]! += probs[q2 * K + c]!;
              dG[k]![c]! += goldProbs[q2 * K + c]!;
            }
          });
        }
      }
      windows.forEach((_, k) => {
        ctxCount[k]![i] = mass[k]!;
      });
      settings.forEach((st, j) => {
        const k = windows.indexOf(st.window);
        const src = st.gold ? dG[k]! : dP[k]!;
        for (let c = 0; c < K; c++) {
          const smooth = (src[c]! + alpha * prior[c]!) / (mass[k]! + alpha);
          d[c] = logp[c]! + st.gamma * Math.log(st.ratio ? smooth / prior[c]! : smooth);
        }
        if (argmax(d) === r.ex.label) correct[j + 1]![i] = 1;
      });
    });
    const c = process.cpuUsage(tf);
    console.log(
      `  fold ${f + 1}: shipped self-training ${((100 * ok) / tot).toFixed(1)}% of ${tot}; ${((c.user + c.system) / 1e6).toFixed(1)} CPU-s`,
    );
  }

  // Accuracy per fold of each setting (and of the shipped self-training, row 0).
  const foldAcc = correct.map((hit) =>
    [0, 1, 2, 3, 4].map((f) => {
      let ok = 0;
      let tot = 0;
      for (let i = 0; i < rows.length; i++)
        if (fold[i] === f) {
          tot++;
          ok += hit[i]!;
        }
      return ok / tot;
    }),
  );
  const base = foldAcc[0]!;
  const line = (name: string, acc: readonly number[]) => {
    const mean = acc.reduce((a, b) => a + b, 0) / 5;
    const sd = Math.sqrt(acc.reduce((a, b) => a + (b - mean) ** 2, 0) / 4);
    const won = acc.filter((a, f) => a > base[f]!).length;
    const diff = acc.reduce((a, b, f) => a + b - base[f]!, 0) / 5;
    console.log(
      `${name.padEnd(30)} ${(100 * mean).toFixed(2)}% ± ${(100 * sd).toFixed(2)}  folds ${acc.map((a) => (100 * a).toFixed(1)).join(" ")}  won ${won}/5  Δ ${diff >= 0 ? "+" : ""}${(100 * diff).toFixed(2)}`,
    );
  };
  console.log(
    "setting                        CV (mean ± sd over folds), per fold, folds above the shipped, mean Δ",
  );
  line("shipped self-training (γ 0)", base);
  settings.forEach((st, j) => {
    line(st.name, foldAcc[j + 1]!);
  });
  // Picked without looking at the fold: per fold, the best setting (of those `allowed`) on the other four folds.
  const pick = (allowed: (st: Setting) => boolean) =>
    [0, 1, 2, 3, 4].map((f) => {
      let bestJ = -1;
      let bestScore = -1;
      settings.forEach((st, j) => {
        if (!allowed(st)) return;
        const score = foldAcc[j + 1]!.reduce((a, b, g) => (g === f ? a : a + b), 0);
        if (score > bestScore) {
          bestScore = score;
          bestJ = j;
        }
      });
      return bestJ;
    });
  const picks = [
    { name: "picked on the other 4 folds", picked: pick(() => true) },
    { name: "… among the settings w/o gold", picked: pick((st) => !st.gold) },
  ].map(({ name, picked }) => {
    line(
      name,
      picked.map((j, f) => foldAcc[j + 1]![f]!),
    );
    console.log(`  picked per fold: ${picked.map((j) => settings[j]!.name).join(" | ")}`);
    const hit = new Uint8Array(rows.length);
    rows.forEach((_, i) => {
      hit[i] = correct[picked[fold[i]!]! + 1]![i]!;
    });
    return { name, picked, hit };
  });

  // Step 4: pooled over the folds, by how much of the users' log stands behind the prior.
  const group = (name: string, keep: (i: number) => boolean) => {
    const idx = rows.map((_, i) => i).filter(keep);
    const acc = (hit: Uint8Array) =>
      idx.length === 0 ? "–" : `${((100 * idx.reduce((a, i) => a + hit[i]!, 0)) / idx.length).toFixed(2)}%`;
    console.log(
      `  ${name} (${idx.length} rows): shipped ${acc(correct[0]!)}; ${picks.map((p) => `${p.name} ${acc(p.hit)}`).join("; ")}`,
    );
  };
  console.log("subgroups, pooled over the folds:");
  group("a user of the query typed ≥ 20 other query events (whole log)", (i) => others[i]! >= 20);
  group("… < 20", (i) => others[i]! < 20);
  // Events within the window of the setting picked (over the whole grid) for the row's fold.
  const inWindow = (i: number) =>
    ctxCount[windows.indexOf(settings[picks[0]!.picked[fold[i]!]!]!.window)]![i]!;
  group("other events within the picked window: 0", (i) => inWindow(i) === 0);
  group("… 1–4", (i) => inWindow(i) >= 1 && inWindow(i) <= 4);
  group("… 5–19", (i) => inWindow(i) >= 5 && inWindow(i) <= 19);
  group("… ≥ 20", (i) => inWindow(i) >= 20);
  const c = process.cpuUsage(t0);
  console.log(`userctx: ${((c.user + c.system) / 1e6).toFixed(1)} CPU-s`);
}

function argmax(x: ArrayLike<number>): number {
  let best = 0;
  for (let c = 1; c < x.length; c++) if (x[c]! > x[best]!) best = c;
  return best;
}
