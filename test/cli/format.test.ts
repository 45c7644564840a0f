import assert from "node:assert/strict";
import { test } from "node:test";
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
