/**
 * The depth rule (src/methods/swap/buckets.ts): below the top level a bucket releases only when it holds k + 1
 * events of k + 1 distinct users, and hands everything to its parent as soon as an arriving event's author already
 * holds a slot there. A reference model of every bucket follows each arrival and each release the core reports.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { SwapCore } from "../../src/methods/swap/core.ts";
import type { Entry } from "../../src/methods/swap/entry.ts";
import { swapParams } from "../../src/methods/swap/meta.ts";
import { Rng } from "../../src/util/random.ts";

const CATS = [
  "Top/Sports/Soccer",
  "Top/Sports/Tennis",
  "Top/Sports",
  "Top/Arts/Music",
  "Top/Arts/Music/Jazz",
];
const topOf = (c: string) => c.split("/").slice(0, 2).join("/");
const deepOf = (c: string) => c.split("/").slice(0, 3).join("/");

interface ModelBucket {
  authors: string[];
  slots: string[];
}

const take = (xs: string[], x: string) => {
  const i = xs.indexOf(x);
  assert.ok(i >= 0, `${x} is held`);
  xs.splice(i, 1);
};

test("depth 2: a deeper bucket releases only from k + 1 distinct users, holds ≤ k events of distinct users, and hands all up at a repeated user", () => {
  fc.assert(
    fc.property(
      fc.array(fc.record({ user: fc.integer({ min: 0, max: 5 }), cat: fc.integer({ min: 0, max: 4 }) }), {
        maxLength: 250,
      }),
      fc.integer({ min: 2, max: 4 }),
      fc.integer({ min: 0, max: 1000 }),
      (specs, k, seed) => {
        const emitted: { entry: Entry; user: string }[] = [];
        const core = new SwapCore(swapParams.parse({ k, depth: 2 }), Rng.fromSeed(seed), (entry, user) =>
          emitted.push({ entry, user }),
        );
        const model = new Map<string, ModelBucket>();
        const bucket = (key: string) => {
          let b = model.get(key);
          if (!b) {
            b = { authors: [], slots: [] };
            model.set(key, b);
          }
          return b;
        };
        let handedUp = 0;
        specs.forEach((s, i) => {
          const user = `u${s.user}`;
          const category = CATS[s.cat]!;
          const key = deepOf(category);
          const deep = key !== topOf(category);
          const b = bucket(key);
          b.authors.push(user);
          b.slots.push(user);
          const mustHandUp = deep && new Set(b.slots).size < b.slots.length;
          emitted.length = 0;
          core.add({ user, time: i, tag: i, rows: [{ user, query: `q${i}`, time: i }] }, category);
          if (deep && !mustHandUp && b.authors.length <= k)
            assert.equal(emitted.length, 0, "a deep bucket of distinct users waits for k + 1 events");
          if (deep && !mustHandUp && b.authors.length > k) {
            assert.equal(emitted.length, 1, "one release from the deep bucket");
            const e = emitted[0]!;
            assert.ok(b.authors.includes(e.entry.user), "released from the deep bucket");
          }
          if (mustHandUp) {
            handedUp++;
            const parent = bucket(topOf(category));
            parent.authors.push(...b.authors);
            parent.slots.push(...b.slots);
            b.authors.length = 0;
            b.slots.length = 0;
          }
          for (const e of emitted) {
            assert.notEqual(e.user, e.entry.user, "never under its author");
            // Released from the deep bucket of its category if it is still there, else from the top level.
            const from =
              deep && bucket(key).authors.includes(e.entry.user) && !mustHandUp
                ? bucket(key)
                : bucket(topOf(category));
            if (deep && from === bucket(key))
              assert.ok(new Set(from.slots).size > k, "≥ k + 1 distinct users before the release");
            take(from.authors, e.entry.user);
            take(from.slots, e.user);
          }
          for (const [name, m] of model) {
            if (name.split("/").length <= 2) continue;
            assert.ok(m.authors.length <= k, `${name} holds ≤ k events`);
            assert.equal(new Set(m.slots).size, m.slots.length, `${name} holds one slot per user`);
          }
        });
        assert.equal(core.c.handedUp, handedUp);
      },
    ),
    { numRuns: 200 },
  );
});

test("a fine category busy with many users is swapped within itself; one searched by fewer falls back to its parent", () => {
  const run = (users: number) => {
    const out: { entry: Entry; user: string }[] = [];
    const core = new SwapCore(swapParams.parse({ k: 3, depth: 3 }), Rng.fromSeed(1), (entry, user) =>
      out.push({ entry, user }),
    );
    for (let i = 0; i < 200; i++) {
      const user = `u${i % users}`;
      core.add(
        { user, time: i, tag: i, rows: [{ user, query: `q${i}`, time: i }] },
        "Top/Sports/Soccer/UEFA",
      );
    }
    const before = core.c.handedUp;
    core.flushAll();
    return { released: out.length, handedUpBeforeEnd: before, suppressed: core.c.suppressedEvents };
  };
  const busy = run(12);
  const quiet = run(2);
  // Two users never make k + 1 = 4 distinct: every 3rd arrival repeats a user held in the bucket, so the bucket
  // hands up at once, from depth 3 to 2 and on to 1: 66 times two hand-ups in 200 arrivals.
  assert.equal(quiet.handedUpBeforeEnd, 132);
  assert.equal(quiet.released, 200, "their events are paired at the top level");
  assert.ok(
    busy.handedUpBeforeEnd < 10,
    `12 users keep the fine bucket busy (${busy.handedUpBeforeEnd} hand-ups)`,
  );
  assert.equal(busy.released + busy.suppressed, 200);
});
