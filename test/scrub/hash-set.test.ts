/**
 * The name lists' hash sets (src/scrub/lexicon/hash-set.ts): membership is a `Set`'s for any 53-bit values
 * (colliding slots included), and the scan of a stored table reads each line's hash as `Number.parseInt(…, 16)`
 * does — on generated lines and on every line of the bundled lists.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import fc from "fast-check";
import { HashSet53, hashesByKind } from "../../src/scrub/lexicon/hash-set.ts";
import { nameHash } from "../../src/scrub/lexicon/name-hash.ts";

const value = fc.oneof(
  fc.maxSafeNat(),
  fc.nat({ max: 4096 }),
  // the same low 32 bits (one slot) with different high bits
  fc.nat({ max: 7 }).map((hi) => hi * 2 ** 32 + 5),
);

describe("HashSet53", () => {
  it("has exactly the values it was built from", () => {
    fc.assert(
      fc.property(fc.array(value, { maxLength: 300 }), fc.array(value, { maxLength: 100 }), (xs, probes) => {
        const set = new HashSet53(xs);
        const ref = new Set(xs);
        assert.equal(set.size, ref.size);
        for (const x of [...xs, ...probes]) assert.equal(set.has(x), ref.has(x), String(x));
      }),
    );
  });

  it("holds names' hashes", () => {
    const names = ["zarnik oblovitz", "pellam quistrade", "tovah brimmelsen"];
    const set = new HashSet53(names.map(nameHash));
    for (const n of names) assert.ok(set.has(nameHash(n)));
    assert.ok(!set.has(nameHash("orsolya vantrebb")));
  });
});

describe("hashesByKind", () => {
  it("reads each hash as Number.parseInt does, and passes other lines on whole", () => {
    const line = fc.oneof(
      fc.tuple(fc.constantFrom("n", "e", "d"), fc.maxSafeNat()).map(([k, v]) => `${k} ${v.toString(16)}`),
      fc.tuple(fc.maxSafeNat(), fc.nat(99)).map(([v, m]) => `f ${v.toString(16)} ${m}`),
      fc.nat(20).map((m) => `m ${m}`),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 60 }), (ls) => {
        const others: string[] = [];
        const got = hashesByKind(ls.join("\n"), "ned", (l) => others.push(l));
        const want = ["n", "e", "d"].map((k) =>
          ls.filter((l) => l[0] === k).map((l) => Number.parseInt(l.split(" ")[1]!, 16)),
        );
        assert.deepEqual(got, want);
        assert.deepEqual(
          others,
          ls.filter((l) => l[0] === "f" || l[0] === "m"),
        );
      }),
    );
  });

  it("reads every line of the bundled name lists as Number.parseInt does", () => {
    for (const [file, kinds] of [
      ["data/scrub/public-people.txt", "ned"],
      ["data/scrub/name-parts.txt", "h"],
    ] as const) {
      const body = readFileSync(file, "utf8")
        .split("\n")
        .filter((l) => l !== "" && !l.startsWith("#"));
      const got = hashesByKind(body.join("\n"), kinds);
      const want = [...kinds].map((k) =>
        body.filter((l) => l[0] === k).map((l) => Number.parseInt(l.split(" ")[1]!, 16)),
      );
      assert.deepEqual(got, want, file);
      assert.ok(got.flat().length > 100_000, file);
    }
  });
});
