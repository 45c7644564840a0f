import assert from "node:assert/strict";
import { test } from "node:test";
import { effectiveVariant, type MdavParams, semanticMicroaggregation } from "../../src/methods/mdav/index.ts";
import { Rng } from "../../src/util/random.ts";
import { paperMapper, randomLog } from "./fixtures.ts";

test("the exact variant falls back to blocked when its n×n matrix cannot fit, and says so", () => {
  // 200,000 users: 160 GB of Float32 distances (it died with 'Invalid typed array length: 40000000000').
  const big = effectiveVariant("exact", 200_000);
  assert.equal(big.variant, "blocked");
  assert.match(big.note!, /200,000 users: the exact variant needs 149\.0 GiB/);
  assert.deepEqual(effectiveVariant("exact", 1000), { variant: "exact" });
  assert.deepEqual(effectiveVariant("blocked", 200_000), { variant: "blocked" });
});

test("a fallback run is k-anonymous, counted in the summary and reported through warn", async () => {
  const input = randomLog(60, 3);
  const params: MdavParams = { k: 3, variant: "exact", block: 20, workers: 0 };
  const notes: string[] = [];
  // A 1 KB limit: 60 users (14.4 KB of matrix) do not fit.
  const rel = await semanticMicroaggregation(
    input,
    params,
    paperMapper(),
    Rng.fromSeed(1),
    undefined,
    undefined,
    (m) => notes.push(m),
    1024,
  );
  assert.equal(notes.length, 1);
  assert.match(notes[0]!, /blocked variant runs instead/);
  assert.equal(rel.counts["exact variant too large: blocked variant used"], 1);
  const logs = new Map<string, string[]>();
  for (const r of rel.log!.records) logs.set(r.user, [...(logs.get(r.user) ?? []), `${r.query}|${r.time}`]);
  const share = new Map<string, number>();
  for (const l of logs.values()) share.set(l.join("\n"), (share.get(l.join("\n")) ?? 0) + 1);
  for (const l of logs.values()) assert.ok(share.get(l.join("\n"))! >= 3);
  const exact = await semanticMicroaggregation(input, params, paperMapper(), Rng.fromSeed(1));
  assert.equal(exact.counts["exact variant too large: blocked variant used"], undefined);
});
