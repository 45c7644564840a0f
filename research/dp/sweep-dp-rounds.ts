/**
 * The sweep behind `targeted`'s design (docs/results/dp.md, "Rounds"): query selection alone, at the default plan's
 * query-selection share (ε = 1, δ = 1e-5, clicks, d = 10), for a few round designs — ρ shares, filters, candidates
 * per user, how many a later round weighs and in what order — each with three noise draws (seeded: a
 * measurement). Runs the strategy's own round code (`roundsSelect`) on each user's ranked candidates, read one
 * user at a time; prints distinct queries selected.
 *
 *   node --max-old-space-size=8192 --import tsx research/dp/sweep-dp-rounds.ts --log /work/data-cache/gen-users100000-seed5.tsv
 */
import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import { openLog } from "../../src/log/read.ts";
import { userBlocks } from "../../src/log/user-blocks.ts";
import { gaussianPlan } from "../../src/methods/dp/accountant.ts";
import { boundQueriesByUser } from "../../src/methods/dp/by-user.ts";
import { seededRandomness } from "../../src/methods/dp/random.ts";
import { lengthPrior } from "../../src/methods/dp/selection/length-weighted.ts";
import { type RoundsDesign, roundsCalibration, roundsSelect } from "../../src/methods/dp/selection/rounds.ts";
import { silentProgress } from "../../src/util/progress.ts";
import { Rng } from "../../src/util/random.ts";

const { values } = parseArgs({ options: { log: { type: "string" }, d: { type: "string", default: "10" } } });
if (!values.log || !existsSync(values.log)) {
  process.stderr.write(`sweep-dp-rounds: log ${values.log ?? "(none)"} is absent\n`);
  process.exit(0);
}
const path = values.log;
const d = Number(values.d);

interface Swept extends RoundsDesign {
  /** Ranked candidates per user, in multiples of d (round 1 reads the first `firstD`). */
  readonly candidates: number;
}
const design = (
  rho: number[],
  keep: number[],
  first: number,
  more: { candidates?: number; laterD?: number[]; byNoisy?: boolean } = {},
): Swept => ({
  rho,
  threshold: rho.length === 3 ? [0.25, 0.25, 0.5] : rho.length === 2 ? [0.5, 0.5] : [0.15, 0.15, 0.2, 0.5],
  firstD: (x) => first * x,
  ...(more.laterD ? { laterD: more.laterD.map((f) => (x: number) => Math.max(1, Math.ceil(f * x))) } : {}),
  ...(more.byNoisy ? { byNoisy: true } : {}),
  keep,
  candidates: more.candidates ?? first,
});
const designs: Record<string, Swept> = {
  "two rounds 0.25/0.75, filter 25%": design([0.25, 0.75], [0.25], 5),
  "three rounds 0.15/0.25/0.6, filters 25%/45%, 3d": design([0.15, 0.25, 0.6], [0.25, 0.45], 3),
  "three rounds 0.2/0.3/0.5, filters 20%/40%, 5d": design([0.2, 0.3, 0.5], [0.2, 0.4], 5),
  "the same, later rounds on 10d": design([0.2, 0.3, 0.5], [0.2, 0.4], 5, { candidates: 10 }),
  "the same, round 3 on 0.4d of highest noisy weight (targeted)": design([0.2, 0.3, 0.5], [0.2, 0.4], 5, {
    candidates: 10,
    laterD: [1, 0.4],
    byNoisy: true,
  }),
  "the same, round 3 on 0.3d": design([0.2, 0.3, 0.5], [0.2, 0.4], 5, {
    candidates: 10,
    laterD: [1, 0.3],
    byNoisy: true,
  }),
  "the same, round 3 on 0.1d": design([0.2, 0.3, 0.5], [0.2, 0.4], 5, {
    candidates: 10,
    laterD: [1, 0.1],
    byNoisy: true,
  }),
  "four rounds 0.1/0.15/0.25/0.5, filters 25%/35%/45%, 3d": design(
    [0.1, 0.15, 0.25, 0.5],
    [0.25, 0.35, 0.45],
    3,
  ),
  "no filter (dp-sips's, with the prior), 5d": design([0.2, 0.3, 0.5], [-Infinity, -Infinity], 5),
};

const plan = gaussianPlan(1, 1e-5, true, d);
const sigma = 1 / Math.sqrt(2 * plan.querySelection.rho);
const passes = {
  async *pass() {
    yield* userBlocks((await openLog([path], { lenient: true, keepSource: false })).batches());
  },
};
const most = Math.max(...Object.values(designs).map((x) => x.candidates));
const first = await boundQueriesByUser(passes, most * d, lengthPrior, silentProgress);
const prior = Float64Array.from(first.queries.keys, lengthPrior);
for (const [name, des] of Object.entries(designs)) {
  const users = first.queries.users.map((u) => u.slice(0, des.candidates * d));
  const cal = roundsCalibration(des, sigma, plan.querySelection.thresholdDelta, d);
  const got = [1, 2, 3].map(
    (seed) =>
      roundsSelect(des, users, first.queries.keys.length, cal, seededRandomness(Rng.fromSeed(seed)), prior)
        .length,
  );
  process.stdout.write(`${name}\t${got.join("\t")}\n`);
}
