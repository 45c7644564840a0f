/**
 * Each cluster's prototype draws from its own stream, derived from the method's stream and the cluster's index
 * (Rng.derive): a prototype that draws more in one cluster changes no other cluster's synthetic log, and a
 * cluster's stream does not depend on how many clusters drew before it (Rng.fork, which the clusters used
 * before, draws from the parent: the c-th cluster's stream was the parent's c-th draw).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { LogRecord, QueryLog } from "../../src/log/record.ts";
import { microaggregate } from "../../src/methods/mdav/microaggregate.ts";
import { type UserLogs, userLogs } from "../../src/semantic/user-logs.ts";
import { Rng } from "../../src/util/random.ts";

/** 12 users of 4 events each, at distance |i − j|; microaggregated at k = 3 with `prototype`, seed 5. */
function run(prototype: (members: Int32Array, rng: Rng, logs: UserLogs) => number[]) {
  const records: LogRecord[] = [];
  for (let u = 0; u < 12; u++) {
    for (let e = 0; e < 4; e++) records.push({ user: `u${u}`, query: `q${u}-${e}`, time: 1000 * u + e });
  }
  const input: QueryLog = { records, format: "aol" };
  const logs = userLogs(records);
  const n = logs.users.length;
  const distances = new Float32Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) distances[i * n + j] = Math.abs(i - j);
  return microaggregate({
    input,
    logs,
    distances,
    k: 3,
    rng: Rng.fromSeed(5),
    prototype: (members, rng) => prototype(members, rng, logs),
  });
}

test('cluster c draws from the method stream\'s child named "cluster c", whatever came before it', () => {
  const seen: number[][] = [];
  run((members, rng, logs) => {
    seen.push(rng.state());
    return [logs.byUser[members[0]!]![0]!];
  });
  assert.equal(seen.length, 4, "12 users, k = 3");
  for (const [c, state] of seen.entries()) {
    assert.deepEqual(state, Rng.fromSeed(5).derive(`cluster ${c}`).state(), `cluster ${c}`);
  }
});

test("a prototype drawing more in one cluster leaves every other cluster's release unchanged", () => {
  // The cluster of the first user draws `extra` more numbers before choosing; released queries by user.
  const byUser = (extra: number) => {
    const r = run((members, rng, logs) => {
      if (Array.from(members).includes(0)) for (let i = 0; i < extra; i++) rng.float();
      return rng.shuffle(Array.from(members).flatMap((m) => logs.byUser[m]!)).slice(0, 2);
    });
    const out = new Map<string, string[]>();
    for (const rec of r.log!.records) out.set(rec.user, [...(out.get(rec.user) ?? []), rec.query]);
    return out;
  };
  const a = byUser(0);
  const b = byUser(7);
  const firstCluster = new Set([...a.keys()].filter((u) => a.get(u)!.join() === a.get("u0")!.join()));
  let compared = 0;
  for (const [user, queries] of a) {
    if (firstCluster.has(user)) continue;
    assert.deepEqual(b.get(user), queries, user);
    compared++;
  }
  assert.ok(compared >= 6, `${compared} users outside the first cluster`);
  // The extra draws do reach the first cluster's own stream (so the comparison above could fail).
  const changed = [0, 1, 2, 3, 4, 5, 6, 7].some((x) => byUser(x).get("u0")!.join() !== a.get("u0")!.join());
  assert.ok(changed, "the first cluster's stream sees its own extra draws");
});
