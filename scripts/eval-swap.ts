/**
 * `npm run eval:swap`: reproduce paper 000's evaluation of the swap anonymizer on the shared AOL subset
 * (../shared/data/aol-top1000, read in place, never copied) and the saps-qls grid, side by side with the authors'
 * published figures (../shared/anchors/saps-qls). Writes aggregate figures only (no query text, no user id) as
 * TSV plus a markdown summary under docs/results/. Skips cleanly when the data is absent.
 *
 *   node --expose-gc --import tsx scripts/eval-swap.ts [--only fig,grid,delta,profile,finalk,report]
 *        [--ks 2,3] [--depths 1,3] [--deltas 1.2,2] [--pin] [--standin]
 *
 * Categories come from the project classifier (src/classify), whatever it currently produces. The 160,852
 * distinct queries are classified once and cached in `.cache/eval-swap/` (git-ignored), keyed by a hash of the
 * input file and of everything the classifier reads (src/classify, src/knowledge, src/scrub, src/text, the
 * bundled data under data/, package-lock.json): when either changes the cache is rebuilt. The cache holds
 * query text, so it never leaves `.cache/`.
 *
 * Each section merges its rows into its TSV by key, so the evaluation can be run in parts (each under the
 * machine's ~10-minute benchmark lock) and `--only report` then writes swap.md from whatever TSVs exist.
 * --pin: reuse the newest cached classification even when the classifier has changed since (so that the parts of
 * one evaluation see the same categories); the key used is recorded in swap-input.tsv.
 * --standin: categories from a hash of the query into the ODP skeleton (no classifier); writes swap-standin-*.
 */
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync, gzipSync } from "node:zlib";
import type { AttackResult } from "../src/attacks/attack.ts";
import { getAttack } from "../src/attacks/registry.ts";
import { Taxonomy } from "../src/knowledge/taxonomy.ts";
import { loadLog } from "../src/log/read.ts";
import type { LogRecord, QueryLog } from "../src/log/record.ts";
import { swapRecords } from "../src/methods/swap/index.ts";
import { parseSwapParams } from "../src/methods/swap/params.ts";
import { Profiler } from "../src/profile/profiler.ts";
import { SqliteProfileStore } from "../src/profile/sqlite-store.ts";
import { silentProgress } from "../src/util/progress.ts";
import { Rng } from "../src/util/random.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const AOL = join(ROOT, "../shared/data/aol-top1000/aol_top1000_users.tsv.gz");
const ANCHORS = join(ROOT, "../shared/anchors/saps-qls/saps_stats_autodepth.tsv");
const ANCHORS_EMD = join(ROOT, "../shared/anchors/saps-qls/saps_emd.tsv");
const OUT = join(ROOT, "docs/results/");
const CACHE = join(ROOT, ".cache/eval-swap/");
const STANDIN = process.argv.includes("--standin");
const PREFIX = STANDIN ? "swap-standin" : "swap";

function listArg(name: string): string[] | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1]?.split(",") : undefined;
}
const SECTIONS = ["fig", "grid", "delta", "profile", "finalk", "report"];
const ONLY = new Set(listArg("--only") ?? SECTIONS);
/**
 * The paper's text gives no k values (Figs. 6–7 are images); these span its "lowest k" to the largest the
 * saps-qls tables use.
 */
