import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import type { QueryLog } from "../../src/log/record.ts";
import { erola, wordCategories } from "../../src/methods/erola/index.ts";
import { booleanDistance } from "../../src/methods/mdav/multiset-distance.ts";
import { mdavStrings } from "../../src/methods/mdav-strings/index.ts";
import type { Method } from "../../src/methods/method.ts";
import { navarro } from "../../src/methods/navarro/index.ts";
import {
  domainLabels,
  queryDistance,
  type SyntacticQuery,
  sequenceEditDistance,
} from "../../src/methods/navarro/query-distance.ts";
import { profileOf } from "../../src/semantic/profile.ts";
import { paperContext, paperMapper, randomLog } from "./fixtures.ts";

// biome-ignore lint/suspicious/noExplicitAny: methods of different parameter types.
const BASELINES: Method<any>[] = [mdavStrings, erola, navarro];

function shared(log: QueryLog): Map<string, number> {
  const byUser = new Map<string, string[]>();
  for (const r of log.records) {
    const l = byUser.get(r.user) ?? [];
    l.push(`${r.query}|${r.time}`);
    byUser.set(r.user, l);
  }
  const count = new Map<string, number>();
  for (const l of byUser.values()) count.set(l.join("\n"), (count.get(l.join("\n")) ?? 0) + 1);
  return new Map([...byUser].map(([u, l]) => [u, count.get(l.join("\n"))!]));
}

for (const method of BASELINES) {
  test(`${method.name}: k-anonymous released logs, ids kept, origin valid, deterministic`, async () => {
    for (const k of [2, 4]) {
      const input = randomLog(31, 100 + k);
      const rel = await method.anonymize(input, method.parse({ k }), paperContext(5));
      for (const [u, n] of shared(rel.log!))
        assert.ok(n >= k, `${method.name}: ${u} shares with ${n} < ${k}`);
      rel.log!.records.forEach((r, i) => {
        const o = input.records[rel.origin![i]!]!;
        assert.equal(r.query, o.query);
        assert.equal(r.clickUrl, o.clickUrl);
      });
      const again = await method.anonymize(input, method.parse({ k }), paperContext(5));
      assert.deepEqual(again.origin, rel.origin);
    }
  });
}

test("Boolean Ds: share of items not found in the other user", () => {
  assert.equal(booleanDistance(profileOf([1, 1, 2]), profileOf([1, 3])), 2 / 5);
  assert.equal(booleanDistance(profileOf([]), profileOf([])), 0);
  assert.equal(booleanDistance(profileOf([1]), profileOf([2])), 1);
});

test("Erola et al. map each word separately", () => {
  const m = paperMapper();
  assert.equal(wordCategories("diving in the mediterranean windsurfing", m).length, 3);
});

test("Navarro query distance: 0 on identical queries, symmetric, in [0, 1]", () => {
  const q = fc.record({
    text: fc.string({ maxLength: 12 }),
    terms: fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 4 }).map((a) => Int32Array.from(a)),
    time: fc.integer({ min: 0, max: 1000 }),
    domain: fc.array(fc.constantFrom("com", "cnn", "www", "org"), { maxLength: 3 }),
  }) as fc.Arbitrary<SyntacticQuery>;
  fc.assert(
    fc.property(q, q, (a, b) => {
      const d = queryDistance(a, b, 1000);
      assert.ok(d >= 0 && d <= 1);
      assert.ok(Math.abs(d - queryDistance(b, a, 1000)) < 1e-12);
      assert.equal(queryDistance(a, a, 1000), 0);
    }),
  );
  assert.equal(sequenceEditDistance(Int32Array.of(1, 2, 3), Int32Array.of(1, 3)), 1);
  assert.deepEqual(domainLabels("http://www.cnn.com/x"), ["com", "cnn", "www"]);
});
