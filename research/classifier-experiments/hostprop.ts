/**
 * hostprop: click evidence at CLASSIFICATION time (issue 22), transductively over the whole AOL subset. Per fold,
 * the shipped self-trained model (SELF_TRAINING, as `shippedSelfTraining`) gives every query of the log (the pool's
 * distinct queries and every labelled one) its text distribution p(·|q). Each clicked host h gets
 * D_h = Σ_q' clicks(q', h) · p(·|q') + gold · Σ_{training-fold labelled q'} clicks(q', h) · onehot(label q'),
 * and a held-out labelled query q is scored with
 *   score(c) = log p(c|q) + β · log M(c),  M = Σ_h clicks(q, h) · D̃_h / Σ_h clicks(q, h)
 * over its hosts with other support, D̃_h = (D_h − clicks(q, h) · p(·|q) + α · prior) / (|…| + α): the query's own
 * text prediction never counts toward its hosts, and the held-out fold's labels are never used. `pmi` divides M by
 * the prior (p(c|q, h) ∝ p(c|q) · p(c|h) / p(c) when the two are independent evidence); `purity` keeps only hosts
 * whose best class holds ≥ that share of D̃_h. β 0 is the shipped self-training itself (the same model), so every
 * difference is paired fold by fold. `source` 0: p of every log query from that self-trained model (whose pool
 * pseudo-labels came partly from the training fold's gold through the same click graph, so its p carries that gold
 * to the hosts); `source` 1: p from the labelled fold's model alone (selfTrain's first fit), and only from queries
 * no model was fitted on (the pool and the held-out fold; the training fold's queries left out): host evidence
 * built from text predictions alone, the nearest thing here to `querymask classify` on a user's own log, whose
 * queries the bundled model never saw (`gold` 0: the model file holds no click and no label).
 *
 * HOSTPROP_CONFIGS: `beta:alpha:gold:purity:pmi:source,…` (default: a grid). Besides the grid, a setting chosen per fold
 * on the other four folds' held-out accuracy (those folds' models saw this fold's labels, the only leak).
 * Prints counts and figures only, never a query or a host.
 */

import { fitLinearModel } from "../../src/classify/fit.ts";
import { comparable, TOP_LEVELS } from "../../src/classify/labels.ts";
import type { LinearModel } from "../../src/classify/model.ts";
import { SELF_TRAINING, selfTrain } from "../../src/classify/self-training.ts";
import { aolPoolOrSkip, configs, type ExperimentContext, K, queryOfExample } from "./setup.ts";

type Setting = [beta: number, alpha: number, gold: number, purity: number, pmi: number, source: number];

function defaultGrid(): string {
  const out: string[] = [];
  for (const source of [0, 1])
    for (const gold of [0, 2])
      for (const alpha of [0.25, 1])
        for (const beta of [0.5, 1, 1.5, 2, 3]) out.push(`${beta}:${alpha}:${gold}:0:1:${source}`);
  for (const beta of [1, 2]) out.push(`${beta}:1:0:0:0:0`, `${beta}:1:0:0:0:1`);
  for (const purity of [0.6]) out.push(`1:1:0:${purity}:1:0`, `1:1:0:${purity}:1:1`);
  return out.join(",");
}

const label = ([beta, alpha, gold, purity, pmi, source]: Setting) =>
  `${source ? "src1" : "src0"} β ${beta} α ${alpha} gold ${gold}${purity > 0 ? ` purity ${purity}` : ""}${pmi ? " pmi" : " raw"}`;

const pct = (x: number) => (100 * x).toFixed(1);

function meanSd(a: readonly number[]): string {
  const m = a.reduce((x, y) => x + y, 0) / a.length;
  const sd = Math.sqrt(a.reduce((x, y) => x + (y - m) ** 2, 0) / (a.length - 1));
  return `${(100 * m).toFixed(2)} ± ${(100 * sd).toFixed(2)}`;
}

