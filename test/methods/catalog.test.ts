/**
 * The method catalog (src/methods/catalog.ts): each entry's metadata is its implementation's, the loaded registry
 * holds the same methods in the same order, and `anonymize` reaches no method's implementation through its
 * static imports (it loads the one it runs).
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { test } from "node:test";
import { catalog, loadMethod } from "../../src/methods/catalog.ts";
import { DEFAULT_ALPHA, DEFAULT_SELECTION, KOROLOVA_D } from "../../src/methods/dp/index.ts";
import { KOROLOVA_DEFAULT_D, STRATEGY_DEFAULT_D } from "../../src/methods/dp/meta.ts";
import { selections } from "../../src/methods/dp/selection/index.ts";
import { methods } from "../../src/methods/registry.ts";

const SRC = resolve(import.meta.dirname, "../../src");

test("each catalog entry loads the method it describes; the registry holds them all, in catalog order", async () => {
  assert.equal(new Set(catalog.map((e) => e.name)).size, catalog.length, "a name listed twice");
  assert.deepEqual(
    methods.map((m) => m.name),
    catalog.map((e) => e.name),
  );
  for (const entry of catalog) {
    const m = await entry.load();
    assert.equal(
      m,
      methods.find((x) => x.name === entry.name),
    );
    for (const key of ["name", "summary", "paper", "params"] as const) {
      assert.deepEqual(m[key], entry[key], `${entry.name}.${key}`);
    }
  }
  await assert.rejects(loadMethod("nope"), /unknown method "nope"; known methods: swap, /);
});

test("dp's metadata restates its strategies and defaults as the implementation has them", () => {
  assert.deepEqual(
    STRATEGY_DEFAULT_D,
    selections.map((s) => [s.name, s.defaultD]),
  );
  assert.equal(KOROLOVA_DEFAULT_D, KOROLOVA_D);
  const dp = catalog.find((e) => e.name === "dp")!;
  assert.equal(dp.params.find((p) => p.name === "selection")?.default, DEFAULT_SELECTION);
  assert.equal(dp.params.find((p) => p.name === "alpha")?.default, DEFAULT_ALPHA);
});

/** Every file of src/ that `file` reaches through static imports (dynamic `import()` excluded). */
function staticClosure(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = readFileSync(file, "utf8");
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?\bfrom\s*["'](\.{1,2}\/[^"']+)["']/g)) {
    if (/^\s*(?:import|export)\s+type\s/.test(m[0].trimStart())) continue;
    staticClosure(resolve(dirname(file), m[1]!), seen);
  }
  return seen;
}

test("`anonymize` statically imports no method implementation, only the catalog's metadata", () => {
  const reached = [...staticClosure(resolve(SRC, "cli/commands/anonymize.ts"))].map((f) => relative(SRC, f));
  assert.ok(reached.includes("methods/catalog.ts") && reached.includes("methods/swap/meta.ts"), "walk works");
  assert.ok(reached.includes("log/read.ts"), "walk follows imports");
  const implementations = reached.filter((f) => /^methods\/[^/]+\/(?!meta\.ts$)/.test(f));
  assert.deepEqual(implementations, ["methods/km/targets.ts"]);
});
