import assert from "node:assert/strict";
import { test } from "node:test";
import type { QueryLog } from "../../src/log/record.ts";
import { mdav, semanticMicroaggregation } from "../../src/methods/mdav/index.ts";
import { centroidCategory, representativeCategories } from "../../src/methods/mdav/representative.ts";
import { ParamError } from "../../src/methods/method.ts";
import { profileOf } from "../../src/semantic/profile.ts";
import { Rng } from "../../src/util/random.ts";
import { paperMapper, paperTaxonomy, randomLog } from "./fixtures.ts";

/** Each user's released log as a canonical string. */
function logsByUser(log: QueryLog): Map<string, string> {
  const out = new Map<string, string[]>();
  for (const r of log.records) {
    const l = out.get(r.user) ?? [];
    l.push(`${r.query}|${r.time}|${r.clickUrl ?? ""}`);
    out.set(r.user, l);
  }
  return new Map([...out].map(([u, l]) => [u, l.join("\n")]));
}

const params = (k: number) => mdav.parse({ k });

test("every released log is shared by at least k users, users keep their ids, origin points at input rows", async () => {
  const mapper = paperMapper();
  for (const k of [2, 3, 5]) {
    const input = randomLog(37, k);
    const rel = await semanticMicroaggregation(input, params(k), mapper, Rng.fromSeed(1));
    const logs = logsByUser(rel.log!);
    const share = new Map<string, number>();
    for (const l of logs.values()) share.set(l, (share.get(l) ?? 0) + 1);
    for (const [u, l] of logs)
      assert.ok(share.get(l)! >= k, `user ${u} shares her log with ${share.get(l)} < ${k}`);
    const inputUsers = new Set(input.records.map((r) => r.user));
    for (const u of logs.keys()) assert.ok(inputUsers.has(u));
    rel.log!.records.forEach((r, i) => {
      const o = input.records[rel.origin![i]!]!;
      assert.equal(r.query, o.query);
      assert.equal(r.time, o.time);
    });
    assert.deepEqual(rel.guarantee, { model: "k-anonymity", k });
  }
});

test("synthetic queries come from the categories of the cluster (no unmapped query is released)", async () => {
  const mapper = paperMapper();
  const input = randomLog(20, 9);
  const rel = await semanticMicroaggregation(input, params(2), mapper, Rng.fromSeed(3));
  for (const r of rel.log!.records) assert.ok(mapper.map(r.query).length > 0, r.query);
});

test("the same seed gives the same release; another seed picks other queries", async () => {
  const mapper = paperMapper();
  const input = randomLog(40, 4);
  const a = await semanticMicroaggregation(input, params(3), mapper, Rng.fromSeed(7));
  const b = await semanticMicroaggregation(input, params(3), mapper, Rng.fromSeed(7));
  assert.deepEqual(a.log!.records, b.log!.records);
  assert.deepEqual(a.origin, b.origin);
  const c = await semanticMicroaggregation(input, params(3), mapper, Rng.fromSeed(8));
  assert.notDeepEqual(a.origin, c.origin);
});

test("the blocked variant (with worker threads) also releases k-anonymous logs", async () => {
  const mapper = paperMapper();
  const input = randomLog(90, 5);
  for (const workers of [0, 2]) {
    const p = mdav.parse({ k: 3, variant: "blocked", block: 20, workers });
    const rel = await semanticMicroaggregation(input, p, mapper, Rng.fromSeed(1));
    const logs = logsByUser(rel.log!);
    const share = new Map<string, number>();
    for (const l of logs.values()) share.set(l, (share.get(l) ?? 0) + 1);
    for (const l of logs.values()) assert.ok(share.get(l)! >= 3);
    assert.ok(rel.counts.clusters! >= 90 / 5);
  }
});

test("centroid category (Eq. 6) and representative: the quota of each user, nearest categories first", () => {
  const t = paperTaxonomy();
  const space = paperMapper(t).space;
  const id = (p: string) => t.id(p)!;
  const dive = id("Sports/Water_Sports/Swimming_and_Diving");
  const surf = id("Sports/Water_Sports/Windsurfing");
  const soccer = id("Sports/Soccer");
  const med = id("Regional/Europe/Regions/Mediterranean");
  const a = profileOf([dive, dive, surf, med]);
  const b = profileOf([surf, surf, soccer]);
  // Σ ω·δs: surf 2·0.5 + 0.75 + 1 = 2.75 < dive 3·0.5 + 0.75 + 1 = 3.25 (δs(dive, soccer) = 0.75)
  assert.equal(centroidCategory(space, [a, b]), surf);
  const rep = representativeCategories(space, [a, b]);
  // quotas 4/2 = 2 and 3/2 = 1.5 → 2 + 2 (round(3.5) = 4); a gives surf, then dive (δs 0.5 < med 1)
  assert.deepEqual(rep, [surf, dive, surf, surf]);
});

test("parameters are validated", () => {
  assert.throws(() => mdav.parse({ k: 1 }), ParamError);
  assert.throws(() => mdav.parse({ k: 3, variant: "fast" }), ParamError);
  assert.throws(() => mdav.parse({ k: 3, block: 4 }), ParamError);
  assert.deepEqual(mdav.parse({}), { k: 3, variant: "exact", block: 1000, workers: 2 });
});
