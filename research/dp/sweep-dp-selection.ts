/**
 * Query selection alone (no counts, no click pairs: the whole (ε, δ) on selection), for the set-union strategies
 * over a grid of d and α, one seeded draw each: the sweep behind docs/results/dp.md's choice of the default.
 * Prints one TSV row per (strategy, d, α) with the distinct queries selected and the CPU-seconds of the selection.
 *
 *   node --max-old-space-size=8192 --import tsx research/dp/sweep-dp-selection.ts --log /tmp/g100k.tsv \
 *       [--epsilon 1] [--delta 1e-5] [--d 20,50,100,300] [--alpha 2,3,5] [--selection weighted-gaussian,policy-gaussian]
 */
import { existsSync } from "node:fs";
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { groupEvents } from "../../src/log/events.ts";
import { loadLog } from "../../src/log/read.ts";
import { boundQueries, histories } from "../../src/methods/dp/contributions.ts";
import { seededRandomness } from "../../src/methods/dp/random.ts";
import { selections } from "../../src/methods/dp/selection/index.ts";
import { silentProgress } from "../../src/util/progress.ts";
import { Rng } from "../../src/util/random.ts";

const { values } = parseArgs({
  options: {
    log: { type: "string" },
    epsilon: { type: "string", default: "1" },
    delta: { type: "string", default: "1e-5" },
    d: { type: "string", default: "20,50,100,300" },
    alpha: { type: "string", default: "2,3,5" },
    selection: { type: "string", default: "weighted-gaussian,policy-gaussian" },
    seed: { type: "string", default: "1" },
  },
});
const path = values.log;
if (!path || !existsSync(path)) {
  process.stderr.write(`sweep-dp-selection: log ${path ?? "(none: --log)"} is absent: nothing to do\n`);
  process.exit(0);
}
const nums = (s: string): number[] => s.split(",").map(Number);
const input = await loadLog([path], { progress: silentProgress });
const users = histories(groupEvents(input.records));
process.stdout.write(
  "selection\tepsilon\tdelta\td\talpha\tqueries_selected\tdistinct_queries_in_bound\tcpu_s\tload1\n",
);
for (const epsilon of nums(values.epsilon))
  for (const delta of nums(values.delta))
    for (const d of nums(values.d)) {
      const bounded = boundQueries(users, d);
      for (const name of values.selection.split(",")) {
        const sel = selections.find((s) => s.name === name);
        if (!sel) throw new Error(`no selection ${name}`);
        for (const alpha of name.startsWith("policy") ? nums(values.alpha) : [0]) {
          const cal = sel.calibrate(epsilon, delta, d, alpha);
          const cpu0 = process.cpuUsage();
          const chosen = sel.select(
            bounded.users,
            bounded.keys.length,
            cal,
            seededRandomness(Rng.fromSeed(Number(values.seed))),
          );
          const cpu = process.cpuUsage(cpu0);
          const row = [
            name,
            epsilon,
            delta,
            d,
            name.startsWith("policy") ? alpha : "",
            chosen.length,
            bounded.keys.length,
            ((cpu.user + cpu.system) / 1e6).toFixed(1),
            loadavg()[0]!.toFixed(1),
          ];
          process.stdout.write(`${row.join("\t")}\n`);
        }
      }
    }
