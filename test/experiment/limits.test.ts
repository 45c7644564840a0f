/** Resource limits of an experiment: the grid is counted before it is expanded, and jobs never exceed the cores. */
import assert from "node:assert/strict";
import { availableParallelism } from "node:os";
import { test } from "node:test";
import { gridSize, MAX_COMBINATIONS, parseConfig } from "../../src/experiment/config.ts";
import { capJobs } from "../../src/experiment/pool.ts";
import { UsageError } from "../../src/util/errors.ts";

const range = (n: number, from = 2) => Array.from({ length: n }, (_, i) => from + i);

test("a grid of 10⁶ points × 100 seeds is refused at once, counted without expanding it", () => {
  const raw = {
    log: "x.log",
    seeds: range(100, 0),
    methods: [{ method: "swap", params: { k: range(1000), delta: range(1000, 2).map((d) => d / 1000 + 1) } }],
  };
  const t0 = performance.now();
  assert.throws(
    () => parseConfig(raw, "cfg.yaml"),
    (e: unknown) =>
      e instanceof UsageError &&
      /^cfg\.yaml: methods: 100,000,000 combinations .*limit of 10,000.*--force/.test(e.message),
  );
  // It used to run 64 s and die out of memory (exit 134); counting takes ~0.1 s (at load 11), so 20 s tells the
  // two apart on a loaded machine too (2 s was 17× the time measured there, a margin a stall can eat).
  assert.ok(performance.now() - t0 < 20_000);
});

test("the limit counts every method and seed; at the limit it passes, --force lifts it", () => {
  const at = {
    log: "x.log",
    seeds: [1, 2],
    methods: [{ method: "threshold", params: { k: range(MAX_COMBINATIONS / 2) } }],
  };
  assert.equal(parseConfig(at).combinations.length, MAX_COMBINATIONS);
  const over = { ...at, methods: [...at.methods, "identity"] };
  assert.throws(() => parseConfig(over), UsageError);
  assert.equal(
    parseConfig(over, "cfg", undefined, { force: true }).combinations.length,
    MAX_COMBINATIONS + 2,
  );
  assert.equal(gridSize({ k: [2, 3, 4], delta: [1.1, 1.2], depth: 1 }), 6);
});

test("jobs are capped at the cores, in the config and in the pool", () => {
  const cores = availableParallelism();
  assert.equal(parseConfig({ log: "x.log", methods: ["identity"], jobs: 16 * cores }).jobs, cores);
  assert.equal(parseConfig({ log: "x.log", methods: ["identity"] }).jobs, cores);
  assert.equal(capJobs(64 * cores, 1000), cores);
  assert.equal(capJobs(4, 1), 1);
});
