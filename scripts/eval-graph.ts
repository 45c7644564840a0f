/**
 * `npm run eval:graph`: the removal methods on ../shared/data/aol-top1000 — Poblete et al. 2010's query-click graph
 * disconnection (Methods 1–3, with and without the extension towards k-anonymity), the frequency-threshold
 * baseline, and the Korolova et al. DP release — each timed (CPU and wall seconds) with what it removed or
 * released.
 *
 * Writes docs/results/graph.tsv (aggregates only: counts, no query of the AOL log). Skips with a message when
 * the AOL data is absent.
 *
 *   node --expose-gc --max-old-space-size=8192 --import tsx scripts/eval-graph.ts [--out docs/results/graph.tsv]
 *       [--only graph|threshold|dp]
 */
import { existsSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { SHARED_AOL } from "../bench/shared-aol.ts";
import { loadLog } from "../src/log/read.ts";
import { loadMethod } from "../src/methods/registry.ts";
import { silentProgress } from "../src/util/progress.ts";
import { Rng } from "../src/util/random.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const AOL = SHARED_AOL;

const { values } = parseArgs({
  options: {
    out: { type: "string", default: join(ROOT, "docs/results/graph.tsv") },
    only: { type: "string" },
  },
});

/** Runs: method, parameters. */
const RUNS: [string, Record<string, unknown>][] = [
  ["graph", { variant: 1 }],
  ["graph", { variant: 2 }],
  ["graph", { variant: 3 }],
  ["graph", { variant: 1, vulnerable: true }],
  ["graph", { variant: 1, k: 2 }],
  ["graph", { variant: 1, k: 2, K: 2 }],
  ["graph", { variant: 1, vulnerable: true, k: 2, K: 2 }],
  ["graph", { variant: 2, vulnerable: true, k: 2, K: 2 }],
  ["graph", { variant: 3, vulnerable: true, k: 2, K: 2 }],
  ["graph", { variant: 1, vulnerable: true, k: 5, K: 3 }],
  ["threshold", { k: 2 }],
  ["threshold", { k: 5 }],
  ["threshold", { k: 10 }],
  ["dp", { selection: "korolova", epsilon: 1, delta: 1e-5, d: 20 }],
  ["dp", { selection: "korolova", epsilon: 1, delta: 1e-5, d: 20, clicks: false }],
  ["dp", { selection: "korolova", epsilon: 1, delta: 1e-3, d: 1 }],
  ["dp", { selection: "korolova", epsilon: Math.log(10), delta: 1e-5, d: 1, clicks: false }],
];

const COLUMNS = [
  "method",
  "params",
  "cpu_s",
  "wall_s",
  "load1",
  "queries_removed",
  "events_removed",
  "rows_removed",
  "users_removed",
  "queries_released",
  "events_released",
  "users_released",
  "removed_vulnerable",
  "removed_k_results",
  "removed_K_sites",
  "removed_disconnection",
  "edges_before",
  "edges_after",
  "density_before",
  "density_after",
  "dp_b",
  "dp_K",
  "dp_queries_released",
  "dp_click_pairs_released",
] as const;

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

async function main(): Promise<void> {
  if (!existsSync(AOL)) {
    process.stdout.write(`AOL subset not found at ${AOL}: nothing to do\n`);
    return;
  }
  const log = await loadLog([AOL], { keepSource: false });
  const lines = [COLUMNS.join("\t")];
  for (const [name, raw] of RUNS) {
    if (values.only && values.only !== name) continue;
    const method = await loadMethod(name);
    const params = method.parse(raw);
    gc();
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const r = await method.anonymize(log, params, { rng: Rng.fromSeed(1), progress: silentProgress });
    const wall = (performance.now() - t0) / 1000;
    const u = process.cpuUsage(c0);
    const cpu = (u.user + u.system) / 1e6;
    const c = r.counts;
    const v = (key: string, d?: number): string => {
      const x = c[key];
      if (x === undefined) return "";
      return d === undefined ? String(x) : x.toPrecision(d);
    };
    const args = Object.entries(raw)
      .map(([k, x]) => `${k}=${typeof x === "number" && !Number.isInteger(x) ? x.toPrecision(4) : x}`)
      .join(" ");
    const row = [
      name,
      args,
      cpu.toFixed(2),
      wall.toFixed(2),
      loadavg()[0]!.toFixed(1),
      v("queries removed"),
      v("events removed"),
      v("rows removed"),
      v("users removed"),
      v("queries released"),
      v("events released"),
      v("users released"),
      v("queries removed (vulnerable)"),
      v("queries removed (k results)"),
      v("queries removed (K sites)"),
      v("queries removed (disconnection)"),
      v("edges before (one per shared URL)"),
      v("edges after (one per shared URL)"),
      v("density before", 4),
      v("density after", 4),
      v("noise scale b", 4),
      v("threshold K", 6),
      name === "dp" ? String(r.table?.queries.length ?? 0) : "",
      name === "dp" ? String(r.table?.clicks.length ?? 0) : "",
    ];
    lines.push(row.join("\t"));
    process.stdout.write(`${row.join(" | ")}\n`);
  }
  writeFileSync(values.out, `${lines.join("\n")}\n`);
}

await main();
