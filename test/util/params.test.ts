/** Integer parameters are refused in one wording across methods (issue 21). */
import assert from "node:assert/strict";
import { it } from "node:test";
import { methods } from "../../src/methods/registry.ts";
import { intParam } from "../../src/util/params.ts";

it("an integer without an upper bound is 'an integer ≥ min', never '[min, 9007199254740991]'", () => {
  assert.throws(
    () => intParam("swap", { k: 1 }, "k", 3, 2),
    /^ParamError: swap: parameter k: must be an integer ≥ 2, got 1$/,
  );
  assert.throws(() => intParam("graph", { variant: 4 }, "variant", 1, 1, 3), /must be in \[1, 3\], got 4/);
  for (const m of methods) {
    for (const name of ["k", "d", "degree"]) {
      try {
        m.params.parse({ [name]: -1 });
      } catch (e) {
        assert.doesNotMatch(String(e), /9007199254740991/, `${m.name} ${name}`);
      }
    }
  }
});