const FIG_KS = listArg("--ks")?.map(Number) ?? [2, 3, 5, 10, 20, 30, 50];
const GRID_KS = listArg("--ks")?.map(Number) ?? [3, 10, 30];
/** Our ODP skeleton has 3 levels below Top, so depth ≥ 3 is the same run as depth 3. */
const DEPTHS = listArg("--depths")?.map(Number) ?? [1, 2, 3];
const DELTAS = listArg("--deltas")?.map(Number) ?? [1.1, 1.2, 1.5, 2, 3];
const DEANONS = ["deanon1", "deanon2", "deanon3", "deanon4"];

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const log = (s: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${s}\n`);

/** Run fn and measure CPU seconds and heap growth (after GC when exposed). */
async function measure<T>(fn: () => T | Promise<T>): Promise<{ value: T; cpu: number; heapMiB: number }> {
  gc();
  const h0 = process.memoryUsage().heapUsed;
  const c0 = process.cpuUsage();
  const value = await fn();
  const c = process.cpuUsage(c0);
  const heapMiB = (process.memoryUsage().heapUsed - h0) / 2 ** 20;
  return { value, cpu: (c.user + c.system) / 1e6, heapMiB };
}

// ---------------------------------------------------------------------------------------------------------
// Classification, once, cached by input and classifier version.

function hashFiles(h: ReturnType<typeof createHash>, path: string): void {
  if (!existsSync(path)) return;
  if (statSync(path).isDirectory()) {
    for (const f of readdirSync(path).sort()) hashFiles(h, join(path, f));
    return;
  }
  h.update(path.slice(ROOT.length));
  h.update(readFileSync(path));
}

/** Hash of the input log and of everything the classifier's output depends on. */
function classifierKey(): string {
  const h = createHash("sha256");
  hashFiles(h, AOL);
  for (const p of ["src/classify", "src/knowledge", "src/scrub", "src/text", "data", "package-lock.json"]) {
    hashFiles(h, join(ROOT, p));
  }
  return h.digest("hex").slice(0, 16);
}

type Label = [category: string, scrubbed: string];

/** Stand-in categories: query → an ODP node drawn by prior from a hash of the text (deterministic). */
function standIn(): (q: string) => Label {
  const t = Taxonomy.bundled();
  const ids = t.ids().filter((id) => t.depth(id) >= 1);
  const cum: number[] = [];
  let s = 0;
  for (const id of ids) {
    s += t.prior(id) + 1;
    cum.push(s);
  }
  return (q) => {
    let h = 2166136261;
    for (let i = 0; i < q.length; i++) h = Math.imul(h ^ q.charCodeAt(i), 16777619);
    const x = ((h >>> 0) / 2 ** 32) * s;
    let lo = 0;
    let hi = cum.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cum[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return [t.path(ids[lo]!), q];
  };
}

/** Query → [category, scrubbed text] for every distinct query, from the cache or by classifying. */
async function labels(records: readonly LogRecord[]): Promise<{ map: Map<string, Label>; how: string }> {
  if (STANDIN) {
    const f = standIn();
    const map = new Map<string, Label>();
    for (const r of records) if (!map.has(r.query)) map.set(r.query, f(r.query));
    return { map, how: "STAND-IN (hash of the query into the ODP skeleton by prior), NOT the classifier" };
  }
  let key = classifierKey();
  if (process.argv.includes("--pin") && existsSync(CACHE)) {
    // Reuse the newest cached classification even if the classifier changed since: all parts of one
    // evaluation then see the same categories while the classifier is being worked on.
    const newest = readdirSync(CACHE)
      .filter((f) => /^classified-[0-9a-f]{16}\.json\.gz$/.test(f))
      .map((f) => ({ f, t: statSync(join(CACHE, f)).mtimeMs }))
      .sort((a, b) => b.t - a.t)[0];
    if (newest) key = newest.f.slice(11, 27);
  }
  const file = join(CACHE, `classified-${key}.json.gz`);
  const how = `project classifier (src/classify, paper 000 Algorithm 1), cache key ${key}`;
  if (existsSync(file)) {
    const rows = JSON.parse(gunzipSync(readFileSync(file)).toString("utf8")) as [string, string, string][];
    log(`eval-swap: classified queries from ${file.slice(ROOT.length)}`);
    return { map: new Map(rows.map(([q, c, s]) => [q, [c, s]])), how };
  }
  const mod = (await import("../src/classify/classifier.ts")) as {
    Classifier: {
      create(o?: {
        cacheSize?: number;
      }): Promise<{ classify(q: string): { category: string; scrubbed: string } }>;
    };
  };
  const m = await measure(async () => {
    const c = await mod.Classifier.create({ cacheSize: 0 });
    const map = new Map<string, Label>();
    for (const r of records) {
      if (map.has(r.query)) continue;
      const x = c.classify(r.query);
      map.set(r.query, [x.category, x.scrubbed]);
    }
    return map;
  });
  log(`eval-swap: classified ${m.value.size} distinct queries in ${m.cpu.toFixed(1)} CPU-s`);
  mkdirSync(CACHE, { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, gzipSync(JSON.stringify([...m.value].map(([q, [c, s]]) => [q, c, s]))));
  renameSync(tmp, file);
  // Keep the three newest classifications (older classifier versions are of no further use).
  const old = readdirSync(CACHE)
    .filter((f) => /^classified-[0-9a-f]{16}\.json\.gz$/.test(f))
    .map((f) => ({ f, t: statSync(join(CACHE, f)).mtimeMs }))
    .sort((a, b) => b.t - a.t)
    .slice(3);
  for (const { f } of old) rmSync(join(CACHE, f));
  return { map: m.value, how };
}

// ---------------------------------------------------------------------------------------------------------
// Runs.

interface Run {
  records: LogRecord[];
  origin: Int32Array;
  counts: Record<string, number>;
  buckets: [string, number][];
  cpu: number;
  heapMiB: number;
}

async function anonymize(input: LogRecord[], raw: Record<string, unknown>, seed = 1): Promise<Run> {
  const m = await measure(() => swapRecords(input, parseSwapParams(raw), Rng.fromSeed(seed)));
  return { ...m.value, cpu: m.cpu, heapMiB: m.heapMiB };
}

async function attack(
  name: string,
  original: QueryLog,
  run: Run,
  params: Record<string, unknown>,
): Promise<AttackResult & { cpu: number; heapMiB: number }> {
  const released: QueryLog = { records: run.records, format: original.format };
  const m = await measure(() =>
    getAttack(name).run({
      original,
      released,
      origin: run.origin,
      params,
      rng: Rng.fromSeed(3),
      progress: silentProgress,
    }),
  );
  return { ...m.value, cpu: m.cpu, heapMiB: m.heapMiB };
}

/** Per user, the count of query events in each category (full path), as the profiler counts them. */
function eventProfiles(
  records: readonly LogRecord[],
  keep?: (i: number) => boolean,
): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  let prev: LogRecord | undefined;
  records.forEach((r, i) => {
    const p = prev;
    prev = r;
    if (keep && !keep(i)) return;
    if (p && p.user === r.user && p.time === r.time && p.query === r.query) return;
    let m = out.get(r.user);
    if (m === undefined) {
      m = new Map();
      out.set(r.user, m);
    }
    const c = r.category ?? "";
    m.set(c, (m.get(c) ?? 0) + 1);
  });
  return out;
}

/**
 * Profile distortion as a tree earth mover's distance: for each user, the original and released category
 * distributions (full ODP paths) are compared on the ODP tree with unit edge lengths, where EMD = Σ over
 * non-root nodes |P(subtree) − Q(subtree)|. Reported as the mean over users and as % of the largest possible
 * value (2 × the deepest level: all mass moved between two deepest leaves under different top-level nodes).
 */
function treeEmd(
  a: Map<string, Map<string, number>>,
  b: Map<string, Map<string, number>>,
): { mean: number; pct: number; users: number } {
  let maxDepth = 1;
  const mass = (m: Map<string, number> | undefined, sign: number, into: Map<string, number>) => {
    if (!m) return;
    let total = 0;
    for (const n of m.values()) total += n;
    for (const [c, n] of m) {
      const parts = c.split("/");
      const off = parts[0] === "Top" ? 1 : 0;
      if (parts.length - off > maxDepth) maxDepth = parts.length - off;
      for (let d = off + 1; d <= parts.length; d++) {
        const node = parts.slice(0, d).join("/");
        into.set(node, (into.get(node) ?? 0) + (sign * n) / total);
      }
    }
  };
  let sum = 0;
  let users = 0;
  for (const u of new Set([...a.keys(), ...b.keys()])) {
    const diff = new Map<string, number>();
    mass(a.get(u), 1, diff);
    mass(b.get(u), -1, diff);
    let e = 0;
    for (const v of diff.values()) e += Math.abs(v);
    sum += e;
    users++;
  }
  const mean = users === 0 ? 0 : sum / users;
  return { mean, pct: (100 * mean) / (2 * maxDepth), users };
}

/**
 * A denser stream from the same data: each (user, period) becomes a user of its own ("<user>#<n>") and every
 * period is laid over the first one. Folding the 3-month subset by day gives ≈ 3.5 events/s, the density of the
 * full AOL log the paper and saps-qls ran on (36.4M logs / 92 days ≈ 4.6/s; 27.2M ≈ 3.4/s).
 */
function fold(records: readonly LogRecord[], period: number): LogRecord[] {
  const t0 = records.reduce((m, r) => Math.min(m, r.time), Number.POSITIVE_INFINITY);
  return records.map((r) => {
    const slot = Math.floor((r.time - t0) / period);
    return { ...r, user: `${r.user}#${slot}`, time: t0 + ((r.time - t0) % period) };
  });
}

