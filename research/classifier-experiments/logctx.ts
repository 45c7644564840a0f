/**
 * logctx: both log-context terms of issue 22 together, as `querymask classify --context clicks,users` computes them
 * (./logcontext.ts): per fold, the shipped self-trained model (`selfTrain(tr, pool, {}, SELF_TRAINING, queryOf)`,
 * as `shippedSelfTraining`) gives every distinct query of the AOL subset its p(·|q) (features as setup.ts computes
 * them, the same for pool and labelled queries), prior = the mean of p over the log's query events (no labels), and a
 * held-out labelled query q is scored
 *
 *   score(c) = log p(c|q) + β · log(M(c)/prior(c)) + γ · log(D̃_user(c)/prior(c))
 *
 * with the host term as hostprop's source 0 (own contribution subtracted, α 1, no gold) and the user term as
 * userctx's D/prior (α 5, no gold, window ±T). β = γ = 0 is the model's text alone, so every setting is paired with
 * it fold by fold; the query rules are not applied (as in `cv`). Also: the same grid with the training folds' label
 * shares as the prior (what the two experiments used), a setting picked per fold on the other four folds, pooled
 * per-category precision/recall, and a dev check with the bundled model (data/model) on labels/dev.tsv.
 *
 * LOGCTX_BETAS, LOGCTX_GAMMAS, LOGCTX_MINUTES: the grid (default 0,0.5,1,1.5 / 0,0.5,1,1.5 / 30,120). LOGCTX_ROUNDS:
 * the product's rounds to compare (default 1; e.g. 1,2,3: iterative classification, `LogContextSettings.rounds`).
 * Prints counts and figures only, never a query or a host.
 */
import { join } from "node:path";
import { loadModel } from "../../src/classify/classifier.ts";
import { queryFeatures } from "../../src/classify/features.ts";
import { readLabelled, TOP_LEVELS } from "../../src/classify/labels.ts";
import { contextBranches, LOG_CONTEXT } from "../../src/classify/log-context.ts";
import { SELF_TRAINING, selfTrain } from "../../src/classify/self-training.ts";
import { loadLogContext, softmaxInto } from "./logcontext.ts";
import { configs, type ExperimentContext, K, queryOfExample } from "./setup.ts";

const HOST_ALPHA = 1;
const USER_ALPHA = 5;

interface Setting {
  readonly beta: number;
  readonly gamma: number;
  /** Index into the windows; -1 when γ = 0. */
  readonly w: number;
  readonly name: string;
}

const pct = (x: number) => (100 * x).toFixed(1);

function meanSd(a: readonly number[]): [number, number] {
  const m = a.reduce((x, y) => x + y, 0) / a.length;
  return [m, Math.sqrt(a.reduce((x, y) => x + (y - m) ** 2, 0) / (a.length - 1))];
}

function argmax(x: ArrayLike<number>): number {
  let best = 0;
  for (let c = 1; c < x.length; c++) if (x[c]! > x[best]!) best = c;
  return best;
}

/** The branch of each setting for one query: argmax of log p + β·host + γ·user[w]. */
function decide(
  settings: readonly Setting[],
  logp: Float64Array,
  host: Float64Array,
  user: readonly Float64Array[],
  out: Int8Array,
): void {
  const v = new Float64Array(K);
  settings.forEach((st, s) => {
    const u = st.w < 0 ? undefined : user[st.w]!;
    for (let c = 0; c < K; c++)
      v[c] = logp[c]! + st.beta * host[c]! + (u === undefined ? 0 : st.gamma * u[c]!);
    out[s] = argmax(v);
  });
}

