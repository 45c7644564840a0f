/**
 * The generated docs are what the code says: docs/cli.md is every command's `--help` (scripts/docs.ts renders
 * them from the commands' definitions, and a few are compared with what the `querymask` command itself prints),
 * every method has its page in docs/methods/, each page's parameter table is the one the method declares, and
 * docs/api.md's index lists every export of the library (from the declarations of src/index.ts).
 * After changing a command or a parameter: `npm run docs`.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { test } from "node:test";
import { apiPage, CLI_PAGE, cliPage, METHODS_DIR, methodPages } from "../../scripts/docs.ts";
import { listMethods } from "../../src/api/methods.ts";

const ROOT = resolve(import.meta.dirname, "../..");

test("docs/cli.md is the commands' --help (npm run docs)", async () => {
  assert.equal(readFileSync(CLI_PAGE, "utf8"), await cliPage(), "docs/cli.md is stale: run npm run docs");
});

test("the help docs/cli.md shows is what querymask <command> --help prints", () => {
  const page = readFileSync(CLI_PAGE, "utf8");
  for (const args of [
    ["--help"],
    ["classify", "--help"],
    ["kb", "build", "--help"],
    ["anonymize", "--help"],
  ]) {
    const r = spawnSync(process.execPath, ["--import", "tsx", join(ROOT, "src/cli/main.ts"), ...args], {
      cwd: ROOT,
      encoding: "utf8",
    });
    assert.equal(r.status, 0, r.stderr);
    assert.ok(r.stdout.length > 200, `querymask ${args.join(" ")} printed its help`);
    assert.ok(
      page.includes(`\`\`\`text\n${r.stdout.trimEnd()}\n\`\`\``),
      `querymask ${args.join(" ")} as printed`,
    );
  }
});

test("every method has its page, whose parameter table is the method's (npm run docs)", () => {
  for (const m of listMethods())
    assert.ok(existsSync(join(METHODS_DIR, `${m.name}.md`)), `docs/methods/${m.name}.md`);
  for (const [path, now, generated] of methodPages()) {
    assert.match(now, /<!-- parameters -->[\s\S]*<!-- \/parameters -->/, `${path} has a parameters section`);
    assert.equal(now, generated, `${path}: the parameter table is stale: run npm run docs`);
  }
});

test("docs/api.md indexes every export of the library (npm run docs)", () => {
  const [now, generated] = apiPage();
  assert.match(now, /<!-- exports -->[\s\S]*<!-- \/exports -->/, "docs/api.md has its index");
  assert.equal(now, generated, "docs/api.md's index is stale: run npm run docs");
  for (const name of ["anonymize", "audit", "readLog", "ParamError", "Release", "QueryLog"])
    assert.ok(now.includes(`| \`${name}\` |`), `the index lists ${name}`);
});
