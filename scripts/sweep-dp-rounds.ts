/**
 * Experiment (not a strategy yet): Weighted Gaussian selection in rounds, as in DP-SIPS (Swanberg, Desfontaines,
 * Haney, PoPETs 2023): round r spends ρ_r of the selection's zCDP budget and δ_r of its threshold δ; items
 * released in earlier rounds leave every user's list, each user then takes their d most typed remaining queries.
 * Query selection alone, at the Gaussian plan's query-selection share (ε = 1, δ = 1e-5, clicks).
 *
 *   node --max-old-space-size=8192 --import tsx scripts/sweep-dp-rounds.ts --log /tmp/g100k.tsv [--d 20]
 */
import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import { groupEvents } from "../src/log/events.ts";
import { loadLog } from "../src/log/read.ts";
import { gaussianPlan } from "../src/methods/dp/accountant.ts";
import { boundQueries, histories } from "../src/methods/dp/contributions.ts";
import { gaussianNoise, seededRandomness } from "../src/methods/dp/random.ts";
import { setUnionRho } from "../src/methods/dp/selection/policy-gaussian.ts";
import { weightedHistogram } from "../src/methods/dp/selection/weighted-gaussian.ts";
import { silentProgress } from "../src/util/progress.ts";
import { Rng } from "../src/util/random.ts";

const { values } = parseArgs({
  options: {
    log: { type: "string" },
    d: { type: "string", default: "20" },
    seed: { type: "string", default: "1" },
  },
});
if (!values.log || !existsSync(values.log)) {
  process.stderr.write(`sweep-dp-rounds: log ${values.log ?? "(none)"} is absent\n`);
  process.exit(0);
}
const d = Number(values.d);
const input = await loadLog([values.log], { progress: silentProgress });
const ranked = boundQueries(histories(groupEvents(input.records)), 1_000_000); // each user's queries, most typed first
const items = ranked.keys.length;
const plan = gaussianPlan(1, 1e-5, true, d);
const rho = plan.querySelection.rho;
const thr = plan.querySelection.thresholdDelta;

function rounds(rhoShares: number[], deltaShares: number[]): number {
  const random = seededRandomness(Rng.fromSeed(Number(values.seed)));
  const released = new Uint8Array(items);
  let total = 0;
  rhoShares.forEach((share, r) => {
    const sigma = 1 / Math.sqrt(2 * share * rho);
    const cut = setUnionRho(sigma, deltaShares[r]! * thr, d);
    const users = ranked.users.map((list) => {
      const out: number[] = [];
      for (const id of list) {
        if (released[id]) continue;
        out.push(id);
        if (out.length === d) break;
      }
      return Int32Array.from(out);
    });
    const h = weightedHistogram(users, items);
    const noise = gaussianNoise(random, sigma);
    for (let i = 0; i < items; i++)
      if (!released[i] && h[i]! > 0 && h[i]! + noise() > cut) {
        released[i] = 1;
        total++;
      }
  });
  return total;
}
const configs: [string, number[], number[]][] = [
  ["1 round", [1], [1]],
  ["2 rounds ρ 0.1/0.9", [0.1, 0.9], [0.25, 0.75]],
  ["2 rounds ρ 0.2/0.8", [0.2, 0.8], [0.25, 0.75]],
  ["2 rounds ρ 0.3/0.7", [0.3, 0.7], [0.5, 0.5]],
  ["3 rounds ρ 0.05/0.15/0.8", [0.05, 0.15, 0.8], [0.2, 0.2, 0.6]],
  ["3 rounds ρ 0.1/0.2/0.7", [0.1, 0.2, 0.7], [0.2, 0.3, 0.5]],
];
for (const [name, r, dl] of configs) process.stdout.write(`${name}\t${rounds(r, dl)}\n`);
