#!/usr/bin/env node
// `npm run build` (and `npm pack`'s prepack): compile src/ to dist/ — JavaScript and its `.d.ts` declarations —
// as dist/<folder>/<file>.js, so paths a module takes relative to itself, such as ../../data/, mean the same
// from src/ and dist/; then copy the files modules read beside themselves (src/**/*.json). The declarations keep
// the sources' `.ts` import specifiers, which a project compiling against the package cannot resolve without
// `allowImportingTsExtensions`: they are rewritten to `.js`, as tsc already does in the JavaScript.
// Then scripts/prebuild-kb.mjs writes the knowledge the package ships built (dist/kb/). bin/querymask.js runs
// dist/ when it is newer than every file in src/. Last, the top-level help is rendered once into
// dist/cli/help.txt, which bin prints for `querymask --help` without loading the CLI.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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
// `from "./x.ts"`, `import("../y.ts")`: relative specifiers only (a package name never ends in .ts here).
const TS_SPECIFIER = /((?:from\s+|import\()\s*["'])(\.{1,2}\/[^"']*?)\.ts(["'])/g;
for (const f of readdirSync("dist", { recursive: true })) {
  if (!f.endsWith(".d.ts")) continue;
  const path = join("dist", f);
  const text = readFileSync(path, "utf8");
  const fixed = text.replace(TS_SPECIFIER, "$1$2.js$3");
  if (fixed !== text) writeFileSync(path, fixed);
}
// The knowledge an installed package ships built (dist/kb/), by the compiled code.
const kb = spawnSync(process.execPath, ["scripts/prebuild-kb.mjs"], { stdio: "inherit" });
if (kb.status !== 0) process.exit(kb.status ?? 1);
// The help file is written last, so it is never older than the build it describes.
const { topHelp } = await import(new URL("../dist/cli/main.js", import.meta.url).href);
writeFileSync("dist/cli/help.txt", await topHelp());
