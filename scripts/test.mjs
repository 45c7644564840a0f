#!/usr/bin/env node
// `npm test`: every test/**/*.test.ts in the repo through node:test (Node 20's runner does not expand globs).
// Arguments narrow the run to files whose path contains one of them: `npm test -- log swap`.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";

const filters = process.argv.slice(2);
const files = readdirSync("test", { recursive: true })
  .map((f) => `test/${f}`)
  .filter((f) => f.endsWith(".test.ts"))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();
if (files.length === 0) {
  console.error("no test files found");
  process.exit(1);
}
const r = spawnSync(process.execPath, ["--import", "tsx", "--test", "--test-reporter=spec", ...files], {
  stdio: "inherit",
});
process.exit(r.status ?? 1);
