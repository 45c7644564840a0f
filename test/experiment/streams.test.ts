/**
 * Each yardstick draws from a random stream of its own, derived from (seed, its name): adding a yardstick, or
 * another m to the background adversary, changes no other value.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { runCombination } from "../../src/experiment/run-one.ts";
import type { LogRecord, QueryLog } from "../../src/log/record.ts";
import { DEFAULT_OPTIONS, type YardstickOptions } from "../../src/metrics/yardstick.ts";
import { Rng } from "../../src/util/random.ts";

/** 40 users whose queries are shared by groups of different sizes, so who is sampled changes the figures. */
function sharedLog(): QueryLog {
  const records: LogRecord[] = [];
  let t = 1000;
  for (let u = 0; u < 40; u++) {
    const queries = ["weather", `group ${u % 7}`, `pair ${u >> 1}`, `team ${u % 3}`];
    if (u % 4 === 0) queries.push(`own ${u}`);
    for (const q of queries) {
      t += 60;
      records.push({ user: `u${u}`, query: q, time: t });
    }
  }
  return { records, format: "aol", classified: false };
}

const input = { log: sharedLog() };
const options = (o: Partial<YardstickOptions>): YardstickOptions => ({
  ...DEFAULT_OPTIONS,
  backgroundTargets: 4,
  ...o,
});

async function values(seed: number, names: string[], o: Partial<YardstickOptions> = {}) {
  const row = await runCombination(input, { method: "identity", params: {}, seed }, "k", names, options(o));
  assert.equal(row.status, "ok", row.error);
  return row.values;
}

test("the background sample depends on the seed (so the checks below can fail)", async () => {
  const seen = new Set<string>();
  for (const seed of [1, 2, 3, 4, 5, 6]) seen.add(JSON.stringify(await values(seed, ["background"])));
  assert.ok(seen.size > 1, "every seed gave the same background figures");
});

test("adding yardsticks before background changes none of its values", async () => {
  for (const seed of [1, 2, 3]) {
    const alone = await values(seed, ["background"]);
    const after = await values(seed, ["rl", "retention", "frequency", "background"]);
    for (const [k, v] of Object.entries(alone)) assert.equal(after[k], v, `seed ${seed}: ${k}`);
  }
});

test("adding an m to the background adversary changes no other m's values", async () => {
  for (const seed of [1, 2, 3]) {
    const one = await values(seed, ["background"], { backgroundM: [2] });
    const three = await values(seed, ["background"], { backgroundM: [1, 2, 3] });
    for (const [k, v] of Object.entries(one)) assert.equal(three[k], v, `seed ${seed}: ${k}`);
  }
});

test("derive draws nothing from the parent and depends only on (state, label)", () => {
  const a = Rng.fromSeed(9);
  const b = Rng.fromSeed(9);
  const x = a.derive("background").float();
  a.derive("other");
  assert.equal(a.float(), b.float());
  assert.equal(Rng.fromSeed(9).derive("background").float(), x);
  assert.notEqual(Rng.fromSeed(9).derive("attacks").float(), x);
  assert.notEqual(Rng.fromSeed(10).derive("background").float(), x);
});
