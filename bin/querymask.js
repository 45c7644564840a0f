#!/usr/bin/env node
// The `querymask` command. An installed package runs its compiled JavaScript (dist/). A checkout runs dist/
// (`npm run build`) when that is there and no source file under src/ is newer than it, and otherwise the
// TypeScript sources through tsx (a devDependency) — so a checkout works straight after `npm ci`, a built one
// starts fast, and a stale build is never run.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));

/**
 * Whether an entry under `dir` (a file, or a folder: a file added or removed) was modified after `time`. One
 * directory at a time, with file types: `readdirSync(…, { recursive: true })` cost ~40 CPU-ms at every start,
 * this ~8.
 */
function newerUnder(dir, time) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (statSync(path).mtimeMs > time) return true;
    if (entry.isDirectory() && newerUnder(path, time)) return true;
  }
  return false;
}

/** The sources are there (a checkout); an installed package has only the build, and no tsx. */
const checkout = statSync(`${root}src/cli/main.ts`, { throwIfNoEntry: false }) !== undefined;

function builtAndFresh() {
  if (!checkout) return true;
  const built = statSync(`${root}dist/cli/main.js`, { throwIfNoEntry: false });
  return built !== undefined && !newerUnder(`${root}src`, built.mtimeMs);
}

/** The top-level help the build rendered, when the build is fresh and has it (one made before it has none). */
function prerenderedHelp() {
  if (!builtAndFresh()) return undefined;
  try {
    return readFileSync(new URL("../dist/cli/help.txt", import.meta.url), "utf8");
  } catch (e) {
    if (e.code === "ENOENT") return undefined;
    throw e;
  }
}

const args = process.argv.slice(2);
const help = args.length === 1 && (args[0] === "--help" || args[0] === "-h") ? prerenderedHelp() : undefined;
if (args.length === 1 && (args[0] === "--version" || args[0] === "-V")) {
  // Answered here: loading the CLI (commander, the command table) would double the start-up of the answer.
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  process.stdout.write(`${pkg.version}\n`);
} else if (help !== undefined) {
  // The build rendered it (scripts/build.mjs, from the CLI's own program): printed without loading commander.
  process.stdout.write(help);
} else {
  let cli;
  if (builtAndFresh()) {
    ({ cli } = await import("../dist/cli/main.js"));
  } else {
    const { register } = await import("tsx/esm/api");
    register();
    ({ cli } = await import("../src/cli/main.ts"));
  }
  process.exitCode = await cli(process.argv);
  // A failed run ends now, even if something it opened (a connection, a server) would keep the process alive.
  if (process.exitCode !== 0) setTimeout(() => process.exit(), 1000).unref();
}
