/**
 * bin/querymask.js runs dist/ only while no source under src/ is newer than dist/cli/main.js, and otherwise the
 * sources through tsx. Checked on a copy of bin beside a stand-in dist/ and src/ whose `cli` says which ran.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { tempDir } from "../helpers/tmp.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const main = (which: string) =>
  `export async function cli() { process.stdout.write(${JSON.stringify(which)}); return 0; }\n`;

function standIn(): string {
  const root = tempDir();
  mkdirSync(join(root, "bin"));
  copyFileSync(join(ROOT, "bin/querymask.js"), join(root, "bin/querymask.js"));
  symlinkSync(join(ROOT, "node_modules"), join(root, "node_modules"));
  writeFileSync(join(root, "package.json"), '{ "type": "module" }\n');
  mkdirSync(join(root, "dist/cli"), { recursive: true });
  writeFileSync(join(root, "dist/cli/main.js"), main("dist"));
  mkdirSync(join(root, "src/cli"), { recursive: true });
  mkdirSync(join(root, "src/methods/swap"), { recursive: true });
  writeFileSync(join(root, "src/cli/main.ts"), main("src"));
  writeFileSync(join(root, "src/methods/swap/core.ts"), "export {};\n");
  // Sources an hour old, the build a minute old.
  const now = Date.now() / 1000;
  for (const p of [
    "src/cli/main.ts",
    "src/methods/swap/core.ts",
    "src/cli",
    "src/methods/swap",
    "src/methods",
  ])
    utimesSync(join(root, p), now - 3600, now - 3600);
  utimesSync(join(root, "dist/cli/main.js"), now - 60, now - 60);
  return root;
}

const ran = (root: string) => {
  const r = spawnSync(process.execPath, [join(root, "bin/querymask.js")], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
};

test("bin runs dist/ while it is newer than every source, the sources once one is newer", () => {
  const root = standIn();
  assert.equal(ran(root), "dist");
  // A file two folders down edited after the build.
  const now = Date.now() / 1000;
  utimesSync(join(root, "src/methods/swap/core.ts"), now, now);
  assert.equal(ran(root), "src");
});

test("bin treats a folder changed after the build (a source added or removed) as stale", () => {
  const root = standIn();
  rmSync(join(root, "src/methods/swap/core.ts"));
  assert.equal(ran(root), "src");
});

test("bin runs dist/ when there are no sources beside it (an installed package)", () => {
  const root = standIn();
  rmSync(join(root, "src"), { recursive: true });
  assert.equal(ran(root), "dist");
});

test("an installed package runs dist/ with no tsx to be found (tsx is a devDependency)", () => {
  const root = standIn();
  rmSync(join(root, "src"), { recursive: true });
  rmSync(join(root, "node_modules"));
  assert.equal(ran(root), "dist");
});
