import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { formatNumber } from "../../src/cli/shared.ts";

test("summary numbers: separators, 3 decimals, and small non-zero values never print as 0", () => {
  assert.equal(formatNumber(12345), "12,345");
  assert.equal(formatNumber(600.34567), "600.346");
  assert.equal(formatNumber(0), "0");
  assert.equal(formatNumber(0.00001), "0.00001");
  assert.equal(formatNumber(0.000123456), "0.000123");
  assert.equal(formatNumber(1e-7), "1e-7");
  assert.equal(formatNumber(-0.0005), "-0.0005");
});

test("summary numbers print as toLocaleString('en') does (property)", () => {
  fc.assert(
    fc.property(
      fc.oneof(
        fc.double({ noNaN: true }),
        fc.integer().map((n) => n / 1000),
        fc.integer({ min: 0, max: 1e7 }).map((n) => n / 16),
        fc.constantFrom(1.0005, 2.0625, -1234.5675, 999.9995, 1e21, -0, Number.POSITIVE_INFINITY),
      ),
      (v) => {
        if (v !== 0 && Math.abs(v) < 0.001) return;
        assert.equal(formatNumber(v), v.toLocaleString("en"));
      },
    ),
    { numRuns: 5000, seed: 17 },
  );
});
