/**
 * Data flows one way between the folders of src/: no folder imports (directly or through others) a folder that
 * imports it back. The graph is read from the sources (static imports, re-exports and dynamic `import()`), one
 * node per top-level folder of src/; a cycle names the files that make each of its edges.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { test } from "node:test";

const SRC = resolve(import.meta.dirname, "../../src");
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["'](\.{1,2}\/[^"']+)["']/g;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

const folderOf = (file: string) => {
  const parts = relative(SRC, file).split(sep);
  return parts.length > 1 ? parts[0]! : ".";
};

/** folder → folder → the "file -> file" lines that make the edge. */
export function folderGraph(): Map<string, Map<string, string[]>> {
  const graph = new Map<string, Map<string, string[]>>();
  for (const file of files(SRC)) {
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(IMPORT)) {
      const target = resolve(dirname(file), m[1]!);
      if (!target.startsWith(SRC + sep)) continue;
      const a = folderOf(file);
      const b = folderOf(target);
      if (a === b) continue;
      const out = graph.get(a) ?? new Map<string, string[]>();
      graph.set(a, out);
      out.set(b, [...(out.get(b) ?? []), `${relative(SRC, file)} -> ${relative(SRC, target)}`]);
    }
  }
  return graph;
}

/** Strongly connected components with more than one folder (Tarjan). */
function cycles(graph: Map<string, Map<string, string[]>>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) out.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return out;
}

test("the import graph sees the folders' real edges (so the cycle check can fail)", () => {
  const graph = folderGraph();
  assert.ok(graph.get("methods")?.has("log"), "methods imports log");
  assert.ok(graph.get("cli")?.has("methods"), "cli imports methods");
});

test("no src/ folder imports a folder that imports it back", () => {
  const graph = folderGraph();
  const found = cycles(graph).map((scc) => {
    const edges = scc.flatMap((a) =>
      scc.flatMap((b) => (graph.get(a)?.get(b) ?? []).map((e) => `  ${a} → ${b}: ${e}`)),
    );
    return `${scc.join(" ⇄ ")}\n${edges.join("\n")}`;
  });
  assert.deepEqual(found, [], `folder cycles:\n${found.join("\n")}`);
});

test("outside src/methods, a method is reached only through its public surface (methods/<name>/index.ts, or its declaration meta.ts)", () => {
  const reaching: string[] = [];
  for (const file of files(SRC)) {
    if (folderOf(file) === "methods") continue;
    for (const m of readFileSync(file, "utf8").matchAll(IMPORT)) {
      const target = relative(SRC, resolve(dirname(file), m[1]!)).split(sep);
      if (
        target[0] === "methods" &&
        target.length > 2 &&
        target.at(-1) !== "index.ts" &&
        target.at(-1) !== "meta.ts"
      ) {
        reaching.push(`${relative(SRC, file)} -> ${target.join("/")}`);
      }
    }
  }
  assert.deepEqual(reaching, []);
});
