/**
 * Neighbouring logs through the command a user runs (`querymask anonymize --method dp`, in process through the
 * CLI's entry point, and a few child processes): reading, scrubbing, the bound, selection, counts, pairs, the
 * written table and the summary are all in the path. The small version of `npm run bench -- dp-audit`.
 *
 * Power of these checks (stated, and asserted below from the binomial): n = 50 runs per log, δ relaxed to 0.05,
 * α = 1e-4 per comparison (a correct mechanism can trip only the comparisons whose events happen at all, about
 * 20 here: a false alarm for under 0.2% of seed sets). The runs draw their noise from fixed seeds (L: 1..50, L′:
 * 51..100), so the verdict is the same on every CI run: a test that failed by chance 1 run in 500 would be a red
 * build; the crypto source's own distribution is test/dp/noise.test.ts's. An event a log never shows is flagged when its neighbour
 * shows it with probability 0.9 in 99.7% of CI runs (0.8: 71%); finer leaks (2δ) are the bench's, at n = 300,
 * δ = 0.2, α = 1e-3 (caught 97.5% of the time). Every strategy is checked on the rare-queries and split-user
 * pairs; the bench runs every pair for every strategy.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { SELECTION_NAMES } from "../../src/methods/dp/selection/index.ts";
import { tempDir } from "../helpers/tmp.ts";
import {
  dpSummary,
  manyRare,
  type Pair,
  power,
  rates,
  readTable,
  scrubberDecisions,
  soleClickers,
  splitUser,
  tiePair,
  verdicts,
} from "./harness.ts";

const RUNS = 50;
const EPSILON = 1;
const DELTA = 0.05;
const ALPHA = 1e-4;
const ARGS = ["--epsilon", String(EPSILON), "--delta", String(DELTA)];

/** Runs the pair `RUNS` times each way with `selection` and asserts no event breaks (ε, δ). */
async function check(pair: Pair, selection: string, dir: string): Promise<void> {
  const args = [...ARGS, "--selection", selection];
  const out = join(dir, `${selection}.tsv`);
  const without = await rates(pair.without, args, pair.events, RUNS, out, 1);
  const withUser = await rates(pair.with, args, pair.events, RUNS, out, 1 + RUNS);
  const broken = verdicts(pair.events, withUser, without, RUNS, EPSILON, DELTA, ALPHA).filter(
    (v) => v.violated,
  );
  assert.deepEqual(
    broken.map(
      (v) =>
        `${v.event}: ${v.direction} (${v.k}/${v.n} against ${v.kOther}/${v.n}: δ ≥ ${v.deltaAtLeast.toFixed(3)})`,
    ),
    [],
    `${pair.name}, --selection ${selection}`,
  );
}

test("the checks can fail: their power at the stated n, δ and α", () => {
  assert.ok(
    power(0.9, RUNS, EPSILON, DELTA, ALPHA) >= 0.99,
    `power ${power(0.9, RUNS, EPSILON, DELTA, ALPHA)}`,
  );
  // The bench's setting catches a leak of 2δ.
  assert.ok(power(0.4, 300, EPSILON, 0.2, 1e-3) >= 0.97);
  // And a correct mechanism at exactly e^ε·p + δ is not flagged: the bound is conservative by construction.
  const v = verdicts([{ name: "e", happens: () => true }], [2], [0], RUNS, EPSILON, DELTA, ALPHA);
  assert.ok(v.every((x) => !x.violated));
});

test("sole clickers: one user who clicked every other user's own site does not bring their clicks back", async () => {
  const dir = tempDir();
  const pair = soleClickers(dir, 600);
  for (const selection of ["length-weighted", "korolova", "laplace"]) await check(pair, selection, dir);
});

test("a user whose addition changes the scrubber's decisions on others' clicks", async () => {
  const dir = tempDir();
  // laplace (d = 1) releases a one-user pair with probability near its δ share: the restored pairs show at n.
  await check(scrubberDecisions(dir, 600), "laplace", dir);
});

