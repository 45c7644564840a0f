import assert from "node:assert/strict";
import { test } from "node:test";
import type { LogRecord, QueryLog } from "../../src/log/record.ts";
import { recordLinkage } from "../../src/metrics/record-linkage.ts";

function log(rows: [string, string][]): QueryLog {
  const records: LogRecord[] = rows.map(([user, query], i) => ({ user, query, time: 1000 + i }));
  return { records, format: "aol" };
}

test("RL on a hand-made case (Eq. 10)", () => {
  const original = log([
    ["a", "x"],
    ["a", "y"],
    ["b", "x"],
    ["b", "z"],
    ["c", "w"],
    ["d", "v"],
  ]);
  const released = log([
    ["a", "x"],
    ["a", "y"], // best match: a alone (2 common) → P = 1
    ["b", "x"], // ties a and b (1 common each) → P = 1/2
    ["c", "v"], // links to d only → P = 0
    ["d", "q"], // no common query → no link → P = 0
  ]);
  const r = recordLinkage(original, released);
  assert.equal(r.users, 4);
  assert.equal(r.linked, 1.5);
  assert.equal(r.rl, 37.5);
});

test("RL is 100% for an unchanged log of distinct users and 0% for an empty release", () => {
  const original = log([
    ["a", "x"],
    ["b", "y"],
    ["c", "z"],
    ["c", "w"],
  ]);
  assert.equal(recordLinkage(original, original).rl, 100);
  // a's log {x} now ties with c's {x, z}: P(a) = 1/2; c has 2 in common with herself: P(c) = 1
  const overlap = log([
    ["a", "x"],
    ["b", "y"],
    ["c", "z"],
    ["c", "x"],
  ]);
  assert.ok(Math.abs(recordLinkage(overlap, overlap).rl - (100 * 2.5) / 3) < 1e-9);
  assert.equal(recordLinkage(original, log([])).rl, 0);
});
