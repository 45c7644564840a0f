import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { checkKmAnonymity } from "../../src/audit/checks/km.ts";
import { arbLog, bruteViolations, logOf } from "../km/helpers.ts";

describe("the audit's (k,m) check", () => {
  it("reports a violation at its smallest combination, naming its holders", () => {
    const log = logOf([
      ["u1", "red car"],
      ["u2", "red"],
      ["u2", "car"],
      ["u3", "red"],
      ["u3", "blue car"],
      ["u4", "blue car"],
      ["u4", "paris hilton"],
    ]);
    const r = checkKmAnonymity(log.records, 2, 2, 10);
    // {paris}, {hilton}: u4 only (their pair is not reported again); {blue, red}: u3 only.
    assert.deepEqual([...r.examples].sort(), [
      "{blue, red}: held by 1 user(s) (u3)",
      "{hilton}: held by 1 user(s) (u4)",
      "{paris}: held by 1 user(s) (u4)",
    ]);
    assert.equal(checkKmAnonymity(log.records, 2, 1, 10).violations, 2);
  });

  it("ignores empty queries and counts each user once per term", () => {
    const log = logOf([
      ["u1", "news news"],
      ["u1", ""],
      ["u2", "news"],
    ]);
    assert.equal(checkKmAnonymity(log.records, 2, 2, 10).violations, 0);
  });

  it("agrees with brute-force subset enumeration", () => {
    fc.assert(
      fc.property(arbLog, fc.integer({ min: 2, max: 4 }), fc.integer({ min: 1, max: 3 }), (log, k, m) => {
        const brute = new Set(bruteViolations(log.records, k, m));
        const r = checkKmAnonymity(log.records, k, m, 1_000_000);
        assert.equal(r.violations === 0, brute.size === 0);
        for (const e of r.examples) {
          const terms = e.slice(1, e.indexOf("}")).split(", ").join(" ");
          assert.ok(brute.has(terms), terms);
        }
      }),
      { numRuns: 200 },
    );
  });
});
