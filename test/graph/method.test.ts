import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { groupEvents } from "../../src/log/events.ts";
import type { QueryLog } from "../../src/log/record.ts";
import { graph } from "../../src/methods/graph/index.ts";
import { QueryGraphBuilder } from "../../src/methods/graph/query-graph.ts";
import { ParamError } from "../../src/methods/method.ts";
import { loadMethod } from "../../src/methods/registry.ts";
import { silentProgress } from "../../src/util/progress.ts";
import { Rng } from "../../src/util/random.ts";
import { event, fig72Log, log, logArb } from "./fixtures.ts";
import { degrees } from "./paper-degree.ts";

const ctx = (seed = 1) => ({ rng: Rng.fromSeed(seed), progress: silentProgress });

async function run(input: QueryLog, raw: Record<string, unknown> = {}) {
  return graph.anonymize(input, graph.parse(raw), ctx());
}

function edgesOf(l: QueryLog): number {
  const b = new QueryGraphBuilder();
  for (const r of l.records) if (r.clickUrl) b.addClick(r.query, r.clickUrl);
  return degrees(b.build()).reduce((s, d) => s + d, 0) / 2;
}

test("graph is registered and reachable by name", async () => {
  assert.equal(await loadMethod("graph"), graph);
  assert.equal(graph.paper, "Poblete et al. 2010");
});

test("Fig. 7.2 log: drops the removed queries' events and reports queries, events, rows, users", async () => {
  const r = await run(fig72Log());
  assert.deepEqual([...new Set(r.log!.records.map((x) => x.query))], ["q2", "q4", "q8"]);
  assert.equal(r.counts["queries removed"], 5);
  assert.equal(r.counts["events removed"], 5);
  assert.equal(r.counts["rows removed"], 8); // q1, q5, q6 have two click rows each
  assert.equal(r.counts["users removed"], 5);
  assert.equal(r.counts["density after"], 0);
  assert.deepEqual([...r.origin!], [2, 4, 10]); // rows: q1 0–1, q2 2, q3 3, q4 4, q5 5–6, q6 7–8, q7 9, q8 10
});

test("events are dropped whole, a user with other queries is kept, and the extension counts its reasons", async () => {
  const input = log(
    event("a", "ebay", 1, ["http://www.ebay.com"]),
    event("a", "ebay", 1, ["http://www.ebay.com/x"]),
    event("a", "lamps", 5, ["http://www.x.com", "http://www.y.com"]),
    event("b", "lamps", 9),
    event("b", "solo", 10, ["http://www.z.com"]),
  );
  const r = await run(input, { vulnerable: "true", k: 2, K: 2 });
  assert.deepEqual(
    r.log!.records.map((x) => [x.user, x.query]),
    [
      ["a", "lamps"],
      ["a", "lamps"],
      ["b", "lamps"],
    ],
  );
  assert.equal(r.counts["queries removed (vulnerable)"], 1);
  assert.equal(r.counts["queries removed (k results)"], 1);
  assert.equal(r.counts["events removed"], 2);
  assert.equal(r.counts["rows removed"], 3);
  assert.equal(r.counts["users removed"], 0);
});

test("on random logs: released graph has no edges, origin points at equal rows, counts add up", async () => {
  await fc.assert(
    fc.asyncProperty(logArb(60), fc.constantFrom(1, 2, 3), async (records, variant) => {
      const input: QueryLog = { records, format: "aol" };
      const r = await run(input, { variant });
      assert.equal(edgesOf(r.log!), 0);
      r.log!.records.forEach((rec, i) => {
        assert.deepEqual(rec, records[r.origin![i]!]);
      });
      assert.equal(r.counts["rows released"]! + r.counts["rows removed"]!, records.length);
      assert.equal(r.counts["events released"]! + r.counts["events removed"]!, groupEvents(records).length);
      const again = await run(input, { variant });
      assert.deepEqual(again.log, r.log, "deterministic");
    }),
    { numRuns: 100 },
  );
});

test("bad parameters are rejected with a clear message", () => {
  assert.throws(() => graph.parse({ variant: 4 }), /graph: parameter variant: must be in \[1, 3\]/);
  assert.throws(() => graph.parse({ density: -0.1 }), /graph: parameter density: must be in \[0, 1\]/);
  assert.throws(() => graph.parse({ k: 2, K: 3 }), /graph: parameter K: must not exceed k/);
  assert.throws(() => graph.parse({ vulnerable: "maybe" }), ParamError);
  assert.throws(() => graph.parse({ k: -1 }), ParamError);
  assert.deepEqual(graph.parse({}), { variant: 1, density: 0, vulnerable: false, k: 0, K: 0 });
});
