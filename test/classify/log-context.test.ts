import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { contextBranches, contextPosteriors, LOG_CONTEXT } from "../../src/classify/log-context.ts";
import { argmax } from "../../src/classify/model.ts";
import { QueryEvents } from "../../src/classify/query-events.ts";

const HOUR = 3600;
// The worked examples are one round's (the neighbours' p as their text gives it).
const both = { ...LOG_CONTEXT, rounds: 1 }; // clicks and users, T 120 min, β = γ = 1, α_c 1, α_u 5
const users = { ...both, signals: ["users" as const] };
const clicks = { ...both, signals: ["clicks" as const] };

/** probs by query id from a map of text → p. */
function probsOf(events: QueryEvents, p: Record<string, number[]>): (Float64Array | undefined)[] {
  return events.texts.map((t) => (p[t] === undefined ? undefined : Float64Array.from(p[t]!)));
}

test("users, worked example: three neighbouring queries within the window move an uncertain query", () => {
  // prior = mean p over the 4 events = (0.7875, 0.2125); D = 3 × (0.9, 0.1); D̃ = (D + 5 prior) / 8 = (0.8297, 0.1703);
  // log 0.45 + log(0.8297 / 0.7875) = −0.746 > log 0.55 + log(0.1703 / 0.2125) = −0.819: branch 0.
  const p = { zorblax: [0.45, 0.55], plimb: [0.9, 0.1] };
  const near = new QueryEvents();
  near.add("u1", "zorblax", 10 * HOUR);
  for (const t of [9, 10.5, 11]) near.add("u1", "plimb", t * HOUR);
  assert.deepEqual([...contextBranches(near, probsOf(near, p), 2, users)], [0, 0]);
  // The same events three hours away: no neighbour, and the query keeps what its text says.
  const far = new QueryEvents();
  far.add("u1", "zorblax", 10 * HOUR);
  for (const t of [6, 6.5, 7]) far.add("u1", "plimb", t * HOUR);
  assert.deepEqual([...contextBranches(far, probsOf(far, p), 2, users)], [1, 0]);
  // Another user's queries are not this user's context.
  const other = new QueryEvents();
  other.add("u1", "zorblax", 10 * HOUR);
  for (const t of [9, 10.5, 11]) other.add("u2", "plimb", t * HOUR);
  assert.deepEqual([...contextBranches(other, probsOf(other, p), 2, users)], [1, 0]);
});

test("clicks, worked example: the other queries that clicked the same site move an uncertain query", () => {
  // prior = (0.7333, 0.2667); the site's sum less q's own click: (1.8, 0.2) over 2 clicks; smoothed (D + prior) / 3 =
  // (0.8444, 0.1556); log 0.4 + log(0.8444 / 0.7333) = −0.775 > log 0.6 + log(0.1556 / 0.2667) = −1.050: branch 0.
  const p = { zorblax: [0.4, 0.6], plimb: [0.9, 0.1], "q.x": [0.9, 0.1] };
  const shared = new QueryEvents();
  shared.add("u1", "zorblax", 0);
  shared.click("zorblax", "http://www.zorb.example");
  shared.add("u2", "plimb", 0);
  shared.click("plimb", "http://zorb.example");
  shared.add("u3", "q.x", 0);
  shared.click("q.x", "http://zorb.example/x");
  assert.deepEqual([...contextBranches(shared, probsOf(shared, p), 2, clicks)], [0, 0, 0]);
  // A site only the query itself clicked says nothing.
  const alone = new QueryEvents();
  alone.add("u1", "zorblax", 0);
  alone.click("zorblax", "http://www.zorb.example");
  alone.click("zorblax", "http://www.zorb.example");
  alone.add("u2", "plimb", 0);
  alone.click("plimb", "http://other.example");
  assert.deepEqual([...contextBranches(alone, probsOf(alone, p), 2, clicks)], [1, 0]);
});

