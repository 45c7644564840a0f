/**
 * One durable writer: every file a command or the service writes goes through src/log/atomic.ts (temporary file,
 * fsync, rename, directory fsync). A bare `writeFileSync`, `writeFile`, `renameSync`, `rename`, `createWriteStream`
 * or `open(…, "w")` elsewhere in src/ is a file that a crash can leave torn. Listed exceptions: scratch files inside
 * a temporary directory the run removes (a sort's runs, `cluster run`'s config for its workers), and the service's
 * append-only files, synced batch by batch (an atomic rewrite does not apply to a stream that grows).
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { test } from "node:test";

const ROOT = resolve(import.meta.dirname, "../..");

/** A call that writes a file without the atomic writer. */
export const BARE_WRITE =
  /\b(?:writeFileSync|appendFileSync|renameSync|createWriteStream)\s*\(|\b(?:writeFile|appendFile|rename)\s*\(|\bopen(?:Sync)?\([^)]*,\s*["'][wa]\+?["']/;

/** The writer itself, and scratch files in a removed temporary directory. */
const ALLOWED: Readonly<Record<string, string>> = {
  "src/log/atomic.ts": "the durable writer",
  "src/stream/row-sort.ts": "sorted runs in a temporary directory",
  "src/stream/time-order.ts": "sorted runs in a temporary directory",
  "src/log/line-file.ts": "the sort by user's runs and sorted copy in a removed temporary directory",
  "src/cluster/batch-run.ts": "the workers' config in the run's temporary directory",
  // Appended, never rewritten: each batch is synced before it is acknowledged, a torn last line is cut on resume.
  "src/service/journal.ts": "the service's journal",
  "src/service/runtime.ts": "the service's released stream",
};

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

test("nothing in src/ writes a file but through the durable writer (or a listed scratch file)", () => {
  const found: string[] = [];
  for (const f of files(join(ROOT, "src"))) {
    const name = relative(ROOT, f);
    if (name in ALLOWED) continue;
    readFileSync(f, "utf8")
      .split("\n")
      .forEach((line, i) => {
        const code = line.replace(/\/\/.*$/, "").trim();
        if (code.startsWith("*") || code.startsWith("/*")) return;
        if (BARE_WRITE.test(code)) found.push(`${name}:${i + 1}: ${code.slice(0, 120)}`);
      });
  }
  assert.deepEqual(found, []);
});

test("each listed file still writes bare (a stale entry would hide a new write)", () => {
  for (const name of Object.keys(ALLOWED))
    assert.ok(BARE_WRITE.test(readFileSync(join(ROOT, name), "utf8")), `${name} no longer writes bare`);
});

test("the pattern finds the writes it must, and leaves reads alone (so the check can fail)", () => {
  for (const s of [
    'writeFileSync(tmp, "x")',
    "renameSync(tmp, path)",
    "await writeFile(path, text)",
    'const file = await open(path, "w")',
    "createWriteStream(out)",
    "await rename(a, b)",
  ])
    assert.ok(BARE_WRITE.test(s), s);
  for (const s of [
    "readFileSync(path)",
    'await open(path, "r")',
    "writeFileAtomic(path, text)",
    "out.write(chunk)",
  ])
    assert.ok(!BARE_WRITE.test(s), s);
});