test("one user holding many rare queries: none of them, nor their clicks, beyond δ (every strategy)", async () => {
  const dir = tempDir();
  const pair = manyRare(dir, 40);
  for (const selection of SELECTION_NAMES) await check(pair, selection, dir);
});

test("a user split across the file counts once (every strategy)", async () => {
  const dir = tempDir();
  const pair = splitUser(dir, 30);
  for (const selection of SELECTION_NAMES) await check(pair, selection, dir);
});

test("ties at the threshold: the e^ε ratio holds both ways for a query at the published threshold", async () => {
  const dir = tempDir();
  for (const selection of ["length-weighted", "korolova", "laplace", "gaussian"]) {
    await check(await tiePair(dir, ARGS, selection), selection, dir);
  }
});

/** The summary with the values the table determines replaced by what the table says. */
function published(stdout: string, table: string): Record<string, unknown> {
  const s = JSON.parse(stdout) as Record<string, unknown>;
  const t = readTable(table);
  assert.equal(
    s["queries released"],
    t.queries.size,
    "the summary's count of released queries is the table's",
  );
  assert.equal(
    s["click pairs released"],
    t.pairs.size,
    "the summary's count of released pairs is the table's",
  );
  const { "queries released": _q, "click pairs released": _p, out: _o, ...rest } = s;
  return rest;
}

test("the published summary and notes of L and L′ are the same apart from what the released table shows", async () => {
  const dir = tempDir();
  for (const pair of [manyRare(dir, 40), soleClickers(dir, 300)]) {
    for (const selection of SELECTION_NAMES) {
      const run = async (log: string) => {
        const out = join(dir, `${selection}-summary.tsv`);
        const r = await dpSummary([...ARGS, "--selection", selection], log, out, false);
        // A phase's wall time ("done in 0.4s") is the progress reporter's, not the release's: compared without it.
        const timed = r.stderr.replace(/done in [\d.]+s/g, "done in …s");
        // The "released no query" note is read off the table (there when the table is empty; its text is the
        // parameters'): it must match the table, and the rest of stderr must be the same for L and L′.
        const note = /^querymask: dp released no query: .*\n/m.exec(timed)?.[0];
        const empty = readTable(out).queries.size === 0;
        assert.equal(
          note !== undefined,
          empty,
          `${pair.name}, ${selection}: a note iff nothing was released`,
        );
        const stderr = note === undefined ? timed : timed.replace(note, "");
        return { summary: published(JSON.stringify(r.summary), out), stderr, note };
      };
      const a = await run(pair.without);
      const b = await run(pair.with);
      assert.deepEqual(b.summary, a.summary, `${pair.name}, ${selection}: --json`);
      assert.equal(b.stderr, a.stderr, `${pair.name}, ${selection}: notes and progress`);
      if (a.note !== undefined && b.note !== undefined)
        assert.equal(b.note, a.note, `${pair.name}, ${selection}`);
    }
  }
});

const CLI = fileURLToPath(new URL("../../src/cli/main.ts", import.meta.url));
const SEEDED = ["--noise", "seeded", "--seed", "1"];

test("child processes run the same path: a few real runs of the command on the rare-queries pair", () => {
  const dir = tempDir();
  const pair = manyRare(dir, 40);
  for (const log of [pair.without, pair.with]) {
    const out = join(dir, "child.tsv");
    const r = spawnSync(
      process.execPath,
      // Seeded: the 40-user queries are released with high probability, not always.
      ["--import", "tsx", CLI, "anonymize", "--method", "dp", ...ARGS, ...SEEDED, log, "-o", out, "-q"],
      { encoding: "utf8" },
    );
    assert.equal(r.status, 0, r.stderr);
    const t = readTable(out);
    assert.ok(t.queries.has("news") && t.queries.has("maps"), readFileSync(out, "utf8").slice(0, 300));
  }
});
