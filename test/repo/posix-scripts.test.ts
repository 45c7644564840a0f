/**
 * The shell scripts the README and docs tell a person to run (`sh scripts/setup.sh`) work under Debian's `sh`,
 * which is dash: a POSIX shebang, dash parses them (`dash -n`), their `set` lines run under dash (`set -o
 * pipefail` is the classic failure: "Illegal option -o pipefail"), and none of bash's own syntax. The scripts
 * install packages, so they are not run whole here; CI runs them before the tests.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { test } from "node:test";

const ROOT = resolve(import.meta.dirname, "../..");

function markdown(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? markdown(join(dir, e.name)) : e.name.endsWith(".md") ? [join(dir, e.name)] : [],
  );
}

/** Every `scripts/….sh` the README or a docs page names, and the scripts those call with `sh`. */
function namedScripts(): string[] {
  const found = new Set<string>();
  for (const f of [join(ROOT, "README.md"), ...markdown(join(ROOT, "docs"))])
    for (const m of readFileSync(f, "utf8").matchAll(/\bscripts\/[\w./-]+\.sh\b/g)) found.add(m[0]);
  for (const s of [...found]) {
    const text = readFileSync(join(ROOT, s), "utf8");
    for (const m of text.matchAll(/\bsh\s+\.\/([\w.-]+\.sh)\b/g)) found.add(`scripts/${m[1]}`);
  }
  return [...found].sort();
}

/** Bash's own syntax that dash rejects or reads otherwise. */
const BASHISMS: readonly [RegExp, string][] = [
  [/\bset\s+(-[a-z]*o\s+pipefail|-o\s+pipefail)/, "set -o pipefail"],
  [/\[\[/, "[[ … ]]"],
  [/^\s*function\s+\w+/m, "the function keyword"],
  [/^\s*source\s/m, "source (use .)"],
  [/<<</, "here-strings"],
  [/&>/, "&> redirection"],
  [/\$'/, "$'…' quoting"],
  [/\w+=\(/, "arrays"],
  [/\$\{\w+\/\//, "pattern substitution (var//…)"],
];

const dash = spawnSync("dash", ["-c", "exit 0"]).status === 0;

test("the scripts the docs name are POSIX sh, as `sh` (dash) runs them", {
  skip: !dash && "no dash here",
}, () => {
  const scripts = namedScripts();
  assert.ok(scripts.includes("scripts/setup.sh"), "the README names scripts/setup.sh");
  for (const s of scripts) {
    const path = join(ROOT, s);
    assert.ok(existsSync(path), `${s} (named in the docs) exists`);
    const text = readFileSync(path, "utf8");
    assert.match(text, /^#!\/bin\/sh\n/, `${s}: #!/bin/sh`);
    const parse = spawnSync("dash", ["-n", path], { encoding: "utf8" });
    assert.equal(parse.status, 0, `${s}: dash -n: ${parse.stderr}`);
    for (const line of text.split("\n").filter((l) => /^\s*set\s/.test(l))) {
      const r = spawnSync("dash", ["-c", line.trim()], { encoding: "utf8" });
      assert.equal(r.status, 0, `${s}: \`${line.trim()}\` under dash: ${r.stderr}`);
    }
    for (const [pattern, what] of BASHISMS) assert.doesNotMatch(text, pattern, `${s}: ${what} is bash's`);
  }
});

test("the check catches what dash rejects (so it can fail)", { skip: !dash && "no dash here" }, () => {
  const r = spawnSync("dash", ["-c", "set -euo pipefail"], { encoding: "utf8" });
  assert.notEqual(r.status, 0, "dash rejects set -o pipefail");
  assert.match("set -euo pipefail", BASHISMS[0]![0]);
});