// ---------------------------------------------------------------------------------------------------------
// TSV files, merged by key so that the evaluation can run in parts.

type Cell = string | number;
const fmt = (v: Cell) => (typeof v === "number" ? String(Number(v.toFixed(4))) : v);

function readTsv(name: string): { header: string[]; rows: string[][] } | undefined {
  const path = `${OUT}${name.replace(/^swap/, PREFIX)}`;
  if (!existsSync(path)) return undefined;
  const [h, ...rows] = readFileSync(path, "utf8")
    .trimEnd()
    .split("\n")
    .map((l) => l.split("\t"));
  return { header: h!, rows };
}

/** Merge rows into a TSV: rows with the same first `keyCols` cells replace the old ones; sorted by key. */
function mergeTsv(name: string, header: string[], rows: Cell[][], keyCols: number): void {
  const old = readTsv(name);
  const key = (r: string[]) => r.slice(0, keyCols).join("\t");
  const map = new Map<string, string[]>();
  if (old && old.header.join("\t") === header.join("\t")) for (const r of old.rows) map.set(key(r), r);
  for (const r of rows) {
    const s = r.map(fmt);
    map.set(key(s), s);
  }
  const cmp = (x: string, y: string) => {
    const nx = Number(x);
    const ny = Number(y);
    return Number.isNaN(nx) || Number.isNaN(ny) ? (x < y ? -1 : x > y ? 1 : 0) : nx - ny;
  };
  const sorted = [...map.values()].sort((x, y) => {
    for (let i = 0; i < keyCols; i++) {
      const c = cmp(x[i]!, y[i]!);
      if (c !== 0) return c;
    }
    return 0;
  });
  mkdirSync(OUT, { recursive: true });
  writeFileSync(
    `${OUT}${name.replace(/^swap/, PREFIX)}`,
    `${[header, ...sorted].map((r) => r.join("\t")).join("\n")}\n`,
  );
}

