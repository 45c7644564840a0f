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
 */
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeSync,
} from "node:fs";
import { dirname } from "node:path";
import { DEFAULT_SNAPSHOT } from "../knowledge/snapshot.ts";

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

/**
 * Run `load` holding the machine-wide lock of the knowledge base at `snapshot` (waiting for it, polling) when the
 * snapshot is not built yet; once it exists, loads run side by side (a stale snapshot rebuilt by two workers at
 * once is still written atomically, only built twice).
 */
export async function withBuildLock<T>(
  load: () => Promise<T>,
  snapshot = DEFAULT_SNAPSHOT,
  pollMs = 100,
): Promise<T> {
  if (existsSync(snapshot)) return load();
  const path = `${snapshot}.lock`;
  mkdirSync(dirname(path), { recursive: true });
  while (!tryLock(path)) await new Promise((r) => setTimeout(r, pollMs));
  try {
    return await load();
  } finally {
    rmSync(path, { force: true });
  }
}
