/**
 * The result cache: one JSON file per combination under `<out>/.cache/`, named by a SHA-256 of everything the
 * result depends on — the input log's bytes, the method, its parameters, the seed, the yardstick settings and
 * the code version (a hash of the source tree). A rerun only computes what changed.
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { writeFileAtomic } from "../log/atomic.ts";
import type { ResultRow } from "../report/results.ts";
import type { Combination } from "./config.ts";
import type { WorkerTask } from "./worker.ts";

/** SHA-256 (hex) of a canonical JSON rendering (object keys sorted) of `value`. */
export function contentHash(value: unknown): string {
  return createHash("sha256").update(canonical(value)).digest("hex");
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (v !== null && typeof v === "object") {
    const entries = Object.entries(v as Record<string, unknown>)
      .filter(([, x]) => x !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonical(x)}`).join(",")}}`;
  }
  return JSON.stringify(v) ?? "null";
}

/** SHA-256 of the bytes of the given files, in order (streamed: fine for large logs). */
export async function hashFiles(files: readonly string[]): Promise<string> {
  const h = createHash("sha256");
  for (const f of files) {
    h.update(`${f.length}:`);
    for await (const chunk of createReadStream(f)) h.update(chunk as Buffer);
  }
  return h.digest("hex");
}

const SRC_DIR = fileURLToPath(new URL("../", import.meta.url));

/** Folders of src/ that only present results (they cannot change a measured value). */
const PRESENTATION = new Set(["cli", "report"]);

let memo: Promise<string> | undefined;

/** A hash of every .ts file under src/ (paths and contents) except presentation code: changes whenever the
 *  code that computes results does. Computed once per process: the code that was loaded is the code that runs. */
export function codeVersion(): Promise<string> {
  memo ??= hashSources(SRC_DIR);
  return memo;
}

async function hashSources(root: string): Promise<string> {
  const files: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const e of await readdir(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) {
        if (!(dir === root && PRESENTATION.has(e.name))) await walk(p);
      } else if (e.name.endsWith(".ts")) files.push(p);
    }
  };
  await walk(root);
  files.sort();
  const h = createHash("sha256");
  for (const f of files) h.update(`${relative(root, f)}\n`).update(await readFile(f));
  return h.digest("hex").slice(0, 16);
}

/** A directory of cached values keyed by hash. */
export class ResultCache {
  constructor(readonly dir: string) {}

  private file(key: string): string {
    return join(this.dir, `${key}.json`);
  }

  async get<T>(key: string): Promise<T | undefined> {
    try {
      return JSON.parse(await readFile(this.file(key), "utf8")) as T;
    } catch {
      return undefined;
    }
  }

  /** Write atomically (log/atomic.ts), so an interrupted run never leaves a half entry. */
  async set(key: string, value: unknown): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    await writeFileAtomic(this.file(key), JSON.stringify(value));
  }
}

/** What a cached result depends on besides its combination: the log, its classification, what is measured, the code. */
export interface ResultIdentity {
  readonly log: string;
  readonly classified: boolean;
  readonly yardsticks: readonly string[];
  readonly options: unknown;
  readonly code: string;
  /** The allow list's content hash, when the config has one (its input is scrubbed otherwise). */
  readonly allow?: string;
}

/** The cache key of one combination's result. */
export function resultKey(id: ResultIdentity, combo: Combination): string {
  return contentHash({
    log: id.log,
    classified: id.classified,
    method: combo.method,
    params: combo.params,
    seed: combo.seed,
    yardsticks: id.yardsticks,
    options: id.options,
    code: id.code,
    ...(id.allow !== undefined ? { allow: id.allow } : {}),
  });
}

/** The combinations' results the cache holds, by key, and the tasks left to compute (each key once). */
export async function lookUp(
  combinations: readonly Combination[],
  cache: ResultCache,
  id: ResultIdentity,
): Promise<{ rows: Map<string, ResultRow>; tasks: WorkerTask[] }> {
  const rows = new Map<string, ResultRow>();
  const tasks: WorkerTask[] = [];
  const queued = new Set<string>();
  for (const combo of combinations) {
    const key = resultKey(id, combo);
    if (rows.has(key) || queued.has(key)) continue;
    const hit = await cache.get<ResultRow>(key);
    if (hit) rows.set(key, hit);
    else {
      tasks.push({ combo, key });
      queued.add(key);
    }
  }
  return { rows, tasks };
}
