/**
 * The neighbouring-log checks (test/neighbours/harness.ts) on the cluster's dp path: the log files read and
 * scrubbed as the workers read them, each user bounded on one of two shards, the partial sums added up (in memory,
 * where the cluster adds them in PostgreSQL), selected, counted and written as a count table that the events are
 * read off. Runs draw their noise from seeds 1…n (`--noise seeded`), so the check is the same every time: the noise
 * of each run is as random as the crypto source's to the mechanism, and a pass today is a pass on every run.
 * Power and thresholds as test/neighbours/neighbours.test.ts (n = 50, ε = 1, δ = 0.05, α = 1e-4).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { shardedInProcess } from "../../src/cluster/batch-shard.ts";
import { writeCountTable } from "../../src/log/count-table.ts";
import { openLog } from "../../src/log/read.ts";
import type { LogRecord } from "../../src/log/record.ts";
import { dp } from "../../src/methods/dp/index.ts";
import { methodRng } from "../../src/methods/method.ts";
import { emptyCounts } from "../../src/scrub/scrub-log.ts";
import { scrubbedPasses } from "../../src/stream/user-passes.ts";
import { silentProgress } from "../../src/util/progress.ts";
import { tempDir } from "../helpers/tmp.ts";
import { keptSink } from "../helpers/user-passes.ts";
import { manyRare, type Pair, power, readTable, soleClickers, verdicts } from "../neighbours/harness.ts";

const RUNS = 50;
const EPSILON = 1;
const DELTA = 0.05;
const ALPHA = 1e-4;

/** How often each event happens over `RUNS` sharded runs on `log`. */
async function rates(log: string, selection: string, pair: Pair, out: string): Promise<number[]> {
  const params = dp.parse({ selection, epsilon: EPSILON, delta: DELTA, noise: "seeded" });
  const hits = pair.events.map(() => 0);
  for (let seed = 1; seed <= RUNS; seed++) {
    const first = await openLog([log], { lenient: false });
    const passes = await scrubbedPasses(first, [log], { counts: emptyCounts(), singleUserClicks: false });
    const order = (r: LogRecord) => r.source!.line;
    const release = await shardedInProcess(
      dp.sharded!,
      params,
      passes,
      { shards: 2, batchUsers: 3 },
      order,
      { rng: methodRng(seed), progress: silentProgress, warn: () => {} },
      keptSink(),
    );
    await writeCountTable(out, release.table!);
    const t = readTable(out);
    pair.events.forEach((e, j) => {
      if (e.happens(t)) hits[j]!++;
    });
  }
  return hits;
}

async function check(pair: Pair, selection: string, dir: string): Promise<void> {
  const out = join(dir, `${selection}.tsv`);
  const without = await rates(pair.without, selection, pair, out);
  const withUser = await rates(pair.with, selection, pair, out);
  const broken = verdicts(pair.events, withUser, without, RUNS, EPSILON, DELTA, ALPHA).filter(
    (v) => v.violated,
  );
  assert.deepEqual(
    broken.map((v) => `${v.event}: ${v.direction} (${v.k}/${v.n} against ${v.kOther}/${v.n})`),
    [],
    `${pair.name}, --selection ${selection}`,
  );
}

test("the checks can fail at this n: a leak of probability 0.9 is caught", () => {
  assert.ok(power(0.9, RUNS, EPSILON, DELTA, ALPHA) >= 0.99);
});

test("cluster path, one user holding many rare queries: none of them, nor their clicks, beyond δ", async () => {
  const dir = tempDir();
  const pair = manyRare(dir, 40);
  for (const selection of ["weighted-gaussian", "laplace", "length-weighted"])
    await check(pair, selection, dir);
});

test("cluster path, sole clickers: one user who clicked every other user's own site", async () => {
  const dir = tempDir();
  await check(soleClickers(dir, 600), "laplace", dir);
});
