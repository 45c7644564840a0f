/** Config validation: a bad config names the offending key; grids expand to every combination. */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { grid, loadConfig, parseConfig } from "../../src/experiment/config.ts";
import { UsageError } from "../../src/util/errors.ts";
import { tempDir } from "../helpers/tmp.ts";

const good = { log: "x.log", methods: [{ method: "identity" }, "drop-all"] };

function rejects(raw: unknown, key: RegExp): void {
  assert.throws(
    () => parseConfig(raw, "cfg.yaml"),
    (e: unknown) => e instanceof UsageError && key.test(e.message),
  );
}

describe("config validation names the offending key", () => {
  it("unknown top-level key", () => rejects({ ...good, sedes: [1] }, /^cfg\.yaml: sedes: unknown key/));
  it("missing log", () => rejects({ methods: ["identity"] }, /: log: missing/));
  it("missing or empty methods", () => {
    rejects({ log: "x" }, /: methods: missing/);
    rejects({ log: "x", methods: [] }, /: methods: must be a non-empty list/);
  });
  it("unknown method, by position", () =>
    rejects(
      { log: "x", methods: ["identity", { method: "nope" }] },
      /: methods\[1\]\.method: unknown method "nope"/,
    ));
  it("unknown parameter of a method", () =>
    rejects(
      { log: "x", methods: [{ method: "threshold", params: { kk: 3 } }] },
      /methods\[0\]\.params\.kk: unknown key/,
    ));
  it("bad parameter value, by grid key", () =>
    rejects(
      { log: "x", methods: [{ method: "threshold", params: { k: [3, "x"] } }] },
      /methods\[0\]\.params\.k: .*integer/,
    ));
  it("bad seed", () => rejects({ ...good, seeds: [1, -2] }, /: seeds\[1\]: must be an integer/));
  it("unknown yardstick", () =>
    rejects({ ...good, yardsticks: ["rl", "nope"] }, /: yardsticks\[1\]: unknown yardstick/));
  it("bad option", () => rejects({ ...good, options: { backgroundM: [0] } }, /options\.backgroundM\[0\]/));
  it("unknown option", () =>
    rejects({ ...good, options: { topqueries: 5 } }, /options\.topqueries: unknown key/));
  it("bad frontier column", () => rejects({ ...good, frontier: { privacy: 3 } }, /frontier\.privacy/));
  it("YAML syntax errors name the file", () => {
    const dir = tempDir();
    const p = join(dir, "bad.yaml");
    writeFileSync(p, "log: [unclosed\n");
    assert.throws(
      () => loadConfig(p),
      (e: unknown) => e instanceof UsageError && e.message.startsWith(`${p}: not valid YAML`),
    );
  });
});

describe("config expansion", () => {
  it("methods × grid × seeds, log resolved against the config's folder", () => {
    const dir = tempDir();
    const p = join(dir, "exp.json");
    writeFileSync(
      p,
      JSON.stringify({
        log: "data/x.log",
        seeds: [1, 2],
        methods: ["identity", { method: "threshold", params: { k: [2, 3, 4] } }],
      }),
    );
    const c = loadConfig(p);
    assert.deepEqual(c.log, [join(dir, "data/x.log")]);
    assert.equal(c.combinations.length, 2 * (1 + 3));
    assert.deepEqual(
      c.combinations.filter((x) => x.method === "threshold" && x.seed === 2).map((x) => x.params.k),
      [2, 3, 4],
    );
  });
  it("grid is the cartesian product", () => {
    assert.deepEqual(grid({ a: [1, 2], b: "x", c: [true, false] }), [
      { a: 1, b: "x", c: true },
      { a: 1, b: "x", c: false },
      { a: 2, b: "x", c: true },
      { a: 2, b: "x", c: false },
    ]);
    assert.deepEqual(grid({}), [{}]);
  });
});
