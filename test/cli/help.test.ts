import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import { buildProgram } from "../../src/cli/main.ts";

const run = (...args: string[]) =>
  spawnSync(process.execPath, ["bin/querymask.js", ...args], { encoding: "utf8" });

test("every command answers --help with exit 0 and an example or description", () => {
  const names = buildProgram().commands.map((c) => c.name());
  assert.ok(names.includes("stats") && names.includes("anonymize"));
  for (const name of names) {
    const r = run(name, "--help");
    assert.equal(r.status, 0, `${name} --help: ${r.stderr}`);
    assert.match(r.stdout, new RegExp(`Usage: querymask ${name}`));
  }
});

test("usage errors exit 2", () => {
  assert.equal(run("no-such-command").status, 2);
  assert.equal(run("stats").status, 2);
  const r = run("anonymize", "--method", "nope", "-o", "/tmp/x", "data/excite/excite-small.log");
  assert.equal(r.status, 2);
  assert.match(r.stderr, /unknown method "nope"/);
});
