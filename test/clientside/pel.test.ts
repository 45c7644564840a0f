import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { categoryAtDepth, type FiledEvent, profileExposure, quantile } from "../../src/clientside/pel.ts";

const ev = (author: string, filed: string, category: string): FiledEvent => ({ author, filed, category });

test("PEL is 100 for every user when every query is filed under its author", () => {
  const events = [
    ev("u", "u", "Top/Arts"),
    ev("u", "u", "Top/Sports"),
    ev("u", "u", "Top/Sports"),
    ev("v", "v", "Top/Health"),
    ev("v", "v", "Top/Games"),
  ];
  const pel = profileExposure(events);
  assert.equal(pel.get("u"), 100);
  assert.equal(pel.get("v"), 100);
});

test("a hand-made two-user case gives the value derived by hand", () => {
  // u writes a (c1) and b (c2); v writes c (c3) and d (c4). u submits a herself and forwards b to v; v submits c
  // herself and forwards d to u. The engine files {a: c1, d: c4} under u and {c: c3, b: c2} under v.
  // For u: a = f = 1, so P(c1,c1) = 1/2, P(c1,c4) = P(c2,c4) = 1/4 (the foreign d is independent of X ~ {c1: ½,
  // c2: ½}). Marginals: X = {c1: ¾, c2: ¼}, Y = {c1: ½, c4: ½}.
  // I = ½·log2(½ / (¾·½)) + ¼·log2(¼ / (¾·½)) + ¼·log2(¼ / (¼·½)) = 3/2 − ¾·log2 3
  // H(X) = ¾·log2(4/3) + ¼·log2 4 = 2 − ¾·log2 3, so PEL = 100·(1.5 − 0.75·log2 3)/(2 − 0.75·log2 3) ≈ 38.369.
  const events = [ev("u", "u", "c1"), ev("u", "v", "c2"), ev("v", "v", "c3"), ev("v", "u", "c4")];
  const expected = (100 * (1.5 - 0.75 * Math.log2(3))) / (2 - 0.75 * Math.log2(3));
  const pel = profileExposure(events);
  assert.ok(Math.abs(pel.get("u")! - expected) < 1e-9, `${pel.get("u")} vs ${expected}`);
  assert.ok(Math.abs(pel.get("v")! - expected) < 1e-9);
  assert.ok(Math.abs(expected - 38.369) < 1e-3);
});

test("PEL is 0 when the engine holds none of the user's queries under her id", () => {
  const events = [ev("u", "v", "c1"), ev("u", "v", "c2"), ev("v", "u", "c3"), ev("v", "u", "c4")];
  const pel = profileExposure(events);
  assert.equal(pel.get("u"), 0);
  assert.equal(pel.get("v"), 0);
});

test("an id holding only some of the user's queries and nothing else exposes all it holds: PEL 100", () => {
  // u's real profile has two categories; the engine holds only her c1 query under her id (c2 went to v, who
  // sent nothing to u). X = Y on everything under u's id.
  const pel = profileExposure([
    ev("u", "u", "c1"),
    ev("u", "v", "c2"),
    ev("v", "v", "c3"),
    ev("v", "v", "c4"),
  ]);
  assert.equal(pel.get("u"), 100);
});

test("a one-category or unclassified profile has no PEL", () => {
  const pel = profileExposure([ev("u", "u", "c1"), ev("u", "u", "c1"), ev("w", "w", ""), ev("w", "w", "")]);
  assert.equal(pel.get("u"), undefined);
  assert.equal(pel.get("w"), undefined);
  assert.ok(pel.has("w"));
});

test("PEL stays in [0, 100] and is 100 exactly when nothing is moved (property)", () => {
  const event = fc.record({
    author: fc.constantFrom("a", "b", "c"),
    filed: fc.constantFrom("a", "b", "c"),
    category: fc.constantFrom("", "x", "y", "z"),
  });
  fc.assert(
    fc.property(fc.array(event, { maxLength: 40 }), (events) => {
      for (const v of profileExposure(events).values()) {
        if (v !== undefined) assert.ok(v >= 0 && v <= 100 + 1e-9, String(v));
      }
      const honest = events.map((e) => ({ ...e, filed: e.author }));
      for (const v of profileExposure(honest).values())
        if (v !== undefined) assert.ok(Math.abs(v - 100) < 1e-9);
    }),
  );
});

test("categories are cut at the profile depth; quantiles interpolate", () => {
  assert.equal(categoryAtDepth("Top/Sports/Soccer/Clubs", 1), "Top/Sports");
  assert.equal(categoryAtDepth("Top/Sports/Soccer/Clubs", 2), "Top/Sports/Soccer");
  assert.equal(categoryAtDepth("", 1), "");
  assert.equal(categoryAtDepth(undefined, 1), "");
  assert.equal(quantile([0, 10, 20, 30], 0.5), 15);
  assert.ok(Number.isNaN(quantile([], 0.5)));
});
