/** capYoungGeneration (src/cli/young-generation.ts): the young generation stops growing at the cap. */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";

/** New-space KiB after a churn that makes V8 grow it (objects surviving a few scavenges), capped or not. */
function newSpaceKiB(cap: boolean): number {
  const script = `
    import { capYoungGeneration } from "./src/cli/young-generation.ts";
    import v8 from "node:v8";
    if (${cap}) capYoungGeneration(2);
    let keep = [];
    for (let i = 0; i < 1.5e6; i++) {
      keep.push({ i, s: "x" + i });
      if (keep.length > 20000) keep = keep.slice(10000);
      if (i % 50000 === 0) await new Promise((r) => setImmediate(r));
    }
    console.log(v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space").space_size >> 10);
  `;
  const r = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    encoding: "utf8",
  });
  assert.equal(r.status, 0, r.stderr);
  return Number(r.stdout.trim());
}

test("the new space grows past 2 × 2 MiB without the cap and stays at it with capYoungGeneration(2)", () => {
  assert.ok(newSpaceKiB(false) > 4096, "the churn makes V8 grow the young generation");
  assert.equal(newSpaceKiB(true), 4096);
});
