/**
 * `npm run bench -- dp-audit`: the neighbouring-log audit of `querymask anonymize --method dp` at the size that
 * detects a leak of 2δ (test/neighbours/harness.ts): every adversarial pair × every `--selection`, n runs of the
 * command on each log with the default cryptographic noise, at ε = 1 and δ relaxed to 0.2; each event's rates
 * and the Clopper–Pearson verdict of P[L′] ≤ e^ε·P[L] + δ and the reverse (α = 1e-3 per comparison: a leak of
 * 2δ = 0.4 on an event L never shows is caught 97.5% of the time at n = 300). The target: no violation, for
 * every strategy. The CI version is test/neighbours/neighbours.test.ts.
 *
 *   node --import tsx bench/dp-audit.bench.ts [--runs 300] [--selection a,b] [--pairs sole,rare,scrub,split,ties]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { SELECTION_NAMES } from "../src/methods/dp/selection/index.ts";
import {
  manyRare,
  type Pair,
  power,
  rates,
  scrubberDecisions,
  soleClickers,
  splitUser,
  tiePair,
  verdicts,
} from "../test/neighbours/harness.ts";
import { writeResults } from "./results.ts";

const arg = (name: string, def: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? def : process.argv[i + 1]!;
};
const RUNS = Number(arg("runs", "300"));
const EPSILON = 1;
const DELTA = 0.2;
const ALPHA = 1e-3;
const selections = arg("selection", SELECTION_NAMES.join(",")).split(",");
const wanted = arg("pairs", "sole,rare,scrub,split,ties").split(",");
const ARGS = ["--epsilon", String(EPSILON), "--delta", String(DELTA)];

const dir = mkdtempSync(join(tmpdir(), "dp-audit-"));
process.stdout.write(
  `n = ${RUNS} per log, ε = ${EPSILON}, δ = ${DELTA}, α = ${ALPHA}: a leak of 2δ is caught with probability ` +
    `${power(2 * DELTA, RUNS, EPSILON, DELTA, ALPHA).toFixed(3)}; load ${loadavg()[0]!.toFixed(1)}\n`,
);
const t0 = performance.now();
const rows: Record<string, unknown>[] = [];
let violations = 0;
try {
  const fixed: Pair[] = [];
  if (wanted.includes("sole")) fixed.push(soleClickers(dir, 2000));
  if (wanted.includes("rare")) fixed.push(manyRare(dir, 100));
  if (wanted.includes("scrub")) fixed.push(scrubberDecisions(dir, 2000));
  if (wanted.includes("split")) fixed.push(splitUser(dir, 60));
  for (const selection of selections) {
    const pairs = [...fixed];
    if (wanted.includes("ties")) pairs.push(await tiePair(dir, ARGS, selection));
    for (const pair of pairs) {
      const args = [...ARGS, "--selection", selection];
      const out = join(dir, "out.tsv");
      const without = await rates(pair.without, args, pair.events, RUNS, out);
      const withUser = await rates(pair.with, args, pair.events, RUNS, out);
      for (const v of verdicts(pair.events, withUser, without, RUNS, EPSILON, DELTA, ALPHA)) {
        const row = { selection, pair: pair.name, ...v };
        rows.push(row);
        if (v.violated) violations++;
        process.stdout.write(
          `${v.violated ? "VIOLATED" : "ok"}\t${selection}\t${pair.name}\t${v.event}\t${v.direction}\t` +
            `${v.k}/${v.n} vs ${v.kOther}/${v.n}\n`,
        );
      }
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const minutes = (performance.now() - t0) / 60_000;
process.stdout.write(
  `${rows.length} comparisons, ${violations} violated (target: 0) in ${minutes.toFixed(1)} min; load ${loadavg()[0]!.toFixed(1)}\n`,
);
writeResults("dp-audit", {
  runs: RUNS,
  epsilon: EPSILON,
  delta: DELTA,
  alpha: ALPHA,
  rows,
  violations,
  minutes,
});
process.exitCode = violations > 0 ? 1 : 0;
