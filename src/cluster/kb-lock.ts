/**
 * One knowledge-base load at a time on a machine. Classify workers started together (`cluster run --classifiers
 * 4`, a supervisor restarting several) each built the missing knowledge base at once: the same minute of CPU
 * several times over on the same cores, and each wrote the same file. The snapshot write itself is atomic (temp
 * file + rename, src/knowledge/snapshot.ts); this lock makes the *build* happen once: the first worker builds and
 * loads under the lock, the others wait for it and then load what it saved.
 *
 * The lock is a file created with O_EXCL next to the snapshot, holding the holder's pid; a lock whose holder is
 * no longer alive (a worker killed mid-build) is taken over. Hand-written (30 lines) rather than a dependency:
 * the workers need only this, on one machine.
 *
 * A snapshot that exists but is stale (its inputs changed: `isStale`) needs a build as much as a missing one:
 * the lock used to be skipped whenever the file existed, so two workers started on a stale snapshot rebuilt it
 * side by side (19.1 and 19.9 s, measured). Only a fresh snapshot is loaded without the lock.
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { isStale } from "../knowledge/knowledge-base.ts";
import { DEFAULT_SNAPSHOT, readSnapshot } from "../knowledge/snapshot.ts";

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

function mtimeMs(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return Date.now();
  }
}

function tryLock(path: string): boolean {
  try {
    const fd = openSync(path, "wx");
    writeSync(fd, String(process.pid));
    closeSync(fd);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    let holder = Number.NaN;
    try {
      holder = Number(readFileSync(path, "utf8"));
    } catch {
      return false; // released meanwhile: try again on the next round
    }
    // An empty file is a holder between its create and its write, or one killed right there (then old).
    const dead =
      Number.isInteger(holder) && holder > 0 ? !alive(holder) : Date.now() - mtimeMs(path) > 10_000;
    if (dead) rmSync(path, { force: true });
    return false;
  }
}

/** The snapshot at `path` exists and its inputs have not changed since it was built (unreadable = not fresh). */
export function isFresh(path: string): boolean {
  try {
    const snap = readSnapshot(path);
    return snap !== undefined && !isStale(snap);
  } catch {
    return false;
  }
}

/**
 * Run `load` holding the machine-wide lock of the knowledge base at `snapshot` (waiting for it, polling) when the
 * snapshot must be built (missing or stale, by `fresh`); a fresh one is loaded side by side. The first worker
 * through the lock builds; the next ones find the snapshot fresh when they load.
 */
export async function withBuildLock<T>(
  load: () => Promise<T>,
  snapshot = DEFAULT_SNAPSHOT,
  pollMs = 100,
  fresh: (path: string) => boolean = isFresh,
): Promise<T> {
  if (fresh(snapshot)) return load();
  const path = `${snapshot}.lock`;
  mkdirSync(dirname(path), { recursive: true });
  while (!tryLock(path)) await new Promise((r) => setTimeout(r, pollMs));
  try {
    return await load();
  } finally {
    rmSync(path, { force: true });
  }
}
