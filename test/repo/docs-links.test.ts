/**
 * Every relative link of the README, CHANGELOG.md, BENCHMARKS.md and docs/ names a file that exists (pages move:
 * docs/<method>.md became docs/methods/<method>.md, and a link left behind is a dead end for a reader).
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { test } from "node:test";

const ROOT = resolve(import.meta.dirname, "../..");

function markdown(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? markdown(join(dir, e.name)) : e.name.endsWith(".md") ? [join(dir, e.name)] : [],
  );
}

test("every relative link in the docs names a file that exists", () => {
  const pages = [
    ...["README.md", "CHANGELOG.md", "BENCHMARKS.md"].map((f) => join(ROOT, f)),
    ...markdown(join(ROOT, "docs")),
  ];
  const dead: string[] = [];
  let links = 0;
  for (const page of pages) {
    for (const m of readFileSync(page, "utf8").matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
      const target = m[1]!;
      if (/^[a-z]+:/.test(target)) continue;
      links++;
      if (!existsSync(resolve(dirname(page), target))) dead.push(`${relative(ROOT, page)} → ${target}`);
    }
  }
  assert.ok(links > 50, `${links} links checked`);
  assert.deepEqual(dead, []);
});