test("a query the layer cannot score takes the branch its context gives, and none without one", () => {
  // zorblax has no p. prior = (3 × 0.9 + 3 × 0.1, …) / 6 = (0.5, 0.5); its three neighbours: D̃ = ((2.7, 0.3) + 5 ×
  // (0.5, 0.5)) / 8 = (0.65, 0.35); with the prior in place of its text's p, prior · D̃ / prior: branch 0.
  const p = { plimb: [0.9, 0.1], vend: [0.1, 0.9] };
  const near = new QueryEvents();
  near.add("u1", "zorblax", 10 * HOUR);
  for (const t of [9, 10.5, 11]) near.add("u1", "plimb", t * HOUR);
  for (const t of [1, 2, 3]) near.add("u2", "vend", t * HOUR);
  assert.deepEqual([...contextBranches(near, probsOf(near, p), 2, users)], [0, 0, 1]);
  // No neighbour within the window, or no weight on the signal: it stays without a branch.
  const far = new QueryEvents();
  far.add("u1", "zorblax", 20 * HOUR);
  for (const t of [9, 10.5, 11]) far.add("u1", "plimb", t * HOUR);
  assert.deepEqual([...contextBranches(far, probsOf(far, p), 2, users)], [-1, 0]);
  assert.deepEqual([...contextBranches(near, probsOf(near, p), 2, { ...users, userWeight: 0 })], [-1, 0, 1]);
  // Nor does it lend a branch to others: a site it shares with plimb moves nothing.
  const site = new QueryEvents();
  site.add("u1", "zorblax", 0);
  site.click("zorblax", "http://zorb.example");
  site.add("u2", "plimb", 0);
  site.click("plimb", "http://zorb.example");
  assert.deepEqual([...contextBranches(site, probsOf(site, { plimb: [0.45, 0.55] }), 2, clicks)], [1, 1]);
});

test("rounds, worked example: a second round passes a neighbour's moved branch on", () => {
  // zorblax and plimb share a site; plimb and q.x another; vend (twice, no clicks) balances the prior.
  // Round 1: prior = (0.45 + 0.45 + 0.95 + 2 × 0.05, …) / 5 = (0.39, 0.61).
  //   zorblax: its site's other click is plimb's, (0.45 + 0.39, 0.55 + 0.61) / 2 = (0.42, 0.58); 0.45 × 0.42/0.39 =
  //   0.4846 < 0.55 × 0.58/0.61 = 0.5230: branch 1, posterior (0.4810, 0.5190).
  //   plimb: the mean of (0.42, 0.58) and ((0.95 + 0.39) / 2, (0.05 + 0.61) / 2) = (0.67, 0.33) is (0.545, 0.455);
  //   0.45 × 0.545/0.39 = 0.6288 > 0.55 × 0.455/0.61 = 0.4102: branch 0, posterior (0.6052, 0.3948).
  //   q.x: posterior (0.9556, 0.0444).
  // Round 2: prior = (0.4810 + 0.6052 + 0.9556 + 2 × 0.05, …) / 5 = (0.4284, 0.5716); zorblax's site now says
  //   ((0.6052 + 0.4284) / 2, (0.3948 + 0.5716) / 2) = (0.5168, 0.4832): 0.45 × 0.5168/0.4284 = 0.5429 > 0.55 ×
  //   0.4832/0.5716 = 0.4649: branch 0.
  const e = new QueryEvents();
  e.add("u1", "zorblax", 0);
  e.click("zorblax", "http://zorb.example");
  e.add("u2", "plimb", 0);
  e.click("plimb", "http://zorb.example");
  e.click("plimb", "http://plimb.example");
  e.add("u3", "q.x", 0);
  e.click("q.x", "http://plimb.example");
  e.add("u4", "vend", 0);
  e.add("u5", "vend", 0);
  const p = probsOf(e, {
    zorblax: [0.45, 0.55],
    plimb: [0.45, 0.55],
    "q.x": [0.95, 0.05],
    vend: [0.05, 0.95],
  });
  assert.deepEqual([...contextBranches(e, p, 2, clicks)], [1, 0, 0, 1]);
  assert.deepEqual([...contextBranches(e, p, 2, { ...clicks, rounds: 2 })], [0, 0, 0, 1]);
  const round1 = contextPosteriors(e, p, 2, clicks);
  assert.deepEqual(
    round1.map((x) => [...x!].map((v) => v.toFixed(4))),
    [
      ["0.4810", "0.5190"],
      ["0.6052", "0.3948"],
      ["0.9556", "0.0444"],
      ["0.0500", "0.9500"],
    ],
  );
});

const K = 3;
const prob = fc
  .tuple(
    fc.double({ min: 0.01, max: 1, noNaN: true }),
    fc.double({ min: 0.01, max: 1, noNaN: true }),
    fc.double({ min: 0.01, max: 1, noNaN: true }),
  )
  .map((x) => {
    const s = x[0] + x[1] + x[2];
    return x.map((v) => v / s);
  });
