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

/** The pid in a lock file, NaN when it has none (yet); undefined when the file is gone. */
function holderOf(path: string): number | undefined {
  try {
    return Number(readFileSync(path, "utf8"));
  } catch {
    return undefined;
  }
}

/** Whether the lock file at `path`, holding `holder`, was left by a process that is gone. */
function abandoned(path: string, holder: number): boolean {
  // An empty file is a holder between its create and its write, or one killed right there (then old).
  return Number.isInteger(holder) && holder > 0 ? !alive(holder) : Date.now() - mtimeMs(path) > 10_000;
}

/**
 * Take the lock at `path` if it is free; remove it when its holder is gone (the next round may take it).
 * Removing an abandoned lock is itself done under a second lock (`.takeover`), re-reading the holder there: two
 * processes that both saw the dead holder used to remove in turn the dead one's lock and then the lock the first
 * of them had meanwhile taken, so two loads ran at once. `beforeTakeover` is for tests (another process's turn).
 */
export function tryLock(path: string, beforeTakeover?: () => void): boolean {
  try {
    const fd = openSync(path, "wx");
    writeSync(fd, String(process.pid));
    closeSync(fd);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    const holder = holderOf(path);
    if (holder === undefined || !abandoned(path, holder)) return false; // released meanwhile, or held
    beforeTakeover?.();
    const takeover = `${path}.takeover`;
    try {
      const fd = openSync(takeover, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      // Another process is taking over; one killed while at it leaves its file, removed once old.
      const other = holderOf(takeover);
      if (other !== undefined && abandoned(takeover, other) && Date.now() - mtimeMs(takeover) > 10_000)
        rmSync(takeover, { force: true });
      return false;
    }
    try {
      // Only the holder removes a live lock; under the takeover lock the file is the dead one's or a new holder's.
      const now = holderOf(path);
      if (now !== undefined && abandoned(path, now)) rmSync(path, { force: true });
    } finally {
      rmSync(takeover, { force: true });
    }
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