const H = {
  fig6: ["k", "variant", "matching_pct", "matching_pct_ignoring_time", "released_rows"],
  fig7: ["k", "attack", "linked_pct", "users_linked", "cpu_us_per_record", "anonymizer_final_k"],
  grid: [
    "stream",
    "k",
    "depth",
    "final_k_mean",
    "buckets",
    "cpu_us_per_record",
    "best_attack_pct",
    "best_attack",
    "deanon1_pct",
    "deanon2_pct",
    "deanon3_pct",
    "deanon4_pct",
    "emd_mean",
    "emd_pct_of_max",
    "suppressed_rows",
  ],
  delta: [
    "k",
    "delta",
    "cpu_s",
    "cpu_us_per_record",
    "final_k_mean",
    "final_k_max",
    "buckets",
    "buckets_grown",
    "k_growths",
    "max_held_events",
    "suppressed_rows",
  ],
  profile: ["k", "users", "profile_rows_original", "profile_rows_released", "identical", "suppressed_rows"],
  resources: ["component", "cpu_us_per_record", "heap_growth_mib", "max_held_events"],
  finalk: [
    "stream",
    "k",
    "users",
    "events",
    "events_per_s",
    "final_k_mean",
    "final_k_max",
    "buckets",
    "buckets_grown",
    "k_growths",
  ],
};

function bucketsGrown(buckets: [string, number][], k: number): number {
  return buckets.filter(([, x]) => x > k).length;
}

