/**
 * The knowledge an installed package ships built: the knowledge-base snapshot, the classifier's word vectors and
 * the scrubber's word tables, written into `dist/kb/` by `npm run build` (scripts/build.mjs) with a manifest of
 * their content hashes and of the versions of the packages they were built from. An installed querymask loads
 * them as they are — no build step, and none of the bulky source packages (WordNet, the word vectors, the name
 * lists; devDependencies) installed. A checkout builds its own into `.cache/kb/` from those packages instead, and
 * rebuilds when the build code or its inputs change (fingerprint.ts).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** `dist/kb/` beside the compiled modules (from `src/knowledge/` this names `src/kb/`, which never exists). */
export const PREBUILT_DIR = fileURLToPath(new URL("../kb/", import.meta.url));
export const PREBUILT_MANIFEST = join(PREBUILT_DIR, "manifest.json");

/** What `dist/kb/manifest.json` records. */
export interface PrebuiltManifest {
  /** The snapshot layout version it was built with (fingerprint.ts's `SNAPSHOT_VERSION`). */
  readonly snapshotVersion: number;
  /** The build fingerprint of the snapshot (fingerprint.ts) when it was packaged. */
  readonly fingerprint: string;
  /** The snapshot's content hash (`snapshotContentHash`): what the bundled classifier model is bound to. */
  readonly contentHash: string;
  /** Every file of the folder but the manifest, with its SHA-256 (hex). */
  readonly files: Readonly<Record<string, string>>;
  /** The packages the tables were derived from, as they were installed at build time. */
  readonly packages: Readonly<Record<string, { readonly version: string; readonly license: string }>>;
}

let manifest: PrebuiltManifest | null | undefined;

/**
 * The manifest when this is an installed package — the prebuilt folder is there and no TypeScript sources are
 * beside the compiled code (a checkout, even one running its build, keeps building its own from the sources);
 * undefined otherwise.
 */
export function prebuilt(): PrebuiltManifest | undefined {
  if (manifest === undefined) {
    const sources = fileURLToPath(new URL("../../src/knowledge/", import.meta.url));
    manifest =
      existsSync(PREBUILT_MANIFEST) && !existsSync(sources)
        ? (JSON.parse(readFileSync(PREBUILT_MANIFEST, "utf8")) as PrebuiltManifest)
        : null;
  }
  return manifest ?? undefined;
}

/**
 * The version and licence of a package the prebuilt tables were derived from, as recorded when they were built:
 * in an installed package these packages are not installed (or another version of one may be, for another
 * purpose), and the tables' keys must read the versions they were built from. Undefined in a checkout.
 */
export function prebuiltPackage(name: string): { version: string; license: string } | undefined {
  return prebuilt()?.packages[name];
}
