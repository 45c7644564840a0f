import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import type { SocialGraph } from "../../src/clientside/graph.ts";
import { smallWorld } from "../../src/clientside/graph.ts";
import { COLLUDING, HONEST, routeQuery } from "../../src/clientside/protocol.ts";
import { assignUsers, type ProtocolParams, simulateClientside } from "../../src/clientside/simulate.ts";
import type { LogRecord, QueryLog } from "../../src/log/record.ts";
import { clientside } from "../../src/methods/clientside/index.ts";
import { Rng } from "../../src/util/random.ts";

const CATS = [
  "Top/Arts/Movies",
  "Top/Sports/Soccer",
  "Top/Health/Diseases",
  "Top/Games/Video",
  "Top/Science",
];

/** A classified log: `users` users with `per` query events each, two clicks on every third one. */
function makeLog(users: number, per: number, seed = 1): QueryLog {
  const rng = Rng.fromSeed(seed);
  const records: LogRecord[] = [];
  for (let u = 0; u < users; u++) {
    for (let q = 0; q < per; q++) {
      const base = { user: `u${u}`, query: `q${u}-${q}`, time: 1000 * q + u, category: rng.pick(CATS) };
      if (q % 3 === 2) {
        records.push(
          { ...base, clickUrl: "a.com", itemRank: 1 },
          { ...base, clickUrl: "b.com", itemRank: 2 },
        );
      } else records.push(base);
    }
  }
  return { records, format: "aol", classified: true };
}

const P: ProtocolParams = { maxHops: 1, selfish: 0, colluding: 0, hopMs: 100, depth: 1 };
const key = (r: LogRecord) => `${r.query}\t${r.time}\t${r.clickUrl ?? ""}\t${r.category}`;

test("every query is submitted exactly once: the view is the input, each record under one id", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 25 }),
      fc.integer({ min: 1, max: 6 }),
      fc.integer({ min: 0, max: 3 }),
      fc.integer(),
      (users, per, maxHops, seed) => {
        const log = makeLog(users, per, seed);
        const g = smallWorld(users, 4, 0.3, Rng.fromSeed(seed));
        const sim = simulateClientside(
          log,
          g,
          { ...P, maxHops, selfish: 0.2, colluding: 0.2 },
          Rng.fromSeed(seed),
        );
        assert.equal(sim.view.records.length, log.records.length);
        assert.deepEqual(
          [...sim.origin].sort((a, b) => a - b),
          log.records.map((_, i) => i),
        );
        sim.view.records.forEach((r, i) => {
          assert.equal(key(r), key(log.records[sim.origin[i]!]!));
        });
        // The rows of one event (a query and its clicks) stay together under one id.
        const idOf = new Map<string, string>();
        for (const r of sim.view.records) {
          const k = `${r.query}\t${r.time}`;
          assert.equal(idOf.get(k) ?? r.user, r.user);
          idOf.set(k, r.user);
        }
        assert.ok(sim.summary.maxHops <= maxHops);
      },
    ),
    { numRuns: 40 },
  );
});

test("PEL is 100 for everyone when every query is sent by its author (no forwarding, or all selfish)", () => {
  const log = makeLog(40, 12);
  const g = smallWorld(40, 6, 0.2, Rng.fromSeed(3));
  for (const params of [
    { ...P, maxHops: 0 },
    { ...P, selfish: 1 },
  ]) {
    const sim = simulateClientside(log, g, params, Rng.fromSeed(5));
    assert.equal(sim.summary.forwarded, 0);
    assert.ok(sim.summary.pelUsers > 30);
    for (const v of sim.pel.values()) if (v !== undefined) assert.ok(Math.abs(v - 100) < 1e-9);
    assert.equal(sim.summary.uncertaintyAbove70, 0);
  }
});

test("forwarding lowers PEL; colluders hand the profile back to the engine", () => {
  const log = makeLog(60, 30);
  const g = smallWorld(60, 6, 0.2, Rng.fromSeed(3));
  const honest = simulateClientside(log, g, P, Rng.fromSeed(5)).summary;
  assert.ok(honest.meanPel! < 40, `mean PEL ${honest.meanPel}`);
  assert.ok(Math.abs(honest.forwarded - 600 / 7) < 5, `forwarded ${honest.forwarded}`);
  const colluding = simulateClientside(log, g, { ...P, colluding: 1 }, Rng.fromSeed(5));
  assert.ok(colluding.summary.forwarded > 80);
  assert.equal(
    colluding.summary.reported,
    Math.round((colluding.summary.forwarded * colluding.summary.events) / 100),
  );
  for (const v of colluding.pel.values()) if (v !== undefined) assert.ok(Math.abs(v - 100) < 1e-9);
});

test("the same seed gives the same engine's view; another seed another", () => {
  const log = makeLog(30, 8);
  const g = smallWorld(30, 4, 0.2, Rng.fromSeed(1));
  const a = simulateClientside(log, g, P, Rng.fromSeed(9));
  const b = simulateClientside(log, g, P, Rng.fromSeed(9));
  const c = simulateClientside(log, g, P, Rng.fromSeed(10));
  assert.deepEqual(a.view.records, b.view.records);
  assert.deepEqual(a.summary, b.summary);
  assert.notDeepEqual(
    a.view.records.map((r) => r.user),
    c.view.records.map((r) => r.user),
  );
});

