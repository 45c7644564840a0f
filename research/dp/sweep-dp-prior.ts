/**
 * How a public prior on the weights changes what a Weighted-Gaussian-style selection can release (docs/methods/dp.md,
 * "length-weighted"): for each way of weighting a user's queries (equal; ∝ words^−g; ∝ characters^−g; ∝ the
 * user's own count^b, alone or times words^−g) and each way of choosing their d queries (most typed first, or
 * shortest first), the *expected* number of queries released at the default plan's query selection (ε, δ, the
 * PLD-boosted σ and the any-weights ρ), Σ over queries of P(H + N(0, σ²) > ρ) — no noise drawn, so rows compare
 * without sampling spread. Prints a TSV on stdout; reads the log, prints no query.
 *
 *   node --max-old-space-size=8192 --import tsx research/dp/sweep-dp-prior.ts --log /tmp/g7.tsv [--epsilon 1] [--delta 1e-5] [--d 10,20,50]
 */
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { groupEvents } from "../../src/log/events.ts";
import { loadLog } from "../../src/log/read.ts";
import { gaussianPlan } from "../../src/methods/dp/accountant.ts";
import { histories } from "../../src/methods/dp/contributions.ts";
import { normalCdf } from "../../src/methods/dp/gaussian.ts";
import { anyWeightsRho } from "../../src/methods/dp/selection/length-weighted.ts";
import { silentProgress } from "../../src/util/progress.ts";

const { values } = parseArgs({
  options: {
    log: { type: "string" },
    epsilon: { type: "string", default: "1" },
    delta: { type: "string", default: "1e-5" },
    d: { type: "string", default: "10,20,50" },
  },
});
if (!values.log) {
  process.stderr.write("usage: sweep-dp-prior.ts --log <log> [--epsilon 1] [--delta 1e-5] [--d 10,20,50]\n");
  process.exit(2);
}
const epsilon = Number(values.epsilon);
const delta = Number(values.delta);

interface Item {
  readonly id: number;
  readonly count: number;
  readonly words: number;
  readonly chars: number;
}
const input = await loadLog([values.log], { progress: silentProgress });
const ids = new Map<string, number>();
const users: Item[][] = histories(groupEvents(input.records)).map((list) => {
  const n = new Map<string, number>();
  for (const e of list) n.set(e.query, (n.get(e.query) ?? 0) + 1);
  return [...n].map(([q, count]) => {
    let id = ids.get(q);
    if (id === undefined) {
      id = ids.size;
      ids.set(q, id);
    }
    return { id, count, words: q.split(" ").filter(Boolean).length || 1, chars: q.length || 1 };
  });
});
const items = ids.size;

type Weight = (it: Item) => number;
const weights: [string, Weight][] = [
  ["equal", () => 1],
  ["count^0.5", (it) => it.count ** 0.5],
  ...[0.5, 1, 1.5, 2].map((g): [string, Weight] => [`words^-${g}`, (it) => it.words ** -g]),
  ...[0.5, 1, 1.5].map((g): [string, Weight] => [`chars^-${g}`, (it) => it.chars ** -g]),
  ["count^0.5*words^-1", (it) => it.count ** 0.5 / it.words],
];
const orders: [string, (a: Item, b: Item) => number][] = [
  ["most typed", (a, b) => b.count - a.count],
  ["shortest", (a, b) => a.words - b.words || b.count - a.count],
];

process.stdout.write(
  `# ${values.log}: ${users.length} users, ${items} distinct queries; ε ${epsilon}, δ ${delta}; load ${loadavg()[0]!.toFixed(1)}\n`,
);
process.stdout.write("d\torder\tweight\tsigma\trho\texpected_released\n");
for (const d of values.d!.split(",").map(Number)) {
  const plan = gaussianPlan(epsilon, delta, true, d);
  const sigma = 1 / Math.sqrt(2 * plan.querySelection.rho);
  const rho = anyWeightsRho(sigma, plan.querySelection.thresholdDelta, d);
  for (const [orderName, order] of orders) {
    const kept = users.map((u) => u.slice().sort(order).slice(0, d));
    for (const [name, weight] of weights) {
      const h = new Float64Array(items);
      for (const u of kept) {
        const w = u.map(weight);
        const norm = Math.sqrt(w.reduce((a, x) => a + x * x, 0));
        u.forEach((it, j) => {
          h[it.id]! += w[j]! / norm;
        });
      }
      let expected = 0;
      for (const x of h) if (x > 0) expected += normalCdf((x - rho) / sigma);
      process.stdout.write(
        `${d}\t${orderName}\t${name}\t${sigma.toFixed(3)}\t${rho.toFixed(2)}\t${expected.toFixed(0)}\n`,
      );
    }
  }
}