// ---------------------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  if (!existsSync(AOL)) {
    log(`eval-swap: ${AOL} is absent; skipping (the AOL subset is read from ../shared/data, never bundled)`);
    return;
  }
  const needData = [...ONLY].some((s) => s !== "report");
  let records: LogRecord[] = [];
  let original: QueryLog = { records, format: "aol" };
  let all = 0;
  let how = "";
  if (needData) {
    const loaded = await loadLog([AOL], { keepSource: false });
    const got = await labels(loaded.records);
    how = got.how;
    for (const r of loaded.records) {
      const l = got.map.get(r.query)!;
      r.category = l[0];
      r.query = l[1];
    }
    all = loaded.records.length;
    records = loaded.records.filter((r) => r.category !== "");
    original = { records, format: loaded.format };
    log(`eval-swap: ${records.length} of ${all} rows classified (${how})`);
    mergeTsv(
      "swap-input.tsv",
      ["what", "value"],
      [
        ["rows", all],
        ["rows_classified", records.length],
        ["classified_pct", (100 * records.length) / all],
        ["users", new Set(records.map((r) => r.user)).size],
        ["categories", how],
      ],
      1,
    );
  }

  // Fig. 6 and 7: matching records (A(NR) vs A) and de-anonymizer recovery vs k, depth 1, δ = 1.2.
  for (const k of ONLY.has("fig") ? FIG_KS : []) {
    const nr = await anonymize(records, { k, ownAuthor: true, time: "original" });
    const a = await anonymize(records, { k });
    const fig6: Cell[][] = [];
    for (const [variant, run] of [
      ["A(NR)", nr],
      ["A", a],
    ] as const) {
      const withTime = await attack("matcher", original, run, { matchTime: true });
      const noTime = await attack("matcher", original, run, { matchTime: false });
      fig6.push([k, variant, withTime.linkedPct, noTime.linkedPct, run.records.length]);
    }
    mergeTsv("swap-fig6-matching.tsv", H.fig6, fig6, 2);
    const fig7: Cell[][] = [];
    for (const d of DEANONS) {
      const r = await attack(d, original, a, { k, delta: 1.2, depth: 1 });
      fig7.push([
        k,
        d,
        r.linkedPct,
        r.usersLinked,
        (r.cpu / Math.max(1, r.total)) * 1e6,
        a.counts["final k mean"]!,
      ]);
    }
    mergeTsv("swap-fig7-deanon.tsv", H.fig7, fig7, 2);
    log(`eval-swap: fig k=${k}: ${fig7.map((r) => `${r[1]} ${Number(r[2]).toFixed(2)}%`).join(", ")}`);
  }

  // The saps-qls grid: k × depth, our best de-anonymizer vs the authors' best attack, and profile distortion.
  if (ONLY.has("grid")) {
    for (const stream of listArg("--streams") ?? ["subset", "day-folded"]) {
      const input = stream === "subset" ? records : fold(records, 86400);
      const orig: QueryLog = { records: input, format: original.format };
      const before = eventProfiles(input);
      for (const k of GRID_KS) {
        for (const depth of DEPTHS) {
          const r = await anonymize(input, { k, depth });
          const pcts: number[] = [];
          for (const d of DEANONS) pcts.push((await attack(d, orig, r, { k, delta: 1.2, depth })).linkedPct);
          const best = pcts.indexOf(Math.max(...pcts));
          const emd = treeEmd(before, eventProfiles(r.records));
          mergeTsv(
            "swap-saps-grid.tsv",
            H.grid,
            [
              [
                stream,
                k,
                depth,
                r.counts["final k mean"]!,
                r.counts.buckets!,
                (r.cpu / input.length) * 1e6,
                pcts[best]!,
                DEANONS[best]!,
                ...pcts,
                emd.mean,
                emd.pct,
                r.counts["suppressed rows"]!,
              ],
            ],
            3,
          );
          log(
            `eval-swap: grid ${stream} k=${k} depth=${depth}: final k ${r.counts["final k mean"]!.toFixed(2)}, best ${DEANONS[best]} ${pcts[best]!.toFixed(2)}%, EMD ${emd.pct.toFixed(2)}%`,
          );
        }
      }
    }
  }

  // Figs. 4–5: δ's effect on time and final k.
  if (ONLY.has("delta")) {
    for (const k of listArg("--ks")?.map(Number) ?? [3, 10]) {
      for (const delta of DELTAS) {
        const r = await anonymize(records, { k, delta });
        mergeTsv(
          "swap-delta.tsv",
          H.delta,
          [
            [
              k,
              delta,
              r.cpu,
              (r.cpu / records.length) * 1e6,
              r.counts["final k mean"]!,
              r.counts["final k max"]!,
              r.counts.buckets!,
              bucketsGrown(r.buckets, k),
              r.counts["k growths"]!,
              r.counts["max held events"]!,
              r.counts["suppressed rows"]!,
            ],
          ],
          2,
        );
      }
      log(`eval-swap: delta k=${k} done`);
    }
  }

  // Final k vs the number of users, and vs the density of the stream (see docs/results/swap.md).
  if (ONLY.has("finalk")) {
    const users = [...new Set(records.map((r) => r.user))].sort();
    const fkKs = listArg("--ks")?.map(Number) ?? [3, 10, 30];
    const row = (label: string, sub: LogRecord[], k: number, r: Run): Cell[] => {
      let lo = Number.POSITIVE_INFINITY;
      let hi = Number.NEGATIVE_INFINITY;
      for (const x of sub) {
        if (x.time < lo) lo = x.time;
        if (x.time > hi) hi = x.time;
      }
      const span = Math.max(1, hi - lo);
      return [
        label,
        k,
        new Set(sub.map((x) => x.user)).size,
        r.counts["input events"]!,
        r.counts["input events"]! / span,
        r.counts["final k mean"]!,
        r.counts["final k max"]!,
        r.counts.buckets!,
        bucketsGrown(r.buckets, k),
        r.counts["k growths"]!,
      ];
    };
    for (const n of [50, 100, 250, 500, 1000]) {
      const keep = new Set(users.slice(0, n));
      const sub = records.filter((r) => keep.has(r.user));
      for (const k of fkKs)
        mergeTsv(
          "swap-finalk.tsv",
          H.finalk,
          [row(`first ${n} users`, sub, k, await anonymize(sub, { k }))],
          2,
        );
    }
    // Denser streams from the same data: each (user, week) or (user, day) becomes a user of its own and all
    // weeks (days) are laid over the first one, so 13× (92×) more users search at once — the full AOL log
    // (36M logs, 3 months) is ≈ 115× denser than this 1000-user subset.
    for (const [label, period] of [
      ["folded by week", 7 * 86400],
      ["folded by day", 86400],
    ] as const) {
      const folded = fold(records, period);
      for (const k of fkKs)
        mergeTsv("swap-finalk.tsv", H.finalk, [row(label, folded, k, await anonymize(folded, { k }))], 2);
      log(`eval-swap: finalk ${label} done`);
    }
    mergeTsv("swap-finalk-streaks.tsv", ["k", "events", "events_full_single_user_pct"], streaks(records), 1);
  }

  // §4.5: profile equality (original minus suppressed events vs released), and Tables 2–3.
  if (ONLY.has("profile")) {
    const base = await anonymize(records, { k: 3 });
    const kept = new Set(base.origin);
    const pa = new SqliteProfileStore(":memory:");
    const pb = new SqliteProfileStore(":memory:");
    const profA = new Profiler(pa);
    profA.update(records.filter((_, i) => kept.has(i)));
    profA.flush();
    const profB = new Profiler(pb);
    const prof = await measure(() => {
      profB.update(base.records);
      profB.flush();
    });
    const rowsA = pa.rows();
    const rowsB = pb.rows();
    const same = JSON.stringify(rowsA) === JSON.stringify(rowsB);
    const users = pa.users().length;
    pa.close();
    pb.close();
    mergeTsv(
      "swap-profile-equality.tsv",
      H.profile,
      [[3, users, rowsA.length, rowsB.length, same ? "yes" : "no", base.counts["suppressed rows"]!]],
      1,
    );
    const resources: Cell[][] = [
      ["anonymizer (k=3)", (base.cpu / records.length) * 1e6, base.heapMiB, base.counts["max held events"]!],
      ["profiler (SQLite :memory:)", (prof.cpu / base.records.length) * 1e6, prof.heapMiB, ""],
    ];
    for (const d of DEANONS) {
      const r = await attack(d, original, base, { k: 3, delta: 1.2, depth: 1 });
      resources.push([d, (r.cpu / r.total) * 1e6, r.heapMiB, ""]);
    }
    mergeTsv("swap-resources.tsv", H.resources, resources, 1);
    log(
      `eval-swap: profile equality ${same ? "yes" : "no"}; peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`,
    );
  }

  if (ONLY.has("report")) report();
  log(`eval-swap: done; ${(process.cpuUsage().user / 1e6).toFixed(1)} CPU-s user in this process`);
}