test("a next-page request follows the route of its query", () => {
  const records: LogRecord[] = [];
  for (let u = 0; u < 20; u++) {
    for (let q = 0; q < 10; q++) {
      records.push({ user: `u${u}`, query: `q${u}-${q}`, time: 100 * q, category: CATS[q % 5] });
      records.push({ user: `u${u}`, query: "", time: 100 * q + 5, category: "" }); // Excite next page
    }
  }
  const sim = simulateClientside(
    { records, format: "excite" },
    smallWorld(20, 4, 0, Rng.fromSeed(1)),
    P,
    Rng.fromSeed(2),
  );
  const idAt = new Map(sim.view.records.map((r, i) => [sim.origin[i]!, r.user]));
  for (let i = 0; i < records.length; i += 2) assert.equal(idAt.get(i + 1), idAt.get(i));
});

test("one hop on a regular graph: a query stays with its author 1/(d+1) of the time (worst case)", () => {
  const g: SocialGraph = smallWorld(50, 4, 0, Rng.fromSeed(1)); // every node has 4 neighbours
  const sim = simulateClientside(makeLog(50, 2), g, { ...P, worstCase: 400 }, Rng.fromSeed(4));
  const wc = sim.summary.worstCase!;
  assert.ok(Math.abs(wc.meanOwnShare - 0.2) < 0.02, `own share ${wc.meanOwnShare}`);
  assert.ok(wc.meanIds > 4.9 && wc.meanIds <= 5);
  // With 400 copies the author's own id is no more likely to top the count than each of her 4 friends.
  assert.ok(wc.attributed < 40, `attributed ${wc.attributed}`);
});

test("a query passing a colluder is filed under its author; a selfish author never forwards", () => {
  const g: SocialGraph = { labels: ["a", "b"], adj: [[1], [0]] };
  const rng = Rng.fromSeed(1);
  let moved = 0;
  for (let i = 0; i < 200; i++) {
    const r = routeQuery(0, g, Uint8Array.of(HONEST, COLLUDING), 1, rng);
    assert.equal(r.filed, 0);
    if (r.submitter === 1) moved++;
  }
  assert.ok(moved > 60 && moved < 140);
  for (let i = 0; i < 50; i++) assert.equal(routeQuery(0, g, Uint8Array.of(1, 0), 5, rng).hops, 0);
});

test("as a method, its release is the engine's view and its counts carry the PEL distribution", async () => {
  const log = makeLog(30, 10);
  const params = clientside.parse({ degree: 4, seed: undefined });
  const release = await clientside.anonymize(log, params, {
    rng: Rng.fromSeed(1),
    progress: { start() {}, tick() {}, stop() {} },
  });
  assert.equal(release.log!.records.length, log.records.length);
  assert.equal(release.origin!.length, log.records.length);
  for (const k of [
    "meanPel",
    "pelP10",
    "pelP50",
    "pelP90",
    "uncertaintyAbove70",
    "uncertaintyAbove80",
    "forwarded",
  ]) {
    assert.equal(typeof release.counts[k], "number", k);
  }
  assert.throws(() => clientside.parse({ selfish: 0.7, colluding: 0.5 }), /at most 1/);
  assert.throws(() => clientside.parse({ graph: "ring" }), /small-world, scale-free/);
});

test("beyond the first hop a query never comes back to its author", () => {
  // A triangle: from the author's friend, the only other candidates are the friend itself and the third node.
  const g: SocialGraph = {
    labels: ["a", "b", "c"],
    adj: [
      [1, 2],
      [0, 2],
      [0, 1],
    ],
  };
  const rng = Rng.fromSeed(3);
  const roles = new Uint8Array(3);
  const hopsSeen = new Set<number>();
  for (let i = 0; i < 2000; i++) {
    const r = routeQuery(0, g, roles, 5, rng);
    hopsSeen.add(r.hops);
    if (r.hops > 0) assert.notEqual(r.submitter, 0, `came back after ${r.hops} hops`);
  }
  assert.ok(hopsSeen.has(0) && hopsSeen.has(1) && hopsSeen.has(3));
});

test("a next-page request logged before its query (out of time order) is routed on its own, by a real node", () => {
  const records: LogRecord[] = [];
  for (let u = 0; u < 10; u++) {
    records.push({ user: `u${u}`, query: `q${u}`, time: 500, category: CATS[u % 5] });
    records.push({ user: `u${u}`, query: `q${u}`, time: 100, category: CATS[u % 5] }); // "next page", earlier
  }
  const g = smallWorld(10, 4, 0, Rng.fromSeed(1));
  const sim = simulateClientside({ records, format: "aol" }, g, { ...P, maxHops: 0 }, Rng.fromSeed(2));
  // No forwarding: every event must be filed under its own author, the early page included.
  sim.view.records.forEach((r, i) => {
    assert.equal(r.user, records[sim.origin[i]!]!.user);
  });
});

test("users sit on nodes by name only when an edge list names them all; otherwise at random, by seed", () => {
  const users = ["0", "1", "2", "3"];
  const ring: SocialGraph = {
    labels: ["0", "1", "2", "3", "4", "5"],
    adj: [
      [1, 5],
      [0, 2],
      [1, 3],
      [2, 4],
      [3, 5],
      [4, 0],
    ],
  };
  assert.deepEqual([...assignUsers(users, { ...ring, named: true }, Rng.fromSeed(1))], [0, 1, 2, 3]);
  const placements = new Set<string>();
  for (let seed = 0; seed < 20; seed++)
    placements.add(String([...assignUsers(users, ring, Rng.fromSeed(seed))]));
  assert.ok(placements.size > 10, "a generated graph's labels are not names: placement is random");
  assert.deepEqual(
    [...assignUsers(users, ring, Rng.fromSeed(4))],
    [...assignUsers(users, ring, Rng.fromSeed(4))],
  );
  assert.throws(
    () => assignUsers(["a", "b", "c"], { labels: ["x", "y"], adj: [[1], [0]] }, Rng.fromSeed(1)),
    /2 nodes but the log has 3 users/,
  );
});
