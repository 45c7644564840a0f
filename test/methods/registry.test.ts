/**
 * The method registry (src/methods/registry.ts): each entry's declaration is its implementation's, every
 * implementation loads, each parameter schema gives the parser's defaults, the help's specs and a JSON Schema,
 * the declarations are coherent (a DP method prepares per record and discloses as DP), and `anonymize` reaches
 * no method's implementation through its static imports (it loads the one it runs).
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { test } from "node:test";
import { DEFAULT_ALPHA, DEFAULT_SELECTION, KOROLOVA_D } from "../../src/methods/dp/index.ts";
import { KOROLOVA_DEFAULT_D, STRATEGY_DEFAULT_ALPHA, STRATEGY_DEFAULT_D } from "../../src/methods/dp/meta.ts";
import { selections } from "../../src/methods/dp/selection/index.ts";
import { loadMethod, loadMethods, methods } from "../../src/methods/registry.ts";
import { ParamError } from "../../src/util/params.ts";

const SRC = resolve(import.meta.dirname, "../../src");

test("each registry entry loads the method it declares, in registry order", async () => {
  assert.equal(new Set(methods.map((e) => e.name)).size, methods.length, "a name listed twice");
  const loaded = await loadMethods();
  assert.deepEqual(
    loaded.map((m) => m.name),
    methods.map((e) => e.name),
  );
  for (const entry of methods) {
    const m = await entry.load();
    for (const key of [
      "name",
      "summary",
      "paper",
      "kind",
      "input",
      "disclosure",
      "releases",
      "model",
    ] as const) {
      assert.deepEqual(m[key], entry[key], `${entry.name}.${key}`);
    }
    assert.equal(m.params, entry.params, `${entry.name}: the implementation's schema is the declaration's`);
    assert.equal(
      m.sharded !== undefined,
      entry.shards === true,
      `${entry.name}: runs over shards as it declares`,
    );
    assert.equal(m.createStage !== undefined, entry.input.timeOrder, `${entry.name}: streams as it declares`);
    assert.equal(
      m.anonymizeByUser !== undefined,
      entry.input.userGrouping,
      `${entry.name}: reads by user as it declares`,
    );
  }
  await assert.rejects(loadMethod("nope"), /unknown method "nope"; known methods: swap, /);
});

test("each schema's stated defaults are what it parses to; each gives a JSON Schema; it refuses names it lacks", async () => {
  for (const m of methods) {
    const parsed = m.params.parse({}) as Record<string, unknown>;
    for (const spec of m.params.specs) {
      if (spec.default !== undefined)
        assert.deepEqual(parsed[spec.name], spec.default, `${m.name}.${spec.name}`);
    }
    assert.deepEqual(m.params.parse(parsed), parsed, `${m.name}: parse(parse({}))`);
    const schema = await m.params.jsonSchema();
    assert.equal(schema.type, "object", m.name);
    assert.deepEqual(
      Object.keys(schema.properties as object),
      m.params.specs.map((s) => s.name),
      m.name,
    );
    assert.throws(
      () => m.params.parse({ nope: 1 }),
      (e: unknown) => e instanceof ParamError && e.param === "nope",
    );
  }
});

test("one boolean rule for every method's boolean parameters", () => {
  for (const m of methods) {
    for (const spec of m.params.specs.filter((s) => s.type === "boolean")) {
      const read = (v: unknown) => (m.params.parse({ [spec.name]: v }) as Record<string, unknown>)[spec.name];
      for (const yes of [true, "true", "TRUE", "yes", "on", "1", 1])
        assert.equal(read(yes), true, `${m.name} ${yes}`);
      for (const no of [false, "false", "No", "off", "0", 0])
        assert.equal(read(no), false, `${m.name} ${no}`);
      assert.throws(() => read("maybe"), /must be true or false, got "maybe"/);
    }
  }
});

test("declarations are coherent: a DP disclosure goes with per-record preparation and the DP model", () => {
  for (const m of methods) {
    if (m.disclosure === "dp") {
      assert.equal(m.input.crossUser, false, `${m.name}: a DP method prepares each record on its own`);
      assert.equal(m.model, "differential-privacy", m.name);
    }
    // classifying reads other users' records (single-user clicks, each name's users): src/pipeline/prepare.ts
    if (m.input.text === "classified")
      assert.equal(m.input.crossUser, true, `${m.name}: classified needs cross-user`);
  }
  assert.deepEqual(
    methods.filter((m) => m.kind === "simulation").map((m) => m.name),
    ["clientside"],
  );
});

test("dp's declaration restates its strategies and defaults as the implementation has them", () => {
  assert.deepEqual(
    STRATEGY_DEFAULT_D,
    selections.map((s) => [s.name, s.defaultD]),
  );
  assert.equal(KOROLOVA_DEFAULT_D, KOROLOVA_D);
  const dp = methods.find((e) => e.name === "dp")!;
  assert.equal(dp.params.specs.find((p) => p.name === "selection")?.default, DEFAULT_SELECTION);
  // α's default depends on the strategy, so the schema states none and the parse fills it in.
  assert.equal(dp.params.specs.find((p) => p.name === "alpha")?.default, undefined);
  for (const s of selections) {
    assert.equal(STRATEGY_DEFAULT_ALPHA[s.name] ?? DEFAULT_ALPHA, s.defaultAlpha ?? DEFAULT_ALPHA, s.name);
  }
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

test("`anonymize` statically imports no method implementation, only the registry's declarations", () => {
  const reached = [...staticClosure(resolve(SRC, "cli/commands/anonymize.ts"))].map((f) => relative(SRC, f));
  assert.ok(
    reached.includes("methods/registry.ts") && reached.includes("methods/swap/meta.ts"),
    "walk works",
  );
  assert.ok(reached.includes("log/read.ts"), "walk follows imports");
  const implementations = reached.filter((f) => /^methods\/[^/]+\/(?!meta\.ts$)/.test(f));
  assert.deepEqual(implementations, ["methods/km/targets.ts"]);
});
