/**
 * Model-based tests of the release rule and the δ rule of SwapCore (paper 000, Algorithm 2): a tiny reference
 * model of each bucket (its k, the authors of the held events and the slot users) predicts, for every arriving
 * event, whether the core releases one event, grows the bucket's k, or does nothing.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { SwapCore } from "../../src/methods/swap/core.ts";
import type { Entry, EventRows } from "../../src/methods/swap/entry.ts";
import { swapParams } from "../../src/methods/swap/meta.ts";
import { Rng } from "../../src/util/random.ts";

const CATS = ["Top/Arts", "Top/Sports", "Top/Health"];

interface ModelBucket {
  k: number;
  authors: string[];
  slots: string[];
}

const remove = (xs: string[], x: string) => {
  const i = xs.indexOf(x);
  assert.ok(i >= 0, `${x} is held in the bucket`);
  xs.splice(i, 1);
};

test("each arrival releases one event iff the bucket holds ≥ k events from ≥ 2 users; k grows by δ iff it holds one user only", () => {
  fc.assert(
    fc.property(
      fc.array(fc.record({ user: fc.integer({ min: 0, max: 2 }), cat: fc.integer({ min: 0, max: 2 }) }), {
        maxLength: 200,
      }),
      fc.integer({ min: 2, max: 5 }),
      fc.constantFrom(1.2, 1.5, 2),
      fc.integer({ min: 0, max: 1000 }),
      (specs, k, delta, seed) => {
        const released: { entry: Entry; user: string }[] = [];
        const core = new SwapCore(swapParams.parse({ k, delta }), Rng.fromSeed(seed), (entry, user) =>
          released.push({ entry, user }),
        );
        const model = new Map<string, ModelBucket>();
        specs.forEach((s, i) => {
          const user = `u${s.user}`;
          const cat = CATS[s.cat]!;
          let b = model.get(cat);
          if (b === undefined) {
            b = { k, authors: [], slots: [] };
            model.set(cat, b);
          }
          b.authors.push(user);
          b.slots.push(user);
          const growths = core.c.kGrowths;
          released.length = 0;
          core.add({ user, time: 1000 + i, tag: i, rows: [{ user, query: `q${i}`, time: 1000 + i }] }, cat);
          const full = b.authors.length >= b.k;
          const single = new Set([...b.authors, ...b.slots]).size === 1;
          if (!full) {
            assert.equal(released.length, 0, "no release before the bucket holds k events");
            assert.equal(core.c.kGrowths, growths);
          } else if (single) {
            assert.equal(released.length, 0, "nothing released from a single-user bucket");
            assert.equal(core.c.kGrowths, growths + 1, "k grows when the full bucket holds one user only");
            b.k *= delta;
          } else {
            assert.equal(released.length, 1, "one release when the bucket is full with ≥ 2 users");
            assert.equal(core.c.kGrowths, growths, "no growth while another user is held");
            const r = released[0]!;
            assert.notEqual(r.user, r.entry.user, "never under its own author");
            remove(b.authors, r.entry.user);
            remove(b.slots, r.user);
          }
        });
        const ks = new Map(core.bucketKs());
        for (const [cat, b] of model) assert.ok(Math.abs(ks.get(cat)! - b.k) < 1e-9, `k of ${cat}`);
      },
    ),
  );
});

test("the δ rule: a run of one user's events grows k only once the other users' events and slots are gone", () => {
  // k = 3: B then A, A (full: one release), A (full again, B's event or slot still held: release), A (only A
  // left: grow k to 3.6), A (4 ≥ 3.6 and only A: grow to 4.32).
  for (let seed = 0; seed < 50; seed++) {
    const out: string[] = [];
    const core = new SwapCore(swapParams.parse({ k: 3, delta: 1.2 }), Rng.fromSeed(seed), (e, u) =>
      out.push(`${e.user}→${u}`),
    );
    const growthsAfter: number[] = [];
    ["B", "A", "A", "A", "A", "A"].forEach((user, i) => {
      core.add({ user, time: i, tag: i, rows: [{ user, query: `q${i}`, time: i }] }, "Top/Arts");
      growthsAfter.push(core.c.kGrowths);
    });
    assert.deepEqual(growthsAfter, [0, 0, 0, 0, 1, 2], `seed ${seed}`);
    assert.equal(out.length, 2);
    assert.ok(Math.abs(core.bucketKs()[0]![1] - 3 * 1.2 * 1.2) < 1e-9);
  }
});

test("an event is never released so that it reads back merged with the previous one, unless no other user is possible", () => {
  // All events share one query text and a few times: a release under the previous release's user at the same
  // time would read back as one event (rows with equal user, query and time are the clicks of one search).
  fc.assert(
    fc.property(
      fc.array(fc.record({ user: fc.integer({ min: 0, max: 4 }), dt: fc.integer({ min: 0, max: 1 }) }), {
        maxLength: 200,
      }),
      fc.integer({ min: 2, max: 5 }),
      fc.integer({ min: 0, max: 1000 }),
      (specs, k, seed) => {
        let slots: string[] = [];
        let last: { user: string; time: number } | undefined;
        let time = 1000;
        const core = new SwapCore(
          swapParams.parse({ k, end: "suppress" }),
          Rng.fromSeed(seed),
          (e, user, t) => {
            if (last && last.user === user && last.time === t) {
              const others = slots.filter((u) => u !== user && u !== e.user);
              assert.deepEqual(others, [], "merged although another slot user was possible");
            }
            slots.splice(slots.indexOf(user), 1);
            last = { user, time: t };
          },
        );
        specs.forEach((s, i) => {
          time += s.dt;
          const user = `u${s.user}`;
          slots = [...slots, user];
          core.add({ user, time, tag: i, rows: [{ user, query: "google", time }] }, "Top/Computers");
        });
      },
    ),
  );
});

test("every event the core takes is released once or suppressed once — its rows' owner told (so it can let go) — or still held", () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.record({
          user: fc.integer({ min: 0, max: 3 }),
          cat: fc.integer({ min: 0, max: 2 }),
          dt: fc.integer({ min: 0, max: 120 }),
        }),
        { maxLength: 200 },
      ),
      fc.integer({ min: 2, max: 5 }),
      fc.constantFrom(0, 30, 300),
      fc.constantFrom("release", "suppress") as fc.Arbitrary<"release" | "suppress">,
      fc.integer({ min: 0, max: 1000 }),
      (specs, k, maxDelay, end, seed) => {
        const fate = new Map<number, string>();
        const mark = (h: number, what: string) => {
          assert.equal(fate.get(h), undefined, `event ${h} was already ${fate.get(h)}`);
          fate.set(h, what);
        };
        const rows: EventRows<number> = {
          count: () => 1,
          query: (h) => `q${h}`,
          copy: (h) => h,
          suppressed: (h) => mark(h, "suppressed"),
        };
        const core = new SwapCore<number>(
          swapParams.parse({ k, maxDelay, end }),
          Rng.fromSeed(seed),
          (e) => mark(e.rows, "released"),
          undefined,
          rows,
        );
        let time = 1000;
        specs.forEach((s, i) => {
          time += s.dt;
          core.add({ user: `u${s.user}`, time, tag: i, rows: i }, CATS[s.cat]!);
        });
        const heldBefore = core.heldEvents();
        assert.equal(fate.size + heldBefore, specs.length, "each event released, suppressed or held");
        core.flushAll();
        assert.equal(fate.size, specs.length, "after the end of the stream, none is held");
        const suppressed = [...fate.values()].filter((f) => f === "suppressed").length;
        assert.equal(suppressed, core.c.suppressedEvents);
      },
    ),
  );
});
