/**
 * `npm run eval:dp`: every dp selection strategy × ε × δ on one or more logs — the shared AOL subset and
 * generated logs (`querymask generate --users N --seed S`) — with what each release is worth: distinct queries
 * released, the share of query events the released queries' true counts cover, top-1000 recall, the median
 * relative error of the released counts, and query-click pairs released. Noise is seeded (reproducible; such
 * tables are not private, which does not matter for measuring them).
 *
 * Writes docs/results/dp.tsv (aggregates only: no query of any log). A log that is absent is skipped with a
 * message.
 *
 *   node --max-old-space-size=8192 --import tsx scripts/eval-dp.ts --log aol=../shared/data/aol-top1000/aol_top1000_users.tsv.gz \
 *       --log gen100k=/tmp/g100k.tsv [--selection policy-gaussian,…] [--epsilon 0.5,1,3] [--delta 1e-5,1e-7]
 *       [--d 20] [--alpha 3] [--clicks true] [--out docs/results/dp.tsv]
 */
import { existsSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { groupEvents } from "../src/log/events.ts";
import { guaranteeNumbers } from "../src/log/guarantee.ts";
import { loadLog } from "../src/log/read.ts";
import { dp, plannedGuarantee } from "../src/methods/dp/index.ts";
import { SELECTION_NAMES } from "../src/methods/dp/selection/index.ts";
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
    seed: { type: "string", default: "1" },
    out: { type: "string" },
  },
});

const list = (s: string | undefined): string[] =>
  s === undefined ? [undefined as unknown as string] : s.split(",");
const COLUMNS = [
  "log",
  "users",
  "selection",
  "epsilon",
  "delta",
  "d",
  "alpha",
  "clicks",
  "queries_released",
  "event_coverage_pct",
  "top1000_recall_pct",
  "median_rel_error",
  "pairs_released",
  "eps_spent",
  "delta_spent",
  "cpu_s",
  "load1",
];

const rows: string[][] = [];
for (const spec of values.log) {
  const eq = spec.indexOf("=");
  const [name, path] = eq > 0 ? [spec.slice(0, eq), spec.slice(eq + 1)] : [spec, spec];
  if (!existsSync(path)) {
    process.stderr.write(`eval-dp: ${path} is absent: skipping ${name}\n`);
    continue;
  }
  process.stderr.write(`eval-dp: loading ${name}\n`);
  const input = await loadLog([path], { progress: silentProgress });
  // the truth: query events and distinct users per query
  const events = new Map<string, number>();
  const users = new Map<string, Set<string>>();
  let total = 0;
  for (const e of groupEvents(input.records)) {
    if (e.query === "") continue;
    total++;
    events.set(e.query, (events.get(e.query) ?? 0) + 1);
    let s = users.get(e.query);
    if (!s) {
      s = new Set();
      users.set(e.query, s);
    }
    s.add(e.user);
  }
  const nUsers = new Set(input.records.map((r) => r.user)).size;
  const top = [...events.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 1000)
    .map(([q]) => q);
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
            };
            if (d !== undefined) raw.d = d;
            if (alpha !== undefined) raw.alpha = alpha;
            const params = dp.parse(raw);
            const cpu0 = process.cpuUsage();
            const r = await dp.anonymize(input, params, {
              rng: Rng.fromSeed(Number(values.seed)),
              progress: silentProgress,
            });
            const cpu = process.cpuUsage(cpu0);
            const released = r.table!.queries;
            const got = new Set(released.map((q) => q.query));
            let covered = 0;
            for (const q of got) covered += events.get(q) ?? 0;
            const errors = released
              .map((q) => {
                const truth = selection === "korolova" ? events.get(q.query)! : users.get(q.query)!.size;
                return Math.abs(q.count - truth) / truth;
              })
              .sort((a, b) => a - b);
            const median = errors.length === 0 ? Number.NaN : errors[Math.floor((errors.length - 1) / 2)]!;
            const row = [
              name,
              String(nUsers),
              params.selection,
              String(params.epsilon),
              String(params.delta),
              String(params.d),
              params.selection.startsWith("policy") ? String(params.alpha) : "",
              String(params.clicks),
              String(released.length),
              ((100 * covered) / total).toFixed(2),
              ((100 * top.filter((q) => got.has(q)).length) / top.length).toFixed(1),
              Number.isNaN(median) ? "" : median.toFixed(3),
              String(r.table!.clicks.length),
              String(guaranteeNumbers(plannedGuarantee(params)).epsilon),
              String(guaranteeNumbers(plannedGuarantee(params)).delta),
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
