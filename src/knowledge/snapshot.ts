/**
 * The compact knowledge-base snapshot: plain JSON that loads in well under a second, so the
 * classifier never parses WordNet at run time. An installed package ships it built (prebuilt.ts); a checkout
 * builds it on first use into the gitignored `.cache/` directory (a clean clone needs no manual step);
 * `querymask kb build` builds one from other statistics ({@link BUILD_SNAPSHOT}).
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { writeFileAtomicSync } from "../log/atomic.ts";
import { InputError } from "../util/errors.ts";
import { PREBUILT_DIR, prebuilt } from "./prebuilt.ts";

/** One input of the build, reported by `kb info` with its licence. */
export interface SnapshotInput {
  readonly name: string;
  readonly source: string;
  readonly licence: string;
  readonly entries: number;
}

/**
 * The snapshot. Bulky tables are single strings of `key TAB value` lines rather than JSON arrays: parsing one
 * long string and splitting it is several times faster than materialising hundreds of thousands of small
 * arrays, and load time is what the snapshot exists for.
 */
export interface KbSnapshot {
  readonly version: number;
  /**
   * Hash of the build inputs (build code, anchors, bundled tables, package versions; see
   * `buildFingerprint`): a snapshot whose fingerprint differs from the current inputs is stale and rebuilt.
   */
  readonly fingerprint?: string;
  /** The term-specificity file the snapshot was built from (a rebuild reuses it). */
  readonly termstatsFile?: string;
  readonly inputs: readonly SnapshotInput[];
  /** ODP paths referenced by `phrases` (by index). */
  readonly categories: readonly string[];
  /**
   * Lines `stemmed phrase TAB i,j,k` — indices into `categories`, best first; a leading `~` marks a weak
   * phrase (a place or person, see build.ts).
   */
  readonly phrases: string;
  readonly termstats: {
    readonly source: string;
    readonly documents: number;
    /** Lines `stem TAB count`. */
    readonly entries: string;
  };
  /** Spelling vocabulary, lines `word TAB count`. */
  readonly spelling: string;
  /** Lines `misspelling TAB correction`. */
  readonly misspellings: string;
  /**
   * Lines `word TAB mask`: forms of other languages that are no English word; bit i of the mask is the i-th
   * language of `FOREIGN_LEXICONS` (lexicons.ts).
   */
  readonly foreign?: string;
}

/**
 * Call `fn(key, value)` for every `key TAB value` line of a snapshot table, without a generator
 * and a tuple per row (loading iterates hundreds of thousands of rows).
 */
export function eachRow(table: string, fn: (key: string, value: string) => void): void {
  const n = table.length;
  let at = 0;
  while (at < n) {
    let nl = table.indexOf("\n", at);
    if (nl < 0) nl = n;
    const tab = table.indexOf("\t", at);
    fn(table.slice(at, tab), table.slice(tab + 1, nl));
    at = nl + 1;
  }
}

/**
 * Like {@link eachRow} for tables whose values are numbers: `fn(key, Number(value))`, reading plain digit
 * values straight from the table (no string per value); anything else goes through `Number`.
 */
export function eachCountRow(table: string, fn: (key: string, count: number) => void): void {
  const n = table.length;
  let at = 0;
  while (at < n) {
    let nl = table.indexOf("\n", at);
    if (nl < 0) nl = n;
    const tab = table.indexOf("\t", at);
    let v = 0;
    let i = tab + 1;
    // 15 digits or fewer are exact in a double, so the running sum equals Number() of the text.
    const plain = nl > i && nl - i <= 15;
    for (; plain && i < nl; i++) {
      const c = table.charCodeAt(i) - 48;
      if (c < 0 || c > 9) break;
      v = v * 10 + c;
    }
    fn(table.slice(at, tab), plain && i === nl ? v : Number(table.slice(tab + 1, nl)));
    at = nl + 1;
  }
}

/** Serialise rows as a snapshot table. */
export function toTable(rows: Iterable<readonly [string, string | number]>): string {
  const out: string[] = [];
  for (const [k, v] of rows) out.push(`${k}\t${v}`);
  return out.join("\n");
}

/**
 * The snapshot commands load: `QUERYMASK_KB` when that environment variable names a file (e.g. to try build
 * changes without touching the shared snapshot, or to use one built with other statistics); in an installed
 * package the one it ships built (prebuilt.ts); in a checkout {@link BUILD_SNAPSHOT}, built there on first use.
 */
export const DEFAULT_SNAPSHOT =
  process.env.QUERYMASK_KB ??
  (prebuilt() !== undefined ? join(PREBUILT_DIR, "knowledge-base.json") : builtSnapshot());

