/** Where benches find the shared AOL subset (`../shared/data`, or `QUERYMASK_SHARED`), and the skip when it is absent. */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The project's root directory. */
export const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));

/** Where the shared AOL subset is expected (`QUERYMASK_SHARED`, else `../shared/data` beside the project). */
export const SHARED_AOL = join(
  process.env.QUERYMASK_SHARED ?? join(ROOT, "..", "shared", "data"),
  "aol-top1000",
  "aol_top1000_users.tsv.gz",
);

/** The shared AOL subset's path when it is there, for benches that fall back to a generated log. */
export function sharedAol(): string | undefined {
  return existsSync(SHARED_AOL) ? SHARED_AOL : undefined;
}

/** The path of the shared AOL subset; prints `<name> skipped: …` and exits 0 when it is not there. */
export function sharedAolOrSkip(name: string): string {
  const path = SHARED_AOL;
  if (!existsSync(path)) {
    console.log(`${name} skipped: needs the shared AOL subset (${path})`);
    process.exit(0);
  }
  return path;
}
