/**
 * No history in the product: the sources, the docs and what a user reads (the README, BENCHMARKS.md,
 * CHANGELOG.md, `--help` via docs/cli.md, the report's strings in src/) name no "session 12" or "issue 17". A
 * comment says why the code is so; which session measured it, or which issue asked for it, is in git.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { test } from "node:test";

const ROOT = resolve(import.meta.dirname, "../..");

/** "session 12", "Sessions 8–15", "issue 7", "issue #22"; not a search "session" without a number. */
export const HISTORY = /\b(?:session|issue)s? #?\d+/i;

function files(dir: string, ext: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name), ext) : e.name.endsWith(ext) ? [join(dir, e.name)] : [],
  );
}

test("src/, the docs, the README, BENCHMARKS.md and CHANGELOG.md name no session or issue", () => {
  const checked = [
    ...files(join(ROOT, "src"), ".ts"),
    ...files(join(ROOT, "docs"), ".md"),
    ...["README.md", "BENCHMARKS.md", "CHANGELOG.md"].map((f) => join(ROOT, f)),
  ];
  const found: string[] = [];
  for (const f of checked)
    readFileSync(f, "utf8")
      .split("\n")
      .forEach((line, i) => {
        if (HISTORY.test(line)) found.push(`${relative(ROOT, f)}:${i + 1}: ${line.trim().slice(0, 120)}`);
      });
  assert.ok(checked.length > 300, `${checked.length} files checked`);
  assert.deepEqual(found, []);
});

test("the pattern finds what it must, and leaves search sessions alone (so the check can fail)", () => {
  for (const s of ["measured in session 22", "Sessions 8–15", "issue 7", "(issue #22)", 'source: "issue 7"'])
    assert.match(s, HISTORY, s);
  for (const s of ["a search session of one user", "sessions with reformulations", "issued 3 queries"])
    assert.doesNotMatch(s, HISTORY, s);
});
