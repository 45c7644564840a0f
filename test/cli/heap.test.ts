/** src/cli/heap.ts: the young generation stops growing at the cap; the old generation grows less past its live size. */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";

/** New-space KiB after a churn that makes V8 grow it (objects surviving a few scavenges), capped or not. */
function newSpaceKiB(cap: boolean): number {
  const script = `
    import { capYoungGeneration } from "./src/cli/heap.ts";
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

/** The largest heap V8 commits while objects that live long enough to be promoted keep dying, MiB. */
function oldGenerationPeakMiB(percent: number | undefined): number {
  const script = `
    import { slowOldGenerationGrowth } from "./src/cli/heap.ts";
    if (${percent ?? -1} >= 0) slowOldGenerationGrowth(${percent ?? -1});
    let max = 0;
    const ring = new Array(64).fill(null);
    for (let i = 0; i < 4000; i++) {
      ring[i % 64] = Array.from({ length: 2000 }, (_, j) => ({ j, s: "x" + j }));
      if (i % 50 === 0) max = Math.max(max, process.memoryUsage().heapTotal);
    }
    console.log(max / 2 ** 20);
  `;
  const r = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    encoding: "utf8",
  });
  assert.equal(r.status, 0, r.stderr);
  return Number(r.stdout.trim());
}

test("with slowOldGenerationGrowth(50) the heap V8 commits around promoted garbage stays smaller", () => {
  const free = oldGenerationPeakMiB(undefined);
  const slow = oldGenerationPeakMiB(50);
  assert.ok(slow < 0.85 * free, `${slow.toFixed(0)} MiB vs ${free.toFixed(0)} MiB`);
});