/**
 * Where `kb build` writes by default: `QUERYMASK_KB` when set; otherwise, in a checkout,
 * `<project>/.cache/kb/knowledge-base.json`, and in an installed package (a path under `node_modules/`, which may
 * be read-only and is replaced by every install) the user's cache: `$XDG_CACHE_HOME/querymask/<version>/
 * knowledge-base.json`, `~/.cache/…` when XDG_CACHE_HOME is unset. The version keeps two installed versions
 * apart.
 */
export const BUILD_SNAPSHOT = process.env.QUERYMASK_KB ?? builtSnapshot();

function builtSnapshot(): string {
  const pkg = fileURLToPath(new URL("../../package.json", import.meta.url));
  const root = dirname(pkg);
  if (!root.split(sep).includes("node_modules")) return join(root, ".cache", "kb", "knowledge-base.json");
  const { version } = JSON.parse(readFileSync(pkg, "utf8")) as { version: string };
  const cache = process.env.XDG_CACHE_HOME || join(homedir(), ".cache");
  return join(cache, "querymask", version, "knowledge-base.json");
}

/**
 * Hash of what the snapshot knows — its categories, phrases, term statistics, spelling and foreign-word tables —
 * leaving out where it was built from (paths, the build fingerprint). Two builds with the same content have the
 * same hash wherever they ran and whatever code comment changed: the learned classifier model binds to this, so
 * it is refused only when the knowledge it was trained on really changed.
 */
export function snapshotContentHash(snapshot: KbSnapshot): string {
  const h = createHash("sha256");
  for (const key of Object.keys(snapshot).sort()) {
    if (key === "fingerprint" || key === "termstatsFile" || key === "inputs") continue;
    let value = (snapshot as unknown as Record<string, unknown>)[key];
    if (key === "termstats" && value !== null && typeof value === "object") {
      const { source: _source, ...rest } = value as Record<string, unknown>;
      value = rest;
    }
    h.update(key);
    h.update("\u0000");
    h.update(typeof value === "string" ? value : JSON.stringify(value));
    h.update("\u0000");
  }
  return h.digest("hex").slice(0, 32);
}

/** Write atomically and durably (src/log/atomic.ts): a crash leaves the previous snapshot or this one. */
export function saveSnapshot(snapshot: KbSnapshot, path = DEFAULT_SNAPSHOT): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileAtomicSync(path, JSON.stringify(snapshot));
}

/**
 * What a person sees while the snapshot is built on first use (the build is synchronous and takes from a few
 * seconds to about a minute, so it says so before starting and how long it took after): the two lines go to
 * `say`, by default stderr like progress (the library API passes its own callback, so it prints nothing). `why` is
 * "missing" (first run) or "stale" (the bundled inputs changed).
 */
export function announceBuild(path: string, why: "missing" | "stale", say: Notice = toStderr): () => void {
  const started = process.hrtime.bigint();
  say(
    `kb: building the knowledge base into ${path} (${why === "missing" ? "first run" : "its inputs changed"}; ` +
      "this happens once, later runs reuse it; up to a minute)…",
  );
  return () => {
    const secs = Number(process.hrtime.bigint() - started) / 1e9;
    say(`kb: knowledge base built in ${secs.toFixed(1)}s; saved for later runs`);
  };
}

/** Where a one-line notice (no trailing newline) goes. */
export type Notice = (line: string) => void;

const toStderr: Notice = (line) => {
  process.stderr.write(`${line}\n`);
};

/**
 * Read a snapshot; undefined when the file does not exist. A file that is not one — torn JSON, another program's
 * JSON — is an {@link InputError}: it is never rebuilt over (it may be someone's data given by mistake).
 */
export function readSnapshot(path = DEFAULT_SNAPSHOT): KbSnapshot | undefined {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    throw new InputError(
      path,
      undefined,
      code === "EISDIR"
        ? "is a directory, expected a knowledge-base snapshot"
        : `cannot read the knowledge-base snapshot (${code})`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new InputError(
      path,
      undefined,
      `not a knowledge-base snapshot (not valid JSON: ${(e as Error).message}); remove it and querymask builds a new one`,
    );
  }
  if (!isSnapshot(value)) {
    throw new InputError(
      path,
      undefined,
      "a JSON file that is not a knowledge-base snapshot; it is left as it is: give the snapshot another path",
    );
  }
  return value;
}

/** The fields every snapshot layout has had (a stale one is still a snapshot, rebuilt in place). */
function isSnapshot(v: unknown): v is KbSnapshot {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return false;
  const o = v as Record<string, unknown>;
  return (
    typeof o.version === "number" &&
    Array.isArray(o.categories) &&
    typeof o.phrases === "string" &&
    o.termstats !== null &&
    typeof o.termstats === "object"
  );
}