export default async function logctx(ctx: ExperimentContext): Promise<void> {
  const betas = configs<[number]>("LOGCTX_BETAS", "0,0.5,1,1.5", ["beta"]).map(([x]) => x);
  const gammas = configs<[number]>("LOGCTX_GAMMAS", "0,0.5,1,1.5", ["gamma"]).map(([x]) => x);
  const minutes = configs<[number]>("LOGCTX_MINUTES", "30,120", ["minutes"]).map(([x]) => x);
  const windows = minutes.map((m) => 60 * m);
  const roundsList = configs<[number]>("LOGCTX_ROUNDS", "1", ["rounds"]).map(([x]) => x);
  const loaded = await loadLogContext(ctx, "logctx");
  if (loaded === undefined) return;
  const { pool, log, product, t0 } = loaded;
  const { rows, fold } = ctx;
  const n = rows.length;
  const rowId = rows.map((r) => log.id(r.query));
  {
    const c = process.cpuUsage(t0);
    console.log(
      `logctx: ${log.size} distinct AOL queries (features computed for all), ${log.eventQuery.length} query events, ${log.users} users, ${log.H} clicked hosts; ${rowId.filter((x) => x !== undefined).length} of ${n} labelled rows in the log; ${((c.user + c.system) / 1e6).toFixed(1)} CPU-s`,
    );
  }

  // Settings: γ 0 once (no window), then each window with each γ > 0.
  const settings: Setting[] = [];
  for (const beta of betas)
    for (const gamma of gammas)
      if (gamma === 0) settings.push({ beta, gamma, w: -1, name: `β ${beta} γ 0` });
      else
        for (let w = 0; w < windows.length; w++)
          settings.push({ beta, gamma, w, name: `β ${beta} γ ${gamma} T ${minutes[w]}` });
  const S = settings.length;
  const baseIdx = settings.findIndex((st) => st.beta === 0 && st.gamma === 0);
  const comboIdx = settings.findIndex((st) => st.beta === 1 && st.gamma === 1 && minutes[st.w] === 120);
  if (baseIdx < 0) throw new Error("logctx: the grid needs β 0 and γ 0");
  // pred[v][s * n + i]: branch of row i under setting s, prior v (0: the log's mean p, 1: label shares).
  const pred = [new Int8Array(S * n), new Int8Array(S * n)];
  let hostApplied = 0;
  const userNonEmpty = new Int32Array(windows.length);

  const queryOf = queryOfExample(ctx);
  const s = new Float64Array(K);
  const logp = new Float64Array(K);
  const host = new Float64Array(K);
  const user = windows.map(() => new Float64Array(K));
  const out = new Int8Array(S);
  // What src/classify/log-context.ts (classify --context clicks,users, its defaults) gives each held-out row.
  const productPred = roundsList.map(() => new Int8Array(n));
  for (let f = 0; f < 5; f++) {
    const tf = process.cpuUsage();
    const tr = rows.filter((_, i) => fold[i] !== f).map((r) => r.ex);
    const model = selfTrain(tr, pool, {}, SELF_TRAINING, queryOf);
    const p = log.probs(model);
    const mass = log.hostMass(p);
    const labelShares = new Float64Array(K);
    for (const e of tr) labelShares[e.label]! += 1;
    for (let c = 0; c < K; c++) labelShares[c] = Math.max(labelShares[c]! / tr.length, 1e-12);
    const priors = [log.marginalPrior(p), labelShares];
    const branchesOf = roundsList.map((rounds) =>
      contextBranches(product.events, product.probs(p), K, { ...LOG_CONTEXT, rounds }),
    );
    let ok = 0;
    let tot = 0;
    for (let i = 0; i < n; i++) {
      if (fold[i] !== f) continue;
      model.scores(rows[i]!.ex.features, s);
      softmaxInto(s, logp, 0);
      for (let c = 0; c < K; c++) logp[c] = Math.log(Math.max(logp[c]!, 1e-300));
      tot++;
      if (argmax(logp) === rows[i]!.ex.label) ok++;
      branchesOf.forEach((branches, r) => {
        const b = product.branchOf(rows[i]!.query, branches);
        productPred[r]![i] = b < 0 ? argmax(logp) : b;
      });
      const id = rowId[i];
      priors.forEach((prior, v) => {
        if (id === undefined) {
          host.fill(0);
          for (const u of user) u.fill(0);
        } else {
          const applied = log.hostTerm(id, p, mass, prior, HOST_ALPHA, host);
          windows.forEach((w, k) => {
            const m = log.userTerm(id, p, w, prior, USER_ALPHA, user[k]!);
            if (v === 0 && m > 0) userNonEmpty[k]!++;
          });
          if (v === 0 && applied) hostApplied++;
        }
        decide(settings, logp, host, user, out);
        for (let j = 0; j < S; j++) pred[v]![j * n + i] = out[j]!;
      });
    }
    const c = process.cpuUsage(tf);
    const pr = priors[0]!;
    console.log(
      `  fold ${f + 1}: text alone ${pct(ok / tot)}% of ${tot}; the log's mean p vs label shares, largest gap ${(100 * Math.max(...pr.map((x, k) => Math.abs(x - labelShares[k]!)))).toFixed(1)} pt; ${((c.user + c.system) / 1e6).toFixed(1)} CPU-s`,
    );
  }
  console.log(
    `held-out rows with a host term: ${hostApplied} of ${n}; with ≥ 1 user-context event: ${windows.map((_, k) => `T ${minutes[k]} ${userNonEmpty[k]}`).join(", ")}`,
  );

  const accOf = (v: number, j: number) =>
    [0, 1, 2, 3, 4].map((f) => {
      let ok = 0;
      let tot = 0;
      for (let i = 0; i < n; i++)
        if (fold[i] === f) {
          tot++;
          if (pred[v]![j * n + i] === rows[i]!.ex.label) ok++;
        }
      return ok / tot;
    });
  const acc = [0, 1].map((v) => settings.map((_, j) => accOf(v, j)));
  const base = acc[0]![baseIdx]!;
  const line = (name: string, a: readonly number[]) => {
    const [m, sd] = meanSd(a);
    const diff = a.map((x, f) => x - base[f]!);
    console.log(
      `${name.padEnd(34)} ${(100 * m).toFixed(2)} ± ${(100 * sd).toFixed(2)}  folds ${a.map(pct).join(" ")}  above text ${diff.filter((x) => x > 0).length}/5  Δ ${(100 * meanSd(diff)[0]).toFixed(2)}`,
    );
  };
  console.log("\nprior = the log's mean p over its query events (as classify):");
  console.log(
    "setting                            mean ± sd      per fold              folds above text, mean Δ",
  );
  settings.forEach((st, j) => {
    line(st.name, acc[0]![j]!);
  });
  const mean = (a: readonly number[]) => a.reduce((x, y) => x + y, 0) / a.length;
  const best = settings.reduce((b, _, j) => (mean(acc[0]![j]!) > mean(acc[0]![b]!) ? j : b), 0);
  line(`best: ${settings[best]!.name}`, acc[0]![best]!);
  const picked = [0, 1, 2, 3, 4].map((f) => {
    let bj = 0;
    let bs = -1;
    settings.forEach((_, j) => {
      const sc = acc[0]![j]!.reduce((x, y, g) => (g === f ? x : x + y), 0);
      if (sc > bs) {
        bs = sc;
        bj = j;
      }
    });
    return bj;
  });
  line(
    "picked on the other four folds",
    picked.map((j, f) => acc[0]![j]![f]!),
  );
  console.log(`  picks: ${picked.map((j) => settings[j]!.name).join(" | ")}`);
  roundsList.forEach((rounds, r) => {
    const productAcc = [0, 1, 2, 3, 4].map((f) => {
      let ok = 0;
      let tot = 0;
      for (let i = 0; i < n; i++)
        if (fold[i] === f) {
          tot++;
          if (productPred[r]![i] === rows[i]!.ex.label) ok++;
        }
      return ok / tot;
    });
    line(`src/classify/log-context.ts, ${rounds} round(s)`, productAcc);
    if (comboIdx >= 0 && rounds === 1) {
      let same = 0;
      for (let i = 0; i < n; i++) if (productPred[r]![i] === pred[0]![comboIdx * n + i]) same++;
      console.log(`  the same branch as ${settings[comboIdx]!.name} above on ${same} of ${n} rows`);
    }
  });

  console.log("\nprior = the training folds' label shares (as hostprop/userctx):");
  const labelBest = settings.reduce((b, _, j) => (mean(acc[1]![j]!) > mean(acc[1]![b]!) ? j : b), 0);
  const shown = new Set([best, comboIdx, labelBest]);
  for (const st of ["β 1 γ 0", "β 0 γ 1 T 120", "β 1.5 γ 1 T 120"]) {
    const j = settings.findIndex((x) => x.name === st);
    if (j >= 0) shown.add(j);
  }
  for (const j of [...shown].filter((j) => j >= 0).sort((a, b) => a - b))
    line(`${settings[j]!.name}${j === labelBest ? " (best)" : ""}`, acc[1]![j]!);

  // Per-category precision / recall pooled over the folds.
  const prTable = (cols: { name: string; j: number }[]) => {
    console.log(
      `\ncategory        gold   ${cols.map((c) => `${c.name.padEnd(20)}`).join("")}\n                       ${cols.map(() => "P      R      pred  ").join("")}`,
    );
    TOP_LEVELS.forEach((label, c) => {
      let gold = 0;
      for (const r of rows) if (r.ex.label === c) gold++;
      const cells = cols.map(({ j }) => {
        let predicted = 0;
        let ok = 0;
        for (let i = 0; i < n; i++) {
          if (pred[0]![j * n + i] !== c) continue;
          predicted++;
          if (rows[i]!.ex.label === c) ok++;
        }
        const prec = predicted === 0 ? "  –  " : (ok / predicted).toFixed(2);
        const rec = gold === 0 ? "  –  " : (ok / gold).toFixed(2);
        return `${prec.padEnd(7)}${rec.padEnd(7)}${String(predicted).padEnd(6)}`;
      });
      console.log(`${label.padEnd(16)}${String(gold).padEnd(7)}${cells.join("")}`);
    });
  };
  console.log("\nper category, pooled over the folds (prior: the log's mean p):");
  prTable([
    { name: "text alone", j: baseIdx },
    ...(comboIdx >= 0 ? [{ name: settings[comboIdx]!.name, j: comboIdx }] : []),
  ]);
  const c = process.cpuUsage(t0);
  console.log(`logctx CV: ${((c.user + c.system) / 1e6).toFixed(1)} CPU-s after the pool`);

  // Dev check: the bundled model over the whole log, scored on labels/dev.tsv.
  const bundled = loadModel(ctx.base.kb);
  if (bundled === undefined) {
    console.log("logctx dev: no bundled model; skipping");
    return;
  }
  if (bundled.classes.join() !== TOP_LEVELS.join()) throw new Error("logctx: the bundled model's classes");
  const dev = readLabelled(join(ctx.paths.shared, "labels", "dev.tsv"));
  const tax = ctx.base.kb.taxonomy;
  const p = log.probs(bundled);
  const mass = log.hostMass(p);
  const prior = log.marginalPrior(p);
  const devBranchesOf = roundsList.map((rounds) =>
    contextBranches(product.events, product.probs(p), K, { ...LOG_CONTEXT, rounds }),
  );
  const productHits = roundsList.map(() => 0);
  const hits = new Int32Array(S);
  const hitsIn = new Int32Array(S);
  let inLog = 0;
  for (const d of dev) {
    const label = TOP_LEVELS.indexOf(d.label);
    bundled.scores(queryFeatures(ctx.base.evidence(d.query), tax, ctx.emb), s);
    softmaxInto(s, logp, 0);
    for (let k = 0; k < K; k++) logp[k] = Math.log(Math.max(logp[k]!, 1e-300));
    const id = log.id(d.query);
    if (id === undefined) {
      host.fill(0);
      for (const u of user) u.fill(0);
    } else {
      inLog++;
      log.hostTerm(id, p, mass, prior, HOST_ALPHA, host);
      windows.forEach((w, k) => {
        log.userTerm(id, p, w, prior, USER_ALPHA, user[k]!);
      });
    }
    decide(settings, logp, host, user, out);
    devBranchesOf.forEach((devBranches, r) => {
      const b = product.branchOf(d.query, devBranches);
      if ((b < 0 ? argmax(logp) : b) === label) productHits[r]!++;
    });
    for (let j = 0; j < S; j++)
      if (out[j] === label) {
        hits[j]!++;
        if (id !== undefined) hitsIn[j]!++;
      }
  }
  console.log(
    `\ndev (bundled model, prior = its mean p over the log's events; ${dev.length} rows, Unclassifiable left out; ${inLog} of them in the AOL subset):`,
  );
  const devShown = [
    baseIdx,
    ...["β 1 γ 0", "β 0 γ 1 T 120", "β 1 γ 1 T 120", "β 1.5 γ 1 T 120"].map((x) =>
      settings.findIndex((st) => st.name === x),
    ),
    best,
  ].filter((j, k, a) => j >= 0 && a.indexOf(j) === k);
  for (const j of devShown)
    console.log(
      `  ${settings[j]!.name.padEnd(18)} ${((100 * hits[j]!) / dev.length).toFixed(2)}% (${hits[j]}/${dev.length}); on the rows in the log ${((100 * hitsIn[j]!) / Math.max(inLog, 1)).toFixed(2)}% (${hitsIn[j]}/${inLog})`,
    );
  for (const [r, rounds] of roundsList.entries())
    console.log(
      `  src/classify/log-context.ts, ${rounds} round(s) ${((100 * productHits[r]!) / dev.length).toFixed(2)}% (${productHits[r]}/${dev.length})`,
    );
  const c2 = process.cpuUsage(t0);
  console.log(`logctx: ${((c2.user + c2.system) / 1e6).toFixed(1)} CPU-s after the pool`);
}
