import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { groupEvents } from "../../src/log/events.ts";
import type { QueryLog } from "../../src/log/record.ts";
import { loadMethod } from "../../src/methods/registry.ts";
import { threshold } from "../../src/methods/threshold/index.ts";
import { silentProgress } from "../../src/util/progress.ts";
import { Rng } from "../../src/util/random.ts";
import { event, log, logArb } from "../graph/fixtures.ts";

const ctx = { rng: Rng.fromSeed(1), progress: silentProgress };

test("threshold is registered", async () => {
  assert.equal(await loadMethod("threshold"), threshold);
});

test("keeps queries of at least k distinct users (repeats by one user do not count)", async () => {
  const input = log(
    event("a", "weather", 1, ["http://www.weather.com", "http://www.noaa.gov"]),
    event("a", "john smith 12 elm st", 2),
    event("a", "john smith 12 elm st", 3),
    event("b", "weather", 4),
    event("b", "lonely", 5),
    event("c", "lonely", 6),
    event("c", "only c", 7),
  );
  const r = await threshold.anonymize(input, threshold.parse({ k: 2 }), ctx);
  assert.deepEqual(
    r.log!.records.map((x) => `${x.user}:${x.query}`),
    ["a:weather", "a:weather", "b:weather", "b:lonely", "c:lonely"],
  );
  assert.deepEqual([...r.origin!], [0, 1, 4, 5, 6]);
  assert.equal(r.counts["queries removed"], 2);
  assert.equal(r.counts["events removed"], 3);
  assert.equal(r.counts["rows removed"], 3);
  assert.equal(r.counts["users removed"], 0);
  const r3 = await threshold.anonymize(input, threshold.parse({ k: 3 }), ctx);
  assert.equal(r3.log!.records.length, 0);
  assert.equal(r3.counts["users removed"], 3);
});

test("on random logs every released query has ≥ k users and every dropped one fewer", async () => {
  await fc.assert(
    fc.asyncProperty(logArb(60), fc.integer({ min: 2, max: 4 }), async (records, k) => {
      const input: QueryLog = { records, format: "aol" };
      const r = await threshold.anonymize(input, threshold.parse({ k }), ctx);
      const users = new Map<string, Set<string>>();
      for (const e of groupEvents(records)) {
        if (!users.has(e.query)) users.set(e.query, new Set());
        users.get(e.query)!.add(e.user);
      }
      const released = new Set(r.log!.records.map((x) => x.query));
      for (const [q, s] of users) assert.equal(released.has(q), s.size >= k, q);
      r.log!.records.forEach((rec, i) => {
        assert.deepEqual(rec, records[r.origin![i]!]);
      });
    }),
  );
});

test("k < 2 and non-integers are rejected with a clear message", () => {
  assert.throws(() => threshold.parse({ k: 1 }), /threshold: parameter k: must be an integer ≥ 2, got 1/);
  assert.throws(() => threshold.parse({ k: "2.5" }), /threshold: parameter k: must be an integer/);
  assert.deepEqual(threshold.parse({ k: "3" }), { k: 3 });
});
