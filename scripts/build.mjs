#!/usr/bin/env node
// `npm run build`: compile src/ to dist/ (dist/<folder>/<file>.js, so paths a module takes relative to itself,
// such as ../../data/, mean the same from src/ and dist/), then copy the files modules read beside themselves
// (src/**/*.json). bin/querymask.js runs dist/ when it is newer than every file in src/.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

rmSync("dist", { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const r = spawnSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { stdio: "inherit" });
if (r.status !== 0) process.exit(r.status ?? 1);
for (const f of readdirSync("src", { recursive: true })) {
  if (!f.endsWith(".json")) continue;
  mkdirSync(dirname(join("dist", f)), { recursive: true });
  copyFileSync(join("src", f), join("dist", f));
}
