import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import fc from "fast-check";
import { ParamError, withParamRange } from "../../src/methods/method.ts";
import { methods } from "../../src/methods/registry.ts";
import { numberParam } from "../../src/util/params.ts";
import { tempDir } from "../helpers/tmp.ts";

test("numberParam refuses non-finite and subnormal numbers for any check", () => {
  fc.assert(
    fc.property(
      fc.oneof(
        fc.constantFrom(Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.NaN, 1e-320, -5e-324),
        fc
          .double({ min: -2.2e-308, max: 2.2e-308, noDefaultInfinity: true, noNaN: true })
          .filter((x) => x !== 0),
      ),
      (x) => {
        assert.throws(
          () => numberParam("m", { p: x }, "p", undefined, () => undefined),
          (e: unknown) => e instanceof ParamError && e.param === "p",
        );
        assert.throws(() => numberParam("m", { p: String(x) }, "p", undefined, () => undefined), ParamError);
      },
    ),
  );
  assert.equal(
    numberParam("m", { p: 0 }, "p", undefined, () => undefined),
    0,
  );
  assert.equal(
    numberParam("m", { p: "2.5e-308" }, "p", undefined, () => undefined),
    2.5e-308,
  );
});

test("every registered number parameter refuses Infinity and 1e-320 with a ParamError", () => {
  for (const m of methods) {
    for (const p of m.params.specs.filter((s) => s.type === "number" || s.type === "int")) {
      for (const bad of ["Infinity", "1e-320", "NaN"]) {
        assert.throws(
          () => m.params.parse({ [p.name]: bad }),
          (e: unknown) => e instanceof ParamError,
          `${m.name} --${p.name} ${bad}`,
        );
      }
    }
  }
});

test("a RangeError from a method's arithmetic becomes a ParamError", async () => {
  await assert.rejects(
    withParamRange("dp", async () => {
      throw new RangeError("Laplace scale must be a positive number, got Infinity");
    }),
    (e: unknown) => e instanceof ParamError && /dp: .*Laplace scale/.test(e.message),
  );
  await assert.rejects(
    withParamRange("dp", async () => {
      throw new Error("disk");
    }),
    (e: unknown) => !(e instanceof ParamError),
  );
});

test("the CLI: ε = 1e-320 exits 2 with one line, not 1 with a stack trace", () => {
  const input = join(tempDir(), "in.tsv");
  writeFileSync(input, "AnonID\tQuery\tQueryTime\tItemRank\tClickURL\n1\ta\t2006-03-01 00:00:00\t\t\n");
  const r = spawnSync(
    process.execPath,
    [
      "bin/querymask.js",
      "anonymize",
      "--method",
      "dp",
      "--epsilon",
      "1e-320",
      "-q",
      input,
      "-o",
      `${input}.out`,
    ],
    { encoding: "utf8" },
  );
  assert.equal(r.status, 2);
  assert.match(r.stderr, /^querymask: dp: parameter epsilon: .*too close to 0/);
  assert.doesNotMatch(r.stderr, /\n\s+at /);
});
