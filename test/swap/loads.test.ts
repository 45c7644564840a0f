/** The end-of-stream pairing's loads: kept up to date by drops, they equal the loads counted afresh. */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { Loads } from "../../src/methods/swap/loads.ts";

const user = fc.constantFrom("a", "b", "c", "d", "e");

test("after any drops, each user's load and the largest load equal a fresh count", () => {
  fc.assert(
    fc.property(
      fc.array(user, { maxLength: 40 }),
      fc.array(user, { maxLength: 40 }),
      fc.array(fc.nat()),
      (slots, entries, picks) => {
        const held = [...slots, ...entries];
        const loads = new Loads(slots, entries);
        for (const p of picks) {
          if (held.length === 0) break;
          const [u] = held.splice(p % held.length, 1);
          loads.drop(u!);
          const fresh = new Map<string, number>();
          for (const v of held) fresh.set(v, (fresh.get(v) ?? 0) + 1);
          assert.equal(loads.most, Math.max(0, ...fresh.values()));
          for (const v of ["a", "b", "c", "d", "e"]) assert.equal(loads.of(v), fresh.get(v) ?? 0);
        }
      },
    ),
  );
});

test("dropping what a user does not hold is an error, not a negative load", () => {
  const loads = new Loads(["a"], []);
  loads.drop("a");
  assert.throws(() => loads.drop("a"), /holds nothing/);
  assert.equal(loads.most, 0);
});
