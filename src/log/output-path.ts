/**
 * Output paths are checked before any work, so that a bad one fails in a second with a reason instead of after
 * an hour with a stack trace, and so that no run can destroy what it reads. A file output must be a new path or
 * an existing regular file, in an existing, writable directory, and must not resolve (through symlinks or hard
 * links) to an input or to another output of the same run. A directory output (an experiment's) must be a
 * directory or a path that can be created.
 *
 * Problems are {@link UsageError}s `<path>: reason` (the CLI prints `querymask: <path>: reason`, exit 2).
 */
import { constants, type Stats } from "node:fs";
import { access, stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { UsageError } from "../util/errors.ts";
import { expandInputs } from "./read.ts";

export interface OutputPath {
  readonly path: string;
  /** What it is, for messages: "output", "reject file", "database"… */
  readonly role: string;
  /** A directory the command fills (default: a file). */
  readonly directory?: boolean;
}

async function statOrUndefined(path: string): Promise<Stats | undefined> {
  try {
    return await stat(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    if (code === "ENOTDIR") throw new UsageError(`${path}: a parent of this path is not a directory`);
    throw new UsageError(`${path}: cannot check this path (${code})`);
  }
}

function sameFile(a: Stats, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

/** The nearest existing ancestor of `dir` (for directory outputs, which are created with their parents). */
async function existingAncestor(dir: string): Promise<{ path: string; st: Stats }> {
  let d = resolve(dir);
  for (;;) {
    const st = await statOrUndefined(d);
    if (st) return { path: d, st };
    const up = dirname(d);
    if (up === d) throw new UsageError(`${dir}: no existing parent directory`);
    d = up;
  }
}

async function writable(dir: string, path: string): Promise<void> {
  try {
    await access(dir, constants.W_OK);
  } catch {
    throw new UsageError(`${path}: cannot write in directory ${dir} (permission denied)`);
  }
}

/**
 * Check every output of a run against the rules above and against the run's `inputs` (paths or glob patterns,
 * as given on the command line; an input that does not exist is the reader's business, not ours).
 */
export async function checkOutputPaths(
  outputs: readonly OutputPath[],
  inputs: readonly string[] = [],
): Promise<void> {
  const inputStats: { path: string; st: Stats }[] = [];
  for (const p of inputs.length > 0 ? await expandInputs(inputs) : []) {
    const st = await stat(p).catch(() => undefined);
    if (st) inputStats.push({ path: p, st });
  }
  const seen: { path: string; role: string; st?: Stats; abs: string }[] = [];
  for (const o of outputs) {
    const { path, role } = o;
    if (path === "") throw new UsageError(`the ${role} path is empty`);
    const st = await statOrUndefined(path);
    if (o.directory) {
      if (st && !st.isDirectory()) throw new UsageError(`${path}: exists and is not a directory`);
      if (!st) {
        const up = await existingAncestor(dirname(path));
        if (!up.st.isDirectory()) throw new UsageError(`${path}: ${up.path} is not a directory`);
        await writable(up.path, path);
      } else {
        await writable(path, path);
      }
    } else {
      if (st?.isDirectory()) throw new UsageError(`${path}: is a directory; give the ${role} a file name`);
      if (st && !st.isFile()) {
        throw new UsageError(
          `${path}: is not a regular file (a device, pipe or socket); give the ${role} a file name`,
        );
      }
      const dir = dirname(path);
      const dst = await statOrUndefined(dir);
      if (!dst) throw new UsageError(`${path}: directory ${dir} does not exist`);
      if (!dst.isDirectory()) throw new UsageError(`${path}: ${dir} is not a directory`);
      await writable(dir, path);
    }
    if (st) {
      const input = inputStats.find((i) => sameFile(i.st, st));
      if (input) {
        const which = input.path === path ? "is an input" : `is the input ${input.path} (same file)`;
        throw new UsageError(`${path}: ${which}; the ${role} must not overwrite an input`);
      }
    }
    const abs = resolve(path);
    const twin = seen.find((s) => s.abs === abs || (s.st && st && sameFile(s.st, st)));
    if (twin) {
      throw new UsageError(
        `${path}: the ${twin.role} and the ${role} are the same file; give each its own path`,
      );
    }
    seen.push({ path, role, abs, ...(st ? { st } : {}) });
  }
}
