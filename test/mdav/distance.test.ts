import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { Taxonomy } from "../../src/knowledge/taxonomy.ts";
import { CategorySpace } from "../../src/semantic/category-space.ts";
import { profileOf } from "../../src/semantic/profile.ts";
import { semanticDistanceMatrix, semanticUserDistance } from "../../src/semantic/semantic-distance.ts";
import { paperTaxonomy } from "./fixtures.ts";

const t = paperTaxonomy();
const space = CategorySpace.fromTaxonomy(t);
const id = (p: string) => t.id(p)!;
const DIVING = "Sports/Water_Sports/Swimming_and_Diving";
const WINDSURF = "Sports/Water_Sports/Windsurfing";
const MED = "Regional/Europe/Regions/Mediterranean";

test("Example 3: δs(Swimming and Diving, Windsurfing) = 0.5", () => {
  assert.equal(space.delta(id(DIVING), id(WINDSURF)), 0.5);
});

test("δs is 0 on identical categories, 1 when only Top is shared, and symmetric", () => {
  assert.equal(space.delta(id(DIVING), id(DIVING)), 0);
  assert.equal(space.delta(id(DIVING), id(MED)), 1);
  const ids = t.ids().filter((i) => i > 0);
  fc.assert(
    fc.property(fc.constantFrom(...ids), fc.constantFrom(...ids), (a, b) => {
      const d = space.delta(a, b);
      assert.ok(d >= 0 && d <= 1);
      assert.equal(d, space.delta(b, a));
      assert.equal(d === 0, a === b);
    }),
  );
});

test("Example 4: Ds(u1, u2) = 1/5", () => {
  const u1 = profileOf([id(DIVING), id(MED)]);
  const u2 = profileOf([id(WINDSURF), id(MED), id(MED)]);
  assert.ok(Math.abs(semanticUserDistance(space, u1, u2) - 1 / 5) < 1e-12);
  const m = semanticDistanceMatrix(space, [u1, u2]);
  assert.ok(Math.abs(m[1]! - 0.2) < 1e-6);
});

test("the fast Ds matrix equals Eq. 4 evaluated directly (bundled ODP taxonomy)", () => {
  const odp = Taxonomy.bundled();
  const big = CategorySpace.fromTaxonomy(odp);
  const ids = odp.ids().filter((i) => i > 0);
  const profile = fc.array(fc.constantFrom(...ids), { minLength: 0, maxLength: 8 }).map(profileOf);
  fc.assert(
    fc.property(fc.array(profile, { minLength: 2, maxLength: 6 }), (ps) => {
      const m = semanticDistanceMatrix(big, ps);
      for (let i = 0; i < ps.length; i++) {
        assert.equal(m[i * ps.length + i], 0);
        for (let j = 0; j < ps.length; j++) {
          const direct = semanticUserDistance(big, ps[i]!, ps[j]!);
          assert.ok(
            Math.abs(m[i * ps.length + j]! - direct) < 1e-5,
            `${i},${j}: ${m[i * ps.length + j]} vs ${direct}`,
          );
        }
      }
    }),
    { numRuns: 200 },
  );
});
