#!/usr/bin/env node
// The `querymask` command. It runs the compiled JavaScript in dist/ (`npm run build`) when that is there and no
// source file under src/ is newer than it, and otherwise the TypeScript sources through tsx — so a checkout
// works straight after `npm ci`, a built one starts fast, and a stale build is never run.
import { readdirSync, statSync } from "node:fs";

const root = new URL("../", import.meta.url);

function builtAndFresh() {
  const built = statSync(new URL("dist/cli/main.js", root), { throwIfNoEntry: false });
  if (built === undefined) return false;
  const src = new URL("src/", root);
  let files;
  try {
    files = readdirSync(src, { recursive: true });
  } catch {
    return true; // no sources beside the build (an installed package)
  }
  for (const f of files) {
    if (statSync(new URL(f, src)).mtimeMs > built.mtimeMs) return false;
  }
  return true;
}

let main;
if (builtAndFresh()) {
  ({ main } = await import("../dist/cli/main.js"));
} else {
  const { register } = await import("tsx/esm/api");
  register();
  ({ main } = await import("../src/cli/main.ts"));
}
process.exitCode = await main(process.argv);
