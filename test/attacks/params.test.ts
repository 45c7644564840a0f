import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { attacks, getAttack } from "../../src/attacks/registry.ts";
import { ParamError } from "../../src/util/params.ts";
import { tempDir } from "../helpers/tmp.ts";

const CLI = fileURLToPath(new URL("../../src/cli/main.ts", import.meta.url));

test("every attack declares its parameters, and parse({}) gives each ParamSpec default", () => {
  for (const a of attacks) {
    const parsed = a.parse({});
    for (const p of a.params) assert.equal(parsed[p.name], p.default, `${a.name}.${p.name}`);
    // Parsing is idempotent: a parsed value parses to itself.
    assert.deepEqual(a.parse(parsed), parsed);
  }
});

test("attack parameters are validated: a bad number is a ParamError, never NaN", () => {
  for (const name of ["deanon1", "deanon3"]) {
    assert.throws(() => getAttack(name).parse({ k: "abc" }), ParamError);
    assert.throws(() => getAttack(name).parse({ k: "2.5" }), ParamError);
    assert.throws(() => getAttack(name).parse({ delta: "1" }), ParamError);
    assert.deepEqual(getAttack(name).parse({ k: "4", delta: "1.5" }), { k: 4, delta: 1.5, depth: 1 });
  }
  assert.throws(() => getAttack("matcher").parse({ matchTime: "maybe" }), ParamError);
  assert.throws(() => getAttack("background").parse({ m: "0" }), ParamError);
});

test("querymask attack: --k abc exits 2 naming the parameter; a flag the attack does not take exits 2", () => {
  const dir = tempDir();
  const log = join(dir, "log.tsv");
  writeFileSync(
    log,
    "AnonID\tQuery\tQueryTime\tItemRank\tClickURL\n1\tcheap flights\t2006-03-01 10:00:00\t\t\n",
  );
  const run = (args: string[]) =>
    spawnSync(process.execPath, ["--import", "tsx", CLI, "attack", "-q", ...args], { encoding: "utf8" });
  const bad = run(["--attack", "deanon3", "--k", "abc", "--original", log, "--released", log]);
  assert.equal(bad.status, 2, bad.stderr);
  assert.match(bad.stderr, /deanon3: parameter k: must be an integer/);
  const foreign = run(["--attack", "matcher", "--k", "3", "--original", log, "--released", log]);
  assert.equal(foreign.status, 2, foreign.stderr);
  assert.match(foreign.stderr, /attack matcher has no parameter --k/);
  const ok = run([
    "--attack",
    "matcher",
    "--match-time",
    "false",
    "--original",
    log,
    "--released",
    log,
    "--json",
  ]);
  assert.equal(ok.status, 0, ok.stderr);
  assert.equal(JSON.parse(ok.stdout).counts["match time"], 0);
});
