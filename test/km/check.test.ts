import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { checkKm } from "../../src/methods/km/check.ts";
import { arbLog, bruteViolations, logOf } from "./helpers.ts";

describe("checkKm (independent (k,m)-anonymity checker)", () => {
  const base: [string, string][] = [
    ["u1", "cheap flights paris"],
    ["u2", "cheap flights paris"],
    ["u3", "cheap flights"],
    ["u3", "paris"],
  ];

  it("accepts a (2,3)-anonymous log", () => {
    // u1 = u2 = {cheap, flights, paris}; u3 too, over two queries.
    const r = checkKm(logOf(base).records, 3, 3);
    assert.equal(r.ok, true);
    assert.equal(r.violationCount, 0);
    assert.equal(r.users, 3);
  });

  it("catches a planted violation and names its combination and holder", () => {
    const planted = logOf([...base, ["u3", "paris hilton"]]);
    const r = checkKm(planted.records, 2, 2);
    assert.equal(r.ok, false);
    assert.deepEqual(r.violations[0], { terms: ["hilton"], support: 1, users: ["u3"] });
  });

  it("catches a pair violation whose single terms are all frequent", () => {
    const log = logOf([
      ["u1", "red car"],
      ["u2", "red"],
      ["u2", "car"],
      ["u3", "red"],
      ["u3", "blue car"],
      ["u4", "blue car"],
    ]);
    // {red, car}: u1, u2, u3 → support 3; {blue, car}: u3, u4 → 2; {red, blue}: u3 only.
    assert.equal(checkKm(log.records, 2, 1).ok, true);
    const r = checkKm(log.records, 2, 2);
    assert.equal(r.ok, false);
    assert.deepEqual(
      r.violations.map((v) => v.terms.join(" ")),
      ["blue red"],
    );
    assert.equal(checkKm(log.records, 3, 2).violationCount > 0, true);
  });

  it("ignores empty queries and counts each user once per term", () => {
    const log = logOf([
      ["u1", "news news"],
      ["u1", ""],
      ["u2", "news"],
    ]);
    assert.equal(checkKm(log.records, 2, 2).ok, true);
  });

  it("agrees with brute-force subset enumeration", () => {
    fc.assert(
      fc.property(arbLog, fc.integer({ min: 2, max: 4 }), fc.integer({ min: 1, max: 3 }), (log, k, m) => {
        const brute = bruteViolations(log.records, k, m);
        const r = checkKm(log.records, k, m, 1_000_000);
        assert.equal(r.ok, brute.length === 0);
        // Every reported violation is a real one.
        const real = new Set(brute);
        for (const v of r.violations) assert.ok(real.has(v.terms.join(" ")), v.terms.join(" "));
      }),
      { numRuns: 200 },
    );
  });
});
