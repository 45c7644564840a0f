import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { type AttackInput, scoreGuesses } from "../../src/attacks/attack.ts";
import { attacks, getAttack } from "../../src/attacks/registry.ts";
import type { LogRecord, QueryLog } from "../../src/log/record.ts";
import { swapRecords } from "../../src/methods/swap/index.ts";
import { swapParams } from "../../src/methods/swap/meta.ts";
import { silentProgress } from "../../src/util/progress.ts";
import { Rng } from "../../src/util/random.ts";
import { logArb } from "../swap/fixtures.ts";

function setup(recs: LogRecord[], raw: Record<string, unknown> = { k: 3 }, seed = 1) {
  const out = swapRecords(recs, swapParams.parse(raw), Rng.fromSeed(seed));
  const original: QueryLog = { records: recs, format: "aol" };
  const released: QueryLog = { records: out.records, format: "aol" };
  return { original, released, origin: out.origin };
}

const input = (
  s: ReturnType<typeof setup>,
  withOrigin = true,
  params = { k: 3, delta: 1.2 },
): AttackInput => ({
  ...s,
  origin: withOrigin ? s.origin : undefined,
  params,
  rng: Rng.fromSeed(9),
  progress: silentProgress,
});

test("de-anonymizers 1–4 give percentages in range, and are deterministic", async () => {
  await fc.assert(
    fc.asyncProperty(logArb(4, 150), async (recs) => {
      const s = setup(recs);
      for (const name of ["deanon1", "deanon2", "deanon3", "deanon4"]) {
        const a = await getAttack(name).run(input(s));
        const b = await getAttack(name).run(input(s));
        assert.deepEqual(a, b);
        assert.ok(a.linked <= a.guessed && a.guessed <= a.total);
        assert.ok(a.linkedPct >= 0 && a.linkedPct <= 100);
        assert.equal(a.total, s.released.records.length);
      }
    }),
    { numRuns: 40 },
  );
});

test("with two users only, naming the other user always links (the attacker knows the author rule)", async () => {
  const recs: LogRecord[] = Array.from({ length: 60 }, (_, i) => ({
    user: `u${i % 2}`,
    query: `q${i}`,
    time: 1000 + i,
    category: "Top/Arts",
  }));
  const s = setup(recs);
  const r = await getAttack("deanon1").run(input(s));
  assert.equal(r.linked, r.guessed);
  assert.ok(r.guessed > 0);
});

test("scoring without origin counts multiset matches of (user, query) in the original", () => {
  const original: QueryLog = {
    format: "aol",
    records: [
      { user: "a", query: "x", time: 1 },
      { user: "b", query: "y", time: 2 },
    ],
  };
  const released: QueryLog = {
    format: "aol",
    records: [
      { user: "b", query: "x", time: 3 },
      { user: "a", query: "y", time: 3 },
      { user: "b", query: "y", time: 4 },
    ],
  };
  const r = scoreGuesses("t", { original, released }, ["a", "b", "b"]);
  assert.equal(r.linked, 2);
  assert.equal(r.guessed, 3);
  assert.equal(r.usersLinked, 2);
});

test("the matcher finds nothing on a swap release and everything on the input itself", async () => {
  await fc.assert(
    fc.asyncProperty(logArb(4, 100), async (recs) => {
      const s = setup(recs);
      const m = getAttack("matcher");
      assert.equal((await m.run(input(s))).linked, 0);
      const self = await m.run(input({ ...s, released: s.original }));
      assert.equal(self.linked, recs.length);
    }),
    { numRuns: 40 },
  );
});

test("the A(NR) ablation (own author allowed, original time) leaves matching records", async () => {
  const recs: LogRecord[] = Array.from({ length: 300 }, (_, i) => ({
    user: `u${i % 3}`,
    query: `q${i}`,
    time: 1000 + i,
    category: i % 2 ? "Top/Arts" : "Top/Health",
  }));
  const s = setup(recs, { k: 3, ownAuthor: true, time: "original" });
  const r = await getAttack("matcher").run(input(s));
  assert.ok(r.linked > 0);
});

test("attack names are unique", () => {
  assert.equal(new Set(attacks.map((a) => a.name)).size, attacks.length);
});
