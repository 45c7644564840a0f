/**
 * `npm run eval:dp`: every dp selection strategy × ε × δ on one or more logs grouped by user — the shared AOL
 * subset and generated logs (`querymask generate --users N --seed S`), of any size: the method reads each log
 * one user at a time (`dp.anonymizeByUser`, the path the command takes), so a 1M-user log fits. For each run:
 * distinct queries released, beside the per-item optimum Σ π(c) — Desfontaines et al. 2022: a query held by c
 * users can be released with probability at most π(c) by any user-level (ε, δ)-DP algorithm that releases only
 * queries present in the log, so Σ π(c) over the log's queries bounds the expected release of every strategy —
 * the share of query events the released queries cover, top-1000 recall, the median relative error of the
 * released counts, and query-click pairs released. Σ π(c) reads the exact counts: an evaluation figure, never
 * part of a release. Noise is seeded (a measurement: the same distribution as a release, reproducible).
 *
 * Like `querymask anonymize --method dp` it runs the method on the log as logged per record, but without the
 * scrubber (the command scrubs identifiers first): figures differ from the command's by a few queries.
 * Writes TSV (aggregates only: no query of any log); a log that is absent is skipped with a message.
 *
 *   npm run eval:dp -- --log aol=../shared/data/aol-top1000/aol_top1000_users.tsv.gz \
 *       --log gen100k=/work/data-cache/gen-users100000-seed5.tsv [--selection targeted,…] [--epsilon 0.5,1,3]
 *       [--delta 1e-5,1e-7] [--d 20] [--alpha 3] [--clicks true] [--canonical false] [--seed 1] [--out f.tsv]
 */
import { existsSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { groupEvents } from "../src/log/events.ts";
import { guaranteeNumbers } from "../src/log/guarantee.ts";
import { openLog } from "../src/log/read.ts";
import type { LogRecord } from "../src/log/record.ts";
import { userBlocks } from "../src/log/user-blocks.ts";
import { canonicalQuery } from "../src/methods/dp/canonical.ts";
import { dp, plannedGuarantee } from "../src/methods/dp/index.ts";
import { SELECTION_NAMES } from "../src/methods/dp/selection/index.ts";
import { keepProbabilities } from "../src/methods/dp/selection/optimal.ts";
import type { UserPasses } from "../src/methods/method.ts";
import { silentProgress } from "../src/util/progress.ts";
import { Rng } from "../src/util/random.ts";

const { values } = parseArgs({
  options: {
    log: { type: "string", multiple: true, default: [] },
    selection: { type: "string", default: SELECTION_NAMES.join(",") },
    epsilon: { type: "string", default: "0.5,1,3" },
    delta: { type: "string", default: "1e-5,1e-7" },
    d: { type: "string" },
    alpha: { type: "string" },
    clicks: { type: "string", default: "true" },
    canonical: { type: "string", default: "false" },
    seed: { type: "string", default: "1" },
    out: { type: "string" },
  },
});

const list = (s: string | undefined): (string | undefined)[] =>
  s === undefined ? [undefined] : s.split(",");
const COLUMNS = [
  "log",
  "users",
  "selection",
  "epsilon",
  "delta",
  "d",
  "alpha",
  "clicks",
  "canonical",
  "queries_released",
  "sum_pi",
  "pct_of_sum_pi",
  "event_coverage_pct",
  "top1000_recall_pct",
  "median_rel_error",
  "pairs_released",
  "eps_spent",
  "delta_spent",
  "cpu_s",
  "load1",
];

/** A user-grouped file as the method reads it: one pass per call. */
const passesOver = (path: string): UserPasses => ({
  async *pass(): AsyncGenerator<LogRecord[]> {
    const log = await openLog([path], { lenient: true, progress: undefined, keepSource: false });
    yield* userBlocks(log.batches());
  },
});

/** The truth the figures are measured against: per query (in the form the release uses) events and users. */
async function truthOf(path: string, canonical: boolean) {
  const events = new Map<string, number>();
  const users = new Map<string, number>();
  let total = 0;
  let nUsers = 0;
  for await (const block of passesOver(path).pass()) {
    const mine = new Set<string>();
    for (const e of groupEvents(block)) {
      const q = canonical && e.query !== "" ? canonicalQuery(e.query) : e.query;
      if (q === "") continue;
      total++;
      events.set(q, (events.get(q) ?? 0) + 1);
      mine.add(q);
    }
    if (mine.size > 0) nUsers++;
    for (const q of mine) users.set(q, (users.get(q) ?? 0) + 1);
  }
  const top = [...events.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 1000)
    .map(([q]) => q);
  return { events, users, total, nUsers, top };
}

/** Σ over the log's queries of π(c), the most any (ε, δ)-DP algorithm can release a c-user query with. */
function sumPi(users: ReadonlyMap<string, number>, epsilon: number, delta: number): number {
  const pi = keepProbabilities(epsilon, delta);
  let sum = 0;
  for (const c of users.values()) sum += c >= pi.length ? 1 : pi[c]!;
  return sum;
}

const rows: string[][] = [];
for (const spec of values.log) {
  const eq = spec.indexOf("=");
  const [name, path] = eq > 0 ? [spec.slice(0, eq), spec.slice(eq + 1)] : [spec, spec];
  if (!existsSync(path)) {
    process.stderr.write(`eval-dp: ${path} is absent: skipping ${name}\n`);
    continue;
  }
  const canonical = values.canonical === "true";
  process.stderr.write(`eval-dp: reading ${name}\n`);
  const truth = await truthOf(path, canonical);
  for (const selection of list(values.selection))
    for (const epsilon of list(values.epsilon))
      for (const delta of list(values.delta))
        for (const d of list(values.d))
          for (const alpha of list(values.alpha)) {
            const raw: Record<string, unknown> = {
              selection,
              epsilon,
              delta,
              noise: "seeded",
              clicks: values.clicks,
              canonical: values.canonical,
            };
            if (d !== undefined) raw.d = d;
            if (alpha !== undefined) raw.alpha = alpha;
            const params = dp.parse(raw);
            const cpu0 = process.cpuUsage();
            const r = await dp.anonymizeByUser!(passesOver(path), params, {
              rng: Rng.fromSeed(Number(values.seed)),
              progress: silentProgress,
              warn: () => {},
            });
            const cpu = process.cpuUsage(cpu0);
            const released = r.table!.queries;
            const got = new Set(released.map((q) => q.query));
            let covered = 0;
            for (const q of got) covered += truth.events.get(q) ?? 0;
            const errors = released
              .map((q) => {
                const t = selection === "korolova" ? truth.events.get(q.query)! : truth.users.get(q.query)!;
                return Math.abs(q.count - t) / t;
              })
              .sort((a, b) => a - b);
            const median = errors.length === 0 ? Number.NaN : errors[Math.floor((errors.length - 1) / 2)]!;
            const bound = sumPi(truth.users, params.epsilon, params.delta);
            const planned = guaranteeNumbers(plannedGuarantee(params));
            const row = [
              name,
              String(truth.nUsers),
              params.selection,
              String(params.epsilon),
              String(params.delta),
              String(params.d),
              raw.alpha !== undefined || /policy|greedy/.test(params.selection) ? String(params.alpha) : "",
              String(params.clicks),
              String(params.canonical),
              String(released.length),
              bound.toFixed(0),
              ((100 * released.length) / bound).toFixed(1),
              ((100 * covered) / truth.total).toFixed(2),
              ((100 * truth.top.filter((q) => got.has(q)).length) / truth.top.length).toFixed(1),
              Number.isNaN(median) ? "" : median.toFixed(3),
              String(r.table!.clicks.length),
              String(planned.epsilon),
              String(planned.delta),
              ((cpu.user + cpu.system) / 1e6).toFixed(1),
              loadavg()[0]!.toFixed(1),
            ];
            rows.push(row);
            process.stderr.write(`${row.join("\t")}\n`);
          }
}
const text = `${[COLUMNS, ...rows].map((r) => r.join("\t")).join("\n")}\n`;
if (values.out) writeFileSync(values.out, text);
else process.stdout.write(text);
