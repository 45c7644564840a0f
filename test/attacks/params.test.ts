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

test("a de-anonymizer run on a release that is not swap-shaped says so; on a swap-shaped one it does not", () => {
  const dir = tempDir();
  const header = "AnonID\tQuery\tQueryTime\tItemRank\tClickURL\tCategory\tUnit\n";
  const rows = (users: string[]) =>
    users.map((u, i) => `${u}\tquery ${i}\t2006-03-01 10:0${i}:00\t\t\tTop/Arts\tquery\n`).join("");
  const original = join(dir, "original.tsv");
  writeFileSync(original, header + rows(["1", "2", "3", "1", "2", "3"]));
  const swapped = join(dir, "swapped.tsv"); // the same users with the same numbers of events, texts moved
  writeFileSync(swapped, header + rows(["2", "3", "1", "3", "1", "2"]));
  const clustered = join(dir, "clustered.tsv"); // an mdav-like release: cluster users
  writeFileSync(clustered, header + rows(["c1", "c1", "c1", "c2", "c2", "c2"]));
  const run = (released: string) =>
    spawnSync(
      process.execPath,
      [
        "--import",
        "tsx",
        CLI,
        "attack",
        "--attack",
        "deanon3",
        "--original",
        original,
        "--released",
        released,
        "--json",
      ],
      { encoding: "utf8" },
    );
  const fits = run(swapped);
  assert.equal(fits.status, 0, fits.stderr);
  assert.equal(JSON.parse(fits.stdout).fits, true);
  assert.doesNotMatch(fits.stderr, /models a swap release/);
  const misfit = run(clustered);
  assert.equal(misfit.status, 0, misfit.stderr);
  const out = JSON.parse(misfit.stdout);
  assert.equal(out.fits, false);
  assert.match(out.misfit, /2 released users are not users of the original/);
  assert.match(misfit.stderr, /note: deanon3 models a swap release/);
});