/**
 * How often, in the time-ordered stream of this subset, an event arrives while the previous k−1 events of its
 * top-level category were all its own author's: the situation in which a bucket of size k holds one user only
 * (the δ rule), independent of the anonymizer's state.
 */
function streaks(records: readonly LogRecord[]): Cell[][] {
  const ev: { user: string; time: number; cat: string }[] = [];
  let prev: LogRecord | undefined;
  for (const r of records) {
    const p = prev;
    prev = r;
    if (p && p.user === r.user && p.time === r.time && p.query === r.query) continue;
    ev.push({ user: r.user, time: r.time, cat: (r.category ?? "").split("/").slice(0, 2).join("/") });
  }
  const order = ev.map((_, i) => i).sort((a, b) => ev[a]!.time - ev[b]!.time || a - b);
  const rows: Cell[][] = [];
  for (const k of [3, 10, 30]) {
    const run = new Map<string, { user: string; n: number }>();
    let hits = 0;
    for (const i of order) {
      const e = ev[i]!;
      const s = run.get(e.cat);
      if (s && s.user === e.user) s.n++;
      else run.set(e.cat, { user: e.user, n: 1 });
      if (run.get(e.cat)!.n >= k) hits++;
    }
    rows.push([k, ev.length, (100 * hits) / ev.length]);
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------------------
// The markdown summary, from the TSVs on disk.

function anchors(): Map<string, { kf: number; us: number; best: number; bestAlg: string; emdPct?: number }> {
  const out = new Map<string, { kf: number; us: number; best: number; bestAlg: string; emdPct?: number }>();
  if (!existsSync(ANCHORS)) return out;
  for (const line of readFileSync(ANCHORS, "utf8").trim().split("\n").slice(1)) {
    const [alg, k, depth, kf, , , , , , , logTime, , pct] = line.split("\t");
    const key = `${k}/${depth}`;
    const a = out.get(key) ?? { kf: Number.NaN, us: Number.NaN, best: 0, bestAlg: "" };
    if (alg === "SA1") Object.assign(a, { kf: Number(kf), us: Number(logTime) * 1e6 });
    else if (Number(pct) > a.best) Object.assign(a, { best: Number(pct), bestAlg: alg! });
    out.set(key, a);
  }
  if (existsSync(ANCHORS_EMD)) {
    for (const line of readFileSync(ANCHORS_EMD, "utf8").trim().split("\n").slice(1)) {
      const c = line.split("\t");
      const key = `${c[1]}/${c[13]}`;
      const a = out.get(key) ?? { kf: Number.NaN, us: Number.NaN, best: Number.NaN, bestAlg: "" };
      a.emdPct = Number(c[5]);
      out.set(key, a);
    }
  }
  return out;
}

function num(v: unknown, digits = 2): string {
  const n = typeof v === "string" ? Number(v) : v;
  if (typeof n === "number" && Number.isNaN(n)) return "–";
  return typeof n === "number" && Number.isFinite(n) && v !== "" ? n.toFixed(digits) : String(v ?? "");
}

function table(header: string[], rows: string[][]): string[] {
  return [
    `| ${header.join(" | ")} |`,
    `|${header.map(() => "---").join("|")}|`,
    ...rows.map((r) => `| ${r.join(" | ")} |`),
  ];
}

function report(): void {
  const input = new Map((readTsv("swap-input.tsv")?.rows ?? []).map((r) => [r[0]!, r[1]!]));
  const fig6 = readTsv("swap-fig6-matching.tsv")?.rows ?? [];
  const fig7 = readTsv("swap-fig7-deanon.tsv")?.rows ?? [];
  const grid = readTsv("swap-saps-grid.tsv")?.rows ?? [];
  /** Best attack % of a grid cell (k = 3), as text. */
  const bestAt = (stream: string, depth: number) =>
    num(grid.find((g) => g[0] === stream && Number(g[1]) === 3 && Number(g[2]) === depth)?.[6], 1);
  const delta = readTsv("swap-delta.tsv")?.rows ?? [];
  const prof = readTsv("swap-profile-equality.tsv")?.rows ?? [];
  const res = readTsv("swap-resources.tsv")?.rows ?? [];
  const fk = readTsv("swap-finalk.tsv")?.rows ?? [];
  const st = readTsv("swap-finalk-streaks.tsv")?.rows ?? [];
  const anchor = anchors();
  const ks = [...new Set(fig7.map((r) => r[0]!))];
  const md: string[] = [
    `# Swap anonymizer (paper 000) — evaluation on the shared AOL subset${STANDIN ? " (STAND-IN categories)" : ""}`,
    "",
    `Generated by \`npm run eval:swap\` (parts: \`--only fig|grid|delta|finalk|profile|report\`), ${new Date().toISOString().slice(0, 10)}.`,
    `Input: ../shared/data/aol-top1000 (the 1000 heaviest AOL users), ${num(input.get("rows_classified"), 0)} of ${num(input.get("rows"), 0)} rows classified and kept (${num(input.get("classified_pct"), 1)}%; unclassified queries discarded, as in the paper §4.2.1), ${num(input.get("users"), 0)} users.`,
    `**Categories: ${input.get("categories") ?? "?"}.** Events fed in time order, δ = 1.2, seed 1 unless stated.`,
    "Linked % = released rows attributed to their true author (ground truth from `origin`). Aggregate figures only.",
    "",
    "## Fig. 6 — matching records (matcher), depth 1",
    "",
    ...table(
      ["k", "A(NR) identical %", "A identical %", "A(NR) ignoring time %", "A ignoring time %"],
      ks.map((k) => {
        const g = (v: string, c: number) => num(fig6.find((r) => r[0] === k && r[1] === v)?.[c]);
        return [k, g("A(NR)", 2), g("A", 2), g("A(NR)", 3), g("A", 3)];
      }),
    ),
    "",
    "A(NR) = the paper's ablation (own author allowed, no k growth, original times); A = the default swap (never",
    "under its author, release time). A(NR)'s records left under their own author fall roughly as 1/k, as in",
    "the paper's Fig. 6. A's matches are coincidences, not re-linked events: another user's",
    "identical query text (navigational queries) released to a user who searched that text too — and, with",
    "time, at the very second of that user's own search, since the release time is the time of the arriving",
    "event.",
    "",
    "## Fig. 7 — de-anonymizers 1–4 (% of released rows linked to their true author), depth 1",
    "",
    ...table(
      ["k", ...DEANONS, "final k (anonymizer)"],
      ks.map((k) => [
        k,
        ...DEANONS.map((d) => num(fig7.find((r) => r[0] === k && r[1] === d)?.[2])),
        num(fig7.find((r) => r[0] === k)?.[5]),
      ]),
    ),
    "",
    "Paper: ≈ 1.89% at its lowest k (full AOL, 36.4M logs, 650k users, its own classifier); saps-qls' later",
    "attacks on the full log: 13.2% at k = 3, 5.3% at k = 10, 2.3% at k = 30 (grid below). Ours falls with k like",
    "both; at k = 3 it lies between them, at k = 10 and 30 above saps-qls on this sparse subset (and below it on the",
    "day-folded stream, grid). For k ≤ 10 the curve is flat because on this sparse stream every bucket's k grows",
    'to ≈ 14–16 anyway (last column; see "Final k"). deanon2–4 beat the random deanon1 by a third; 3 and 4',
    '(history) add little over 2, as the paper found ("all performed in a similar way").',
    "",
    "## saps-qls grid — ours vs the authors' Go implementation (27.2M AOL logs)",
    "",
    ...table(
      [
        "stream",
        "k",
        "depth",
        "final k",
        "anchor K_F",
        "best attack % (ours)",
        "anchor best attack %",
        "profile EMD % of max (ours)",
        "anchor emd_tpc %",
        "µs/record CPU (ours, batch)",
        "anchor µs/log",
      ],
      [...grid.filter((g) => g[0] === "subset"), ...grid.filter((g) => g[0] !== "subset")].map((g) => {
        const a = anchor.get(`${g[1]}/${g[2]}`);
        return [
          g[0]!,
          g[1]!,
          g[2]!,
          num(g[3]),
          num(a?.kf),
          `${num(g[6])} (${g[7]})`,
          a?.bestAlg ? `${num(a.best)} (${a.bestAlg})` : "–",
          num(g[13]),
          num(a?.emdPct),
          num(g[5]),
          num(a?.us),
        ];
      }),
    ),
    "",
    "Streams: `subset` = the 1000-user subset as it is (0.04 events/s); `day-folded` = the same events with every",
    "user-day made a user of its own and all 92 days laid over one (3.5 events/s, the density of the full log the",
    "anchors ran on; an attack is right there only if it names the right user-day).",
    "",
    "Depth: our ODP skeleton has three levels below Top, so depth 3 is the deepest bucket (anchor rows at depth",
    "≥ 3 are comparable to it: their 3/5/7 give 7.61–6.81% at k = 3, 2.19–2.23% at k = 10). The anchor's µs/log is",
    "the streaming anonymizer alone; ours here is the batch run (event grouping, time sort, released copy) — see",
    "bench/swap.bench.ts for the stage's speed. The anchors have no depth-2 attack rows.",
    "",
    `**Deeper buckets.** The anchors' attacks lose power with depth (13.2% → 7.6% at k = 3); ours gain (${bestAt("subset", 1)}% →`,
    `${bestAt("subset", 3)}% on the subset, ${bestAt("day-folded", 1)}% → ${bestAt("day-folded", 3)}% day-folded, depth 1 → 3), while the profile distortion falls with depth in both. A`,
    "deeper bucket here holds fewer distinct users (it opens once it has seen k of them) and the history rules",
    "(deanon3/4) see a user's finer interests, so their guesses narrow; saps-qls' attacks (AF, AA) are not",
    "described beyond their names, so we cannot tell which of their choices makes the difference. Left open.",
    "",
    "**EMD.** saps_emd.tsv gives an earth mover's distance between original and anonymized user profiles",
    "(`calc_emd` / `max_emd` = `emd_tpc`) without defining the ground distance or the maximum; its `tree_depth`",
    "column runs 1–13 and the distance falls to 0 at depth 13, i.e. profiles are compared at full category depth",
    "and a deeper bucket distorts them less. Ours: per user, tree EMD with unit edges between the original and",
    "released distributions over full ODP paths, mean over users, as % of its maximum (2 × 3 levels). Same idea,",
    "different tree (3 levels vs ODP's 13) and normalisation: **compare the trend with depth, not the values.**",
    "At depth 1 both keep the top-level profile exactly (the §4.5 property); what moves is the finer levels.",
    "",
    "## δ (Figs. 4–5)",
    "",
    ...table(
      [
        "k",
        "δ",
        "CPU µs/record",
        "final k mean",
        "final k max",
        "buckets grown / buckets",
        "k growths",
        "suppressed rows",
      ],
      delta.map((d) => [d[0]!, d[1]!, num(d[3]), num(d[4]), num(d[5]), `${d[7]} / ${d[6]}`, d[8]!, d[10]!]),
    ),
    "",
    "Larger δ → fewer growths and a larger final k (the paper's Fig. 5 direction); time is not affected (Fig. 4).",
    "",
    "## Final k — why ours is above the anchor's",
    "",
    "Our δ rule is the paper's (Algorithm 2: k ← k·δ when every user stored in the category set is the same;",
    `model-tested in test/swap/core.test.ts). The gap to saps-qls' K_F (k = 3: ${num(grid.find((g) => g[0] === "subset" && Number(g[1]) === 3 && Number(g[2]) === 1)?.[3], 1)} vs 3.38) is the stream, not`,
    "the rule: the 1000-user subset spreads 302k events over 92 days (0.04 events/s), so a heavy user's run of",
    `searches in one category is rarely interleaved with anyone else's — ${num(st.find((r) => Number(r[0]) === 3)?.[2], 1)}% of events complete a single-user`,
    "run of 3 in their category — and each run longer than the bucket's k grows it, until k exceeds the longest",
    "runs. Fewer users (sparser still) change that little down to 100; a stream as dense as the full log does: laid over one day,",
    "the same events (3.5 events/s vs the full log's 3.4–4.6) give final k 3.00 at k = 3 — no bucket ever holds",
    'one user only, as the paper expected ("very unlikely ... due to the huge quantity of queries"). K_F values',
    "look like means of integer k over 16 buckets (3.375 = 54/16, e.g. ten at 3 and six at 4); at k = 10, 30 saps-qls",
    "still grows (11.75, 42.7) where the paper's rule on the dense stream does not, so its trigger is probably",
    "broader than Algorithm 2's; its README does not define it.",
    "",
    "The same anonymizer (δ = 1.2, depth 1) on the first N users of the subset (by id), and on denser streams",
    "made from the whole subset by folding time (each user-week or user-day becomes a user of its own, all laid",
    "over one week or one day):",
    "",
    ...table(
      [
        "stream",
        "k",
        "users",
        "events",
        "events/s",
        "final k mean",
        "final k max",
        "buckets grown / buckets",
        "k growths",
      ],
      [...fk]
        .sort((x, y) => Number(x[4]) - Number(y[4]) || Number(x[1]) - Number(y[1]))
        .map((r) => [
          r[0]!,
          r[1]!,
          r[2]!,
          r[3]!,
          num(r[4], 3),
          num(r[5]),
          num(r[6]),
          `${r[8]} / ${r[7]}`,
          r[9]!,
        ]),
    ),
    "",
    "Share of events that arrive when the previous k − 1 events of their top-level category (time order) were all",
    "by their own author — the moment a bucket of size k can hold one user only:",
    "",
    ...table(
      ["k", "events", "events completing a single-user run of k %"],
      st.map((r) => [r[0]!, r[1]!, num(r[2], 3)]),
    ),
    "",
    "## §4.5 — profile equality",
    "",
    ...table(
      ["k", "users", "profile rows original", "profile rows released", "identical", "suppressed rows"],
      prof.map((r) => r.map(String)),
    ),
    "",
    "## Tables 2–3 — resources on the subset (batch runs; CPU time, heap growth during the run)",
    "",
    ...table(
      ["component", "CPU µs/record", "heap growth MiB", "max held events"],
      res.map((r) => [r[0]!, num(r[1]), num(r[2]), r[3] ?? ""]),
    ),
    "",
    "The anonymizer's heap growth here is the released copy of the log kept for the attacks; its own state is the",
    "held events (column 4). The stage's speed and flat memory at 10M rows: bench/swap.bench.ts.",
    "",
  ];
  writeFileSync(`${OUT}${PREFIX}.md`, md.join("\n"));
  log(`eval-swap: wrote ${OUT}${PREFIX}.md`);
}

main().catch((err) => {
  process.stderr.write(`eval-swap: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
