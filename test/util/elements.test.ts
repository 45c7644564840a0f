import assert from "node:assert/strict";
import { test } from "node:test";
import { setFlagsFromString } from "node:v8";
import fc from "fast-check";
import { emptyList, mapList, splitSpaces } from "../../src/util/elements.ts";

// V8's own answer to "do these two arrays have the same map (elements kind)?": the property these helpers exist for.
setFlagsFromString("--allow-natives-syntax");
const sameMap = new Function("a", "b", "return %HaveSameMap(a, b)") as (a: unknown, b: unknown) => boolean;
const FILLED = ["a", "b"];

test("an empty list has the map of a filled array of strings, and keeps it when filled", () => {
  assert.equal(sameMap([], FILLED), false); // why the helper exists: a literal [] is another kind
  const a = emptyList<{ n: number }>();
  assert.equal(a.length, 0);
  assert.ok(sameMap(a, FILLED));
  a.push({ n: 1 });
  assert.ok(sameMap(a, FILLED));
  assert.notEqual(emptyList(), emptyList()); // a new array each time: callers may fill it
});

test("splitSpaces is split(' '), in one map", () => {
  fc.assert(
    fc.property(
      fc.array(fc.constantFrom("a", "bc", " ", "  ", "é", "x y")).map((p) => p.join("")),
      (text) => {
        const got = splitSpaces(text);
        assert.deepEqual(got, text.split(" "));
        assert.ok(sameMap(got, FILLED));
      },
    ),
  );
});

test("mapList is map, in one map whether empty or not", () => {
  fc.assert(
    fc.property(fc.array(fc.integer()), (xs) => {
      const got = mapList(xs, (x, i) => `${x}:${i}`);
      assert.deepEqual(
        got,
        xs.map((x, i) => `${x}:${i}`),
      );
      assert.ok(sameMap(got, FILLED));
    }),
  );
});
