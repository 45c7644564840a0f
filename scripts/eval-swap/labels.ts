/** Categories for the AOL subset's distinct queries: the project classifier, once, cached by its inputs. */
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { Taxonomy } from "../../src/knowledge/taxonomy.ts";
import type { LogRecord } from "../../src/log/record.ts";
import { searchCumulative } from "../../src/util/random.ts";
import { AOL, CACHE, log, measure, ROOT, STANDIN } from "./options.ts";

// Classification, once, cached by input and classifier version.

export function hashFiles(h: ReturnType<typeof createHash>, path: string): void {
  if (!existsSync(path)) return;
  if (statSync(path).isDirectory()) {
    for (const f of readdirSync(path).sort()) hashFiles(h, join(path, f));
    return;
  }
  h.update(path.slice(ROOT.length));
  h.update(readFileSync(path));
}

/** Hash of the input log and of everything the classifier's output depends on. */
export function classifierKey(): string {
  const h = createHash("sha256");
  hashFiles(h, AOL);
  for (const p of ["src/classify", "src/knowledge", "src/scrub", "src/text", "data", "package-lock.json"]) {
    hashFiles(h, join(ROOT, p));
  }
  return h.digest("hex").slice(0, 16);
}

export type Label = [category: string, scrubbed: string];

/** Stand-in categories: query → an ODP node drawn by prior from a hash of the text (deterministic). */
export function standIn(): (q: string) => Label {
  const t = Taxonomy.bundled();
  const ids = t.ids().filter((id) => t.depth(id) >= 1);
  const cum: number[] = [];
  let s = 0;
  for (const id of ids) {
    s += t.prior(id) + 1;
    cum.push(s);
  }
  return (q) => {
    let h = 2166136261;
    for (let i = 0; i < q.length; i++) h = Math.imul(h ^ q.charCodeAt(i), 16777619);
    const x = ((h >>> 0) / 2 ** 32) * s;
    return [t.path(ids[searchCumulative(cum, x)]!), q];
  };
}

/** Query → [category, scrubbed text] for every distinct query, from the cache or by classifying. */
export async function labels(
  records: readonly LogRecord[],
): Promise<{ map: Map<string, Label>; how: string }> {
  if (STANDIN) {
    const f = standIn();
    const map = new Map<string, Label>();
    for (const r of records) if (!map.has(r.query)) map.set(r.query, f(r.query));
    return { map, how: "STAND-IN (hash of the query into the ODP skeleton by prior), NOT the classifier" };
  }
  let key = classifierKey();
  if (process.argv.includes("--pin") && existsSync(CACHE)) {
    // Reuse the newest cached classification even if the classifier changed since: all parts of one
    // evaluation then see the same categories while the classifier is being worked on.
    const newest = readdirSync(CACHE)
      .filter((f) => /^classified-[0-9a-f]{16}\.json\.gz$/.test(f))
      .map((f) => ({ f, t: statSync(join(CACHE, f)).mtimeMs }))
      .sort((a, b) => b.t - a.t)[0];
    if (newest) key = newest.f.slice(11, 27);
  }
  const file = join(CACHE, `classified-${key}.json.gz`);
  const how = `project classifier (src/classify, Pàmies-Estrems et al. 2016 Algorithm 1), cache key ${key}`;
  if (existsSync(file)) {
    const rows = JSON.parse(gunzipSync(readFileSync(file)).toString("utf8")) as [string, string, string][];
    log(`eval-swap: classified queries from ${file.slice(ROOT.length)}`);
    return { map: new Map(rows.map(([q, c, s]) => [q, [c, s]])), how };
  }
  const mod = (await import("../../src/classify/classifier.ts")) as {
    Classifier: {
      create(o?: {
        cacheSize?: number;
      }): Promise<{ classify(q: string): { category: string; scrubbed: string } }>;
    };
  };
  const m = await measure(async () => {
    const c = await mod.Classifier.create({ cacheSize: 0 });
    const map = new Map<string, Label>();
    for (const r of records) {
      if (map.has(r.query)) continue;
      const x = c.classify(r.query);
      map.set(r.query, [x.category, x.scrubbed]);
    }
    return map;
  });
  log(`eval-swap: classified ${m.value.size} distinct queries in ${m.cpu.toFixed(1)} CPU-s`);
  mkdirSync(CACHE, { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, gzipSync(JSON.stringify([...m.value].map(([q, [c, s]]) => [q, c, s]))));
  renameSync(tmp, file);
  // Keep the three newest classifications (older classifier versions are of no further use).
  const old = readdirSync(CACHE)
    .filter((f) => /^classified-[0-9a-f]{16}\.json\.gz$/.test(f))
    .map((f) => ({ f, t: statSync(join(CACHE, f)).mtimeMs }))
    .sort((a, b) => b.t - a.t)
    .slice(3);
  for (const { f } of old) rmSync(join(CACHE, f));
  return { map: m.value, how };
}
