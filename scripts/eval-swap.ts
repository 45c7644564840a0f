/**
 * `npm run eval:swap`: reproduce Pàmies-Estrems et al. 2016's evaluation of the swap anonymizer on the shared AOL subset
 * (../shared/data/aol-top1000, read in place, never copied) and the saps-qls grid, side by side with the authors'
 * published figures (../shared/anchors/saps-qls). Writes aggregate figures only (no query text, no user id) as
 * TSV plus a markdown summary under docs/results/. Skips cleanly when the data is absent.
 *
 *   node --expose-gc --import tsx scripts/eval-swap.ts [--only fig,grid,seeds,delta,profile,finalk,report]
 *        [--ks 2,3] [--depths 1,3] [--seeds 1,2,3] [--deltas 1.2,2] [--pin] [--standin]
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
import { existsSync } from "node:fs";
import { loadLog } from "../src/log/read.ts";
import type { LogRecord, QueryLog } from "../src/log/record.ts";
import { Profiler } from "../src/profile/profiler.ts";
import { SqliteProfileStore } from "../src/profile/sqlite-store.ts";
import { labels } from "./eval-swap/labels.ts";
import {
  AOL,
  DEANONS,
  DELTAS,
  DEPTHS,
  FIG_KS,
  GRID_KS,
  listArg,
  log,
  measure,
  ONLY,
} from "./eval-swap/options.ts";
import { report } from "./eval-swap/report.ts";
import {
  anonymize,
  attack,
  bucketsGrown,
  eventProfiles,
  fold,
  type Run,
  streaks,
  treeEmd,
} from "./eval-swap/runs.ts";
import { type Cell, H, mergeTsv } from "./eval-swap/tables.ts";

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

  // Depth across seeds: does the best attack rise with depth beyond the seed noise?
  if (ONLY.has("seeds")) {
    const seeds = (listArg("--seeds") ?? ["1", "2", "3", "4", "5"]).map(Number);
    const before = eventProfiles(records);
    for (const k of GRID_KS) {
      for (const depth of DEPTHS) {
        for (const seed of seeds) {
          const r = await anonymize(records, { k, depth }, seed);
          const pcts: number[] = [];
          for (const d of DEANONS)
            pcts.push((await attack(d, original, r, { k, delta: 1.2, depth })).linkedPct);
          const best = Math.max(...pcts);
          const emd = treeEmd(before, eventProfiles(r.records));
          mergeTsv(
            "swap-depth-seeds.tsv",
            H.seeds,
            [
              [
                k,
                depth,
                seed,
                r.counts["final k mean"]!,
                best,
                DEANONS[pcts.indexOf(best)]!,
                ...pcts,
                emd.pct,
                r.counts["suppressed rows"]!,
                how,
              ],
            ],
            3,
          );
          log(`eval-swap: seeds k=${k} depth=${depth} seed=${seed}: best ${best.toFixed(2)}%`);
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

  // §4.5: profile equality (original minus suppressed events vs released), at every k and depth (a deeper
  // bucket must still keep each user's top-level counts), and Tables 2–3 at k = 3, depth 1.
  if (ONLY.has("profile")) {
    /** The top-level profiles of the kept input rows and of the release, in SQLite as the profiler writes them. */
    const equality = async (run: Run) => {
      const kept = new Set(run.origin);
      const pa = new SqliteProfileStore(":memory:");
      const pb = new SqliteProfileStore(":memory:");
      const profA = new Profiler(pa);
      profA.update(records.filter((_, i) => kept.has(i)));
      profA.flush();
      const profB = new Profiler(pb);
      const prof = await measure(() => {
        profB.update(run.records);
        profB.flush();
      });
      const rowsA = pa.rows();
      const rowsB = pb.rows();
      const same = JSON.stringify(rowsA) === JSON.stringify(rowsB);
      const users = pa.users().length;
      pa.close();
      pb.close();
      return {
        prof,
        same,
        row: [users, rowsA.length, rowsB.length, same ? "yes" : "no", run.counts["suppressed rows"]!],
      };
    };
    const rows: Cell[][] = [];
    let base: Run | undefined;
    let prof: { cpu: number; heapMiB: number } | undefined;
    for (const k of GRID_KS) {
      for (const depth of DEPTHS) {
        const run = await anonymize(records, { k, depth });
        const e = await equality(run);
        rows.push([k, depth, ...e.row]);
        log(`eval-swap: profile equality k=${k} depth=${depth}: ${e.same ? "yes" : "no"}`);
        if (k === 3 && depth === 1) {
          base = run;
          prof = e.prof;
        }
      }
    }
    mergeTsv("swap-profile-equality.tsv", H.profile, rows, 2);
    base ??= await anonymize(records, { k: 3 });
    prof ??= (await equality(base)).prof;
    const resources: Cell[][] = [
      ["anonymizer (k=3)", (base.cpu / records.length) * 1e6, base.heapMiB, base.counts["max held events"]!],
      ["profiler (SQLite :memory:)", (prof.cpu / base.records.length) * 1e6, prof.heapMiB, ""],
    ];
    for (const d of DEANONS) {
      const r = await attack(d, original, base, { k: 3, delta: 1.2, depth: 1 });
      resources.push([d, (r.cpu / r.total) * 1e6, r.heapMiB, ""]);
    }
    mergeTsv("swap-resources.tsv", H.resources, resources, 1);
    log(`eval-swap: profile done; peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
  }

  if (ONLY.has("report")) report();
  log(`eval-swap: done; ${(process.cpuUsage().user / 1e6).toFixed(1)} CPU-s user in this process`);
}

main().catch((err) => {
  process.stderr.write(`eval-swap: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