export default async function hostprop(ctx: ExperimentContext): Promise<void> {
  const settings = configs<Setting>("HOSTPROP_CONFIGS", defaultGrid(), [
    "beta",
    "alpha",
    "gold",
    "purity",
    "pmi",
    "source",
  ]);
  const pool = await aolPoolOrSkip(ctx, "hostprop");
  if (pool === undefined) return;
  const queryOf = queryOfExample(ctx);
  const { rows, fold } = ctx;
  const n = rows.length;
  const S = settings.length;
  const t0 = process.cpuUsage();

  // The log's distinct queries: the pool's, then the labelled ones (comparable form, once each).
  const keyOf = rows.map((r) => comparable(r.query));
  const labelledIndex = new Map<string, number>(); // comparable query → first row with it
  const sameText = new Map<string, number[]>(); // comparable query → its rows (duplicates in train.tsv)
  keyOf.forEach((q, i) => {
    if (!labelledIndex.has(q)) labelledIndex.set(q, i);
    const l = sameText.get(q);
    if (l === undefined) sameText.set(q, [i]);
    else l.push(i);
  });
  // Hosts of each distinct query, as indices into one host table.
  const hostId = new Map<string, number>();
  const hostsOf = (q: string): [number, number][] => {
    const m = pool.clicks.get(q);
    if (m === undefined) return [];
    return [...m].map(([h, c]): [number, number] => {
      let id = hostId.get(h);
      if (id === undefined) {
        id = hostId.size;
        hostId.set(h, id);
      }
      return [id, c];
    });
  };
  const poolHosts = pool.queries.map(hostsOf);
  const rowHosts = keyOf.map(hostsOf);
  const H = hostId.size;
  // Distinct queries per host (pool + distinct labelled), for "other support" counted in queries.
  const hostQueries = new Int32Array(H);
  for (const hs of poolHosts) for (const [h] of hs) hostQueries[h]!++;
  for (const i of labelledIndex.values()) for (const [h] of rowHosts[i]!) hostQueries[h]!++;
  console.log(
    `hostprop: ${H} clicked hosts; ${rows.filter((_, i) => rowHosts[i]!.length > 0).length} of ${n} labelled queries have clicks`,
  );

  // acc[s][f] (s = -1 → index S: the text alone); pooled tallies with / without other support.
  const ok = Array.from({ length: S + 1 }, () => new Float64Array(5));
  const tot = new Float64Array(5);
  const okSup = new Float64Array(S + 1);
  const okNoSup = new Float64Array(S + 1);
  let nSup = 0;
  let nNoSup = 0;
  let nGoldSup = 0;
  const changed = new Float64Array(S);

  const sc = new Float64Array(K);
  const softmax = (out: Float64Array, at: number) => {
    let mx = sc[0]!;
    for (let c = 1; c < K; c++) if (sc[c]! > mx) mx = sc[c]!;
    let z = 0;
    for (let c = 0; c < K; c++) z += Math.exp(sc[c]! - mx);
    for (let c = 0; c < K; c++) out[at + c] = Math.exp(sc[c]! - mx) / z;
  };

  const applied = new Float64Array(S);
  const scorePool = (m: LinearModel) => {
    const out = new Float64Array(pool.queries.length * K);
    pool.features.forEach((feat, j) => {
      m.scores(feat, sc);
      softmax(out, j * K);
    });
    return out;
  };
  const scoreRows = (m: LinearModel) => {
    const out = new Float64Array(n * K);
    rows.forEach((r, i) => {
      m.scores(r.ex.features, sc);
      softmax(out, i * K);
    });
    return out;
  };

  for (let f = 0; f < 5; f++) {
    const tf = process.cpuUsage();
    const tr = rows.filter((_, i) => fold[i] !== f).map((r) => r.ex);
    const model = selfTrain(tr, pool, {}, SELF_TRAINING, queryOf);
    // Source 1: the labelled fold alone (selfTrain's first fit), which never saw a pool query.
    const first = fitLinearModel(TOP_LEVELS, tr, { average: SELF_TRAINING.average });
    const pRow = scoreRows(model);
    const pPool = [scorePool(model), scorePool(first)];
    const pRows = [pRow, scoreRows(first)];
    // A distinct labelled query with a training-fold row: a source-1 host leaves its text out.
    const inTrain = new Set(keyOf.filter((_, i) => fold[i] !== f));
    // Text mass per host and source, the distinct queries behind it, and the training fold's gold mass.
    const text = [new Float64Array(H * K), new Float64Array(H * K)];
    const count = [hostQueries, new Int32Array(H)];
    const gold = new Float64Array(H * K);
    for (const src of [0, 1]) {
      const t = text[src]!;
      const pp = pPool[src]!;
      const pr = pRows[src]!;
      poolHosts.forEach((hs, j) => {
        for (const [h, c] of hs) {
          for (let k = 0; k < K; k++) t[h * K + k]! += c * pp[j * K + k]!;
          if (src === 1) count[1]![h]!++;
        }
      });
      for (const [q, i] of labelledIndex) {
        if (src === 1 && inTrain.has(q)) continue;
        for (const [h, c] of rowHosts[i]!) {
          for (let k = 0; k < K; k++) t[h * K + k]! += c * pr[i * K + k]!;
          if (src === 1) count[1]![h]!++;
        }
      }
    }
    const prior = new Float64Array(K).fill(1);
    let goldHosts = 0;
    rows.forEach((r, i) => {
      if (fold[i] === f) return;
      prior[r.ex.label]! += 1;
      for (const [h, c] of rowHosts[i]!) gold[h * K + r.ex.label]! += c;
    });
    const pz = prior.reduce((a, b) => a + b, 0);
    for (let k = 0; k < K; k++) prior[k]! /= pz;
    for (let h = 0; h < H; h++) for (let k = 0; k < K; k++) if (gold[h * K + k]! > 0) goldHosts++;

    const d = new Float64Array(K);
    const mix = new Float64Array(K);
    for (let i = 0; i < n; i++) {
      if (fold[i] !== f) continue;
      tot[f]!++;
      const y = rows[i]!.ex.label;
      const own = labelledIndex.get(keyOf[i]!)!; // the distinct query whose p counted toward its hosts
      const logp = new Float64Array(K);
      let textBest = 0;
      for (let k = 0; k < K; k++) {
        logp[k] = Math.log(Math.max(pRow[i * K + k]!, 1e-300));
        if (logp[k]! > logp[textBest]!) textBest = k;
      }
      if (textBest === y) ok[S]![f]!++;
      const hs = rowHosts[i]!;
      // The training fold's rows with this very text (duplicates): their gold is this query's own, left out.
      const twins = sameText
        .get(keyOf[i]!)!
        .filter((j) => fold[j] !== f)
        .map((j) => rows[j]!.ex.label);
      // Whether this query's own text counted toward its hosts, per source.
      const ownIn = [1, twins.length === 0 ? 1 : 0];
      const goldOf = (h: number, c: number, k: number) => {
        let g = gold[h * K + k]!;
        for (const l of twins) if (l === k) g -= c;
        return g;
      };
      const supported = hs.some(([h]) => hostQueries[h]! > 1);
      if (
        hs.some(([h, c]) => {
          let g = 0;
          for (let k = 0; k < K; k++) g += goldOf(h, c, k);
          return g > 0;
        })
      )
        nGoldSup++;
      if (supported) {
        nSup++;
        if (textBest === y) okSup[S]!++;
      } else {
        nNoSup++;
        if (textBest === y) okNoSup[S]!++;
      }
      settings.forEach(([beta, alpha, goldW, purity, pmi, source], s) => {
        const t = text[source]!;
        const pr = pRows[source]!;
        const cnt = count[source]!;
        const self = ownIn[source]!;
        mix.fill(0);
        let wsum = 0;
        for (const [h, c] of hs) {
          let mass = 0;
          for (let k = 0; k < K; k++) {
            const v = t[h * K + k]! - self * c * pr[own * K + k]! + goldW * goldOf(h, c, k);
            d[k] = v > 1e-9 ? v : 0;
            mass += d[k]!;
          }
          // No other distinct query of the log clicked it (and no training-fold gold when used).
          if (mass <= 1e-9 || (cnt[h]! - self <= 0 && goldW === 0)) continue;
          let top = 0;
          for (let k = 0; k < K; k++) {
            d[k] = (d[k]! + alpha * prior[k]!) / (mass + alpha);
            if (d[k]! > top) top = d[k]!;
          }
          if (top < purity) continue;
          for (let k = 0; k < K; k++) mix[k]! += c * d[k]!;
          wsum += c;
        }
        let best = textBest;
        if (wsum > 0) {
          applied[s]!++;
          let bs = Number.NEGATIVE_INFINITY;
          for (let k = 0; k < K; k++) {
            const m = mix[k]! / wsum;
            const v = logp[k]! + beta * (Math.log(m) - (pmi ? Math.log(prior[k]!) : 0));
            if (v > bs) {
              bs = v;
              best = k;
            }
          }
        }
        if (best !== textBest) changed[s]!++;
        if (best === y) {
          ok[s]![f]!++;
          if (supported) okSup[s]!++;
          else okNoSup[s]!++;
        }
      });
    }
    const c = process.cpuUsage(tf);
    console.log(
      `  fold ${f}: text alone ${pct(ok[S]![f]! / tot[f]!)}%; ${goldHosts} (host, class) cells with training-fold gold; ${((c.user + c.system) / 1e6).toFixed(1)} CPU-s`,
    );
  }

  const acc = ok.map((a) => Array.from(a, (x, f) => x / tot[f]!));
  const base = acc[S]!;
  const total = tot.reduce((a, b) => a + b, 0);
  console.log(
    `held-out queries: ${total}; with a host some other log query clicked: ${nSup} (text alone ${pct(okSup[S]! / nSup)}%), without: ${nNoSup} (${pct(okNoSup[S]! / nNoSup)}%); with a host a training-fold labelled query clicked: ${nGoldSup}`,
  );
  console.log(
    `${"shipped self-training, text alone".padEnd(44)} CV ${meanSd(base)}  (folds ${base.map(pct).join(" ")})`,
  );
  settings.forEach((st, s) => {
    const a = acc[s]!;
    const diff = a.map((x, f) => x - base[f]!);
    const won = diff.filter((x) => x > 0).length;
    const lost = diff.filter((x) => x < 0).length;
    console.log(
      `${label(st).padEnd(44)} CV ${meanSd(a)}  (folds ${a.map(pct).join(" ")}; vs text ${won} up ${lost} down, mean ${(diff.reduce((x, y) => x + y, 0) / 0.05).toFixed(2)}; supported ${pct(okSup[s]! / nSup)}% / rest ${pct(okNoSup[s]! / nNoSup)}%; host term on ${applied[s]}, ${changed[s]} changed)`,
    );
  });
  // The setting chosen per fold by the other four folds' mean accuracy, among all and among the deployable ones.
  const choose = (what: string, among: (st: Setting) => boolean) => {
    const chosen: number[] = [];
    const picks: string[] = [];
    for (let f = 0; f < 5; f++) {
      let best = -1;
      let bestAcc = base.reduce((x, y, g) => (g === f ? x : x + y), 0);
      settings.forEach((st, s) => {
        if (!among(st)) return;
        const a = acc[s]!.reduce((x, y, g) => (g === f ? x : x + y), 0);
        if (a > bestAcc) {
          bestAcc = a;
          best = s;
        }
      });
      chosen.push(best < 0 ? base[f]! : acc[best]![f]!);
      picks.push(best < 0 ? "text" : label(settings[best]!));
    }
    const diff = chosen.map((x, f) => x - base[f]!);
    console.log(
      `${what.padEnd(44)} CV ${meanSd(chosen)}  (folds ${chosen.map(pct).join(" ")}; vs text ${diff.filter((x) => x > 0).length} up ${diff.filter((x) => x < 0).length} down, mean ${(diff.reduce((x, y) => x + y, 0) / 0.05).toFixed(2)}; picks: ${picks.join(" | ")})`,
    );
  };
  choose("chosen on the other four folds, any", () => true);
  choose("chosen on the other four, src1 gold 0", (st) => st[5] === 1 && st[2] === 0);
  const c = process.cpuUsage(t0);
  console.log(`hostprop: ${((c.user + c.system) / 1e6).toFixed(1)} CPU-s after the pool`);
}
