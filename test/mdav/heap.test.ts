/**
 * mdav and its baselines hold the whole log, so a log that cannot fit in the heap stops the run before it is
 * loaded (read by user) or while it is (the batch path): exit 2 with the sizes (rows met, rows that fit, the
 * heap), never a V8 heap trace, and no release written.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { checkHeap, LOADED_BYTES_PER_ROW, METHOD_BYTES_PER_ROW } from "../../src/methods/mdav/limits.ts";
import { UsageError } from "../../src/util/errors.ts";
import { tempDir } from "../helpers/tmp.ts";

const CLI = fileURLToPath(new URL("../../src/cli/main.ts", import.meta.url));
const MiB = 2 ** 20;

/** Heap statistics of a process with `limit` bytes of heap, `used` of them in use. */
const heap = (limit: number, used: number) => ({ heap_size_limit: limit, used_heap_size: used });

/** The "about N rows fit" of a refusal. */
function rowsThatFit(e: unknown): number {
  assert.ok(e instanceof UsageError, String(e));
  const m = /about ([\d,]+) fit in this process's heap/.exec(e.message);
  assert.ok(m, e.message);
  return Number(m[1]!.replaceAll(",", ""));
}

test("a 64 MiB heap refuses a million rows, with the sizes; a large heap takes them", () => {
  const small = heap(64 * MiB, 16 * MiB);
  assert.throws(
    () => checkHeap("mdav", 1_000_000, false, small),
    (e: unknown) => {
      assert.ok(e instanceof UsageError);
      const fit = Math.floor((0.9 * 48 * MiB) / (METHOD_BYTES_PER_ROW + LOADED_BYTES_PER_ROW));
      assert.equal(
        e.message.split(":").slice(0, 2).join(":"),
        `1,000,000 rows: mdav holds the whole log in memory and about ${fit.toLocaleString("en")} fit in this process's heap of 64 MiB`,
      );
      assert.match(e.message, /--max-old-space-size/);
      return true;
    },
  );
  checkHeap("mdav", 1_000_000, false, heap(8 * 2 ** 30, 16 * MiB));
  // Rows already loaded cost only the method's share.
  const justLoaded = Math.floor((0.9 * 48 * MiB) / METHOD_BYTES_PER_ROW);
  checkHeap("mdav", justLoaded, true, small);
  assert.throws(() => checkHeap("mdav", justLoaded, false, small), UsageError);
});

test("the rows a refusal says fit are accepted, and one row more is refused", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 16, max: 16_384 }),
      fc.double({ min: 0, max: 0.95, noNaN: true }),
      fc.boolean(),
      (limitMiB, usedShare, loaded) => {
        const limits = heap(limitMiB * MiB, Math.floor(usedShare * limitMiB * MiB));
        const perRow = METHOD_BYTES_PER_ROW + (loaded ? 0 : LOADED_BYTES_PER_ROW);
        const free = limits.heap_size_limit - limits.used_heap_size;
        const tooMany = Math.floor((0.9 * free) / perRow) + 1;
        let fit = 0;
        try {
          checkHeap("erola", tooMany, loaded, limits);
          assert.fail(`${tooMany} rows accepted`);
        } catch (e) {
          fit = rowsThatFit(e);
        }
        assert.equal(fit, tooMany - 1);
        checkHeap("erola", fit, loaded, limits);
      },
    ),
  );
});

// mdav itself reads a log by user without holding it (test/mdav/by-user.test.ts): loaded (--batch) it holds it, as
// erola does read by user or not.
test("anonymize in a 100 MiB heap: exit 2 with the sizes (erola by user, mdav loaded with --batch), no release", () => {
  const dir = tempDir("querymask-mdav-heap-");
  const log = join(dir, "log.tsv");
  const gen = spawnSync(
    process.execPath,
    ["--import", "tsx", CLI, "generate", "--rows", "150000", "--seed", "3", "-q", "-o", log],
    { encoding: "utf8" },
  );
  assert.equal(gen.status, 0, gen.stderr);
  for (const [method, batch] of [
    ["erola", []],
    ["mdav", ["--batch"]],
  ] as const) {
    const out = join(dir, "out.tsv");
    const r = spawnSync(
      process.execPath,
      ["--import", "tsx", CLI, "anonymize", "--method", method, ...batch, log, "-o", out, "-q"],
      { encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "--max-old-space-size=100" } },
    );
    assert.equal(r.status, 2, r.stderr);
    const m = new RegExp(
      `^querymask: ${log.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: ([\\d,]+) rows or more: ${method} holds the whole log in memory and about ([\\d,]+) fit in this process's heap of \\d+ MiB: split the log by user`,
    ).exec(r.stderr);
    assert.ok(m, r.stderr);
    const [met, fit] = [m[1]!, m[2]!].map((n) => Number(n.replaceAll(",", "")));
    // The count stopped just past what fits, well before the log's end.
    assert.ok(fit! < met! && met! < 150_000, r.stderr);
    assert.doesNotMatch(r.stderr, /heap out of memory|at .*\.ts:\d+/);
    assert.equal(existsSync(out), false);
  }
});
