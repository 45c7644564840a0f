/** Each utility/privacy yardstick on hand-made logs with known answers, and the identity / drop-all extremes. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { dropAll } from "../../src/methods/drop-all/index.ts";
import { identity } from "../../src/methods/identity/index.ts";
import { NO_GUARANTEE, type Release, userLevelDp } from "../../src/methods/method.ts";
import { yardsticks } from "../../src/metrics/registry.ts";
import type { Measurement } from "../../src/metrics/yardstick.ts";
import { silentProgress } from "../../src/util/progress.ts";
import { Rng } from "../../src/util/random.ts";
import { context, rec, smallLog } from "../experiment/fixtures.ts";

async function measureAll(release: Release): Promise<Measurement> {
  const original = smallLog();
  const ctx = context();
  const out: Measurement = {};
  for (const y of yardsticks) {
    const m = await y.measure({ original, release, method: { name: "x", paper: "none" } }, ctx);
    for (const c of y.columns(ctx.options)) out[`${y.name}.${c.key}`] = m[c.key] ?? null;
  }
  return out;
}

const methodCtx = { rng: Rng.fromSeed(1), progress: silentProgress };

describe("identity release: worst privacy, no utility loss", () => {
  it("RL and the background adversary reach 100%, retention and recall 100%, distance 0", async () => {
    const v = await measureAll(await identity.anonymize(smallLog(), {}, methodCtx));
    assert.equal(v["rl.rl"], 100);
    // With m ≥ 2 known queries at least one is the target's alone ("weather" is shared by three users), so the
    // target is the unique best match.
    for (const m of [2, 3]) {
      assert.equal(v[`background.m${m}.reidentified`], 100, `m=${m}`);
      assert.equal(v[`background.m${m}.learned`], 100, `m=${m}`);
    }
    // With m = 1 a target whose known query is "weather" ties with two others: 1/3 for that target.
    const m1 = v["background.m1.reidentified"]!;
    assert.ok(m1 >= 100 / 3 && m1 <= 100, `m=1: ${m1}`);
    assert.equal(v["retention.events"], 100);
    assert.equal(v["retention.users"], 100);
    assert.equal(v["frequency.recall"], 100);
    assert.equal(v["frequency.spearman"], 1);
    assert.equal(v["emd.l1"], 0);
    assert.equal(v["emd.l2"], 0);
    assert.equal(v["clicks.pairs"], 100);
    assert.equal(v["clicks.volume"], 100);
    assert.equal(v["dp.epsilon"], null, "no DP promise: n/a, not 0");
    assert.equal(v["ads.logSize"], 100);
    assert.equal(v["ads.users"], 100);
    assert.equal(v["ads.impressions"], 100);
    assert.equal(v["ads.bid"], null, "no bid table: n/a");
    for (const a of ["deanon1", "matcher"])
      assert.equal(v[`attacks.${a}`], null, "swap's attacks: n/a elsewhere");
  });
});

describe("drop-all release: no risk, no utility", () => {
  it("RL and background 0, retention/recall/click pairs 0, per-user distances n/a", async () => {
    const v = await measureAll(await dropAll.anonymize(smallLog(), {}, methodCtx));
    assert.equal(v["rl.rl"], 0);
    for (const m of [1, 2, 3]) assert.equal(v[`background.m${m}.reidentified`], 0);
    assert.equal(v["retention.events"], 0);
    assert.equal(v["retention.users"], 0);
    assert.equal(v["frequency.recall"], 0);
    assert.equal(v["frequency.spearman"], null, "all released frequencies 0: correlation undefined");
    assert.equal(v["emd.l1"], null);
    assert.equal(v["clicks.pairs"], 0);
    assert.equal(v["clicks.volume"], 0);
    assert.equal(v["ads.logSize"], 0);
    assert.equal(v["ads.users"], 0);
  });
});

describe("count-table release (dp)", () => {
  it("per-user yardsticks are n/a; frequency, clicks and ε/δ come from the table", async () => {
    const log = smallLog();
    const release: Release = {
      table: {
        queries: [{ query: "weather", count: 3 }],
        clicks: [{ query: "jazz records", url: "jazzrecords.com", count: 1 }],
      },
      counts: {},
      guarantee: userLevelDp({ epsilon: 1, delta: 1e-5 }),
    };
    const v = await measureAll(release);
    assert.equal(v["rl.rl"], null);
    assert.equal(v["background.m1.reidentified"], null);
    assert.equal(v["retention.users"], null);
    assert.equal(v["emd.l1"], null);
    assert.equal(v["dp.epsilon"], 1);
    assert.equal(v["dp.delta"], 1e-5);
    // 3 of the 19 query events; "weather" is the only top query kept among the 17 distinct ones.
    assert.equal(log.records.length, 19);
    assert.equal(new Set(log.records.map((r) => r.query)).size, 17);
    assert.equal(v["retention.events"], (100 * 3) / 19);
    assert.equal(v["frequency.recall"], 100 / 17);
    const clicked = new Set(log.records.filter((r) => r.clickUrl).map((r) => `${r.query}|${r.clickUrl}`))
      .size;
    assert.equal(v["clicks.pairs"], 100 / clicked);
  });
});

describe("category EMD known answers", () => {
  it("moving half of a user's queries to another top-level category costs 50% at level 1", async () => {
    const { categoryEmd } = await import("../../src/metrics/category-emd.ts");
    const original = {
      records: [rec("u", "a", 1, "Top/Arts/Music"), rec("u", "b", 2, "Top/Arts/Music")],
      format: "aol" as const,
    };
    const released = {
      records: [rec("u", "a", 1, "Top/Arts/Music"), rec("u", "c", 2, "Top/Sports/Soccer")],
      format: "aol" as const,
    };
    const v = await categoryEmd.measure(
      { original, release: { log: released, counts: {}, guarantee: NO_GUARANTEE } },
      context(),
    );
    assert.equal(v.l1, 50);
    // Level 2: ground distance between Arts/Music and Sports/Soccer is 4 of max 4; half the mass moves.
    assert.equal(v.l2, 50);
    const sibling = {
      records: [rec("u", "a", 1, "Top/Arts/Music"), rec("u", "c", 2, "Top/Arts/Movies")],
      format: "aol" as const,
    };
    const w = await categoryEmd.measure(
      { original, release: { log: sibling, counts: {}, guarantee: NO_GUARANTEE } },
      context(),
    );
    assert.equal(w.l1, 0, "same top-level category");
    assert.equal(w.l2, 25, "half the mass moves distance 2 of max 4");
  });
});

describe("query-frequency rank correlation", () => {
  it("matches Spearman's ρ with average ranks", async () => {
    const { spearman, ranks } = await import("../../src/metrics/query-frequency.ts");
    assert.deepEqual(ranks([10, 20, 20, 5]), [2, 3.5, 3.5, 1]);
    assert.equal(spearman([1, 2, 3, 4], [10, 20, 30, 40]), 1);
    assert.equal(spearman([1, 2, 3, 4], [4, 3, 2, 1]), -1);
    assert.equal(spearman([1, 2, 3], [5, 5, 5]), null);
  });
});
