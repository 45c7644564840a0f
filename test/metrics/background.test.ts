/** The background-knowledge adversary on hand-made releases with known answers. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { backgroundAttack, backgroundKnowledge } from "../../src/attacks/background.ts";
import type { QueryLog } from "../../src/log/record.ts";
import { silentProgress } from "../../src/util/progress.ts";
import { Rng } from "../../src/util/random.ts";
import { rec } from "../experiment/fixtures.ts";

const original: QueryLog = {
  format: "aol",
  records: [
    rec("a", "a1", 1),
    rec("a", "a2", 2),
    rec("b", "b1", 3),
    rec("b", "b2", 4),
    rec("c", "c1", 5),
    rec("c", "c2", 6),
  ],
};

describe("backgroundKnowledge", () => {
  it("an exchanged log: the attacker finds the wrong user every time but learns the target's queries", () => {
    // Every user's whole log is published under the next user's id (a → b → c → a).
    const next: Record<string, string> = { a: "b", b: "c", c: "a" };
    const released: QueryLog = {
      format: "aol",
      records: original.records.map((r) => ({ ...r, user: next[r.user]! })),
    };
    const origin = Int32Array.from(original.records.map((_, i) => i));
    const r = backgroundKnowledge(original, released, origin, { m: 1, targets: 10, rng: Rng.fromSeed(3) });
    assert.equal(r.targets, 3);
    assert.equal(r.reidentifiedPct, 0);
    assert.equal(r.learnedPct, 100);
  });

  it("ties split the chance: two released users holding the known query give 50%", () => {
    const released: QueryLog = {
      format: "aol",
      records: [rec("a", "a1", 1), rec("a", "a2", 2), rec("x", "a1", 3), rec("x", "zz", 4)],
    };
    const r = backgroundKnowledge(original, released, undefined, { m: 1, targets: 10, rng: Rng.fromSeed(3) });
    // Only targets with a released known query can be found; "a" knows a1 or a2 (a2: unique → 100%).
    assert.equal(r.targets, 3);
    assert.ok(r.reidentifiedPct > 0 && r.reidentifiedPct <= 100 / 3);
  });

  it("users with no more than m distinct queries are not targets", () => {
    const r = backgroundKnowledge(original, original, undefined, { m: 2, targets: 10, rng: Rng.fromSeed(1) });
    assert.equal(r.targets, 0);
  });
});

describe("backgroundAttack (shared Attack interface)", () => {
  it("links every record of an unchanged log", async () => {
    const result = await backgroundAttack.run({
      original,
      released: original,
      origin: Int32Array.from(original.records.map((_, i) => i)),
      params: { m: 1 },
      rng: Rng.fromSeed(2),
      progress: silentProgress,
    });
    assert.equal(result.linkedPct, 100);
    assert.equal(result.counts["re-identified %"], 100);
  });
});