const event = fc.record({
  user: fc.constantFrom("u1", "u2", "u3"),
  query: fc.constantFrom("zorblax", "plimb", "q.x", "vend", "-"),
  time: fc.integer({ min: 0, max: 6 * HOUR }),
  click: fc.option(fc.constantFrom("http://a.example", "http://b.example"), { nil: undefined }),
});
const log = fc.record({
  events: fc.array(event, { maxLength: 40 }),
  probs: fc.record({ zorblax: prob, plimb: prob, "q.x": prob, vend: prob }),
});

function eventsOf(
  events: readonly { user: string; query: string; time: number; click?: string }[],
): QueryEvents {
  const out = new QueryEvents();
  for (const e of events) {
    out.add(e.user, e.query, e.time);
    if (e.click !== undefined) out.click(e.query, e.click);
  }
  return out;
}

test("without weight, or without any shared site or neighbour, each query keeps its own argmax", () => {
  fc.assert(
    fc.property(log, fc.integer({ min: 1, max: 4 }), ({ events, probs }, rounds) => {
      const ev = eventsOf(events);
      const p = probsOf(ev, probs); // "-" has none: it neither moves nor is moved
      const own = p.map((x) => (x === undefined ? -1 : argmax(x)));
      const none = { ...both, clickWeight: 0, userWeight: 0, rounds };
      assert.deepEqual([...contextBranches(ev, p, K, none)], own);
      // Each event its own user, far apart in time and without clicks: nothing to learn from.
      const apart = eventsOf(events.map((e, i) => ({ user: `u${i}`, query: e.query, time: i * 100 * HOUR })));
      const pa = probsOf(apart, probs);
      assert.deepEqual(
        [...contextBranches(apart, pa, K, { ...both, rounds })],
        pa.map((x) => (x === undefined ? -1 : argmax(x))),
      );
    }),
  );
});

test("a query without context keeps its argmax even where the logs of its probabilities round to a tie", () => {
  const alone = new QueryEvents();
  alone.add("u1", "plimb", 0);
  const p = [Float64Array.from([0.3333333333333335, 0.33333333333333354, 0.333333333333333])];
  assert.deepEqual([...contextBranches(alone, p, K, both)], [1]);
});

test("the branches do not depend on the order the log lists its events and clicks in (in every round)", () => {
  fc.assert(
    fc.property(log, fc.integer(), ({ events, probs }, seed) => {
      const shuffled = [...events];
      let s = seed;
      for (let i = shuffled.length - 1; i > 0; i--) {
        s = (s * 1103515245 + 12345) | 0;
        const j = Math.abs(s) % (i + 1);
        [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
      }
      const branchOf = (list: typeof events) => {
        const ev = eventsOf(list);
        const b = contextBranches(ev, probsOf(ev, probs), K, LOG_CONTEXT);
        return new Map(ev.texts.map((t, q) => [t, b[q]]));
      };
      assert.deepEqual(branchOf(shuffled), branchOf(events));
    }),
  );
});

test("a query's own events and clicks are not its context", () => {
  const p = { zorblax: [0.45, 0.55], plimb: [0.9, 0.1] };
  // Five events of the query and one of another: D is the other one's p alone (prior (0.525, 0.475), D̃ (0.5875,
  // 0.4125)): branch 0. Counting its own events, D̃ would equal the prior and leave it at 1.
  const typed = new QueryEvents();
  for (const t of [1, 2, 3, 4, 5]) typed.add("u1", "zorblax", t * 600);
  typed.add("u1", "plimb", 3600);
  assert.deepEqual([...contextBranches(typed, probsOf(typed, p), 2, users)], [0, 0]);
  // Ten clicks of the query on a site and one of another query: the site's D is the other's p alone: branch 0.
  const q = { zorblax: [0.4, 0.6], plimb: [0.9, 0.1] };
  const clicked = new QueryEvents();
  clicked.add("u1", "zorblax", 0);
  for (let i = 0; i < 10; i++) clicked.click("zorblax", "http://zorb.example");
  clicked.add("u2", "plimb", 0);
  clicked.click("plimb", "http://zorb.example");
  assert.deepEqual([...contextBranches(clicked, probsOf(clicked, q), 2, clicks)], [0, 0]);
});
