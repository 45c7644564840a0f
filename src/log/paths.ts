/**
 * The one path check every command, the pipeline and the service run before any work, so that a bad path fails
 * in a second with a reason instead of after an hour with a stack trace, and so that no run can destroy what it
 * reads or write into a device.
 *
 * - A file output (a log, a reject file, a database, a state file, a snapshot) must be a new path or an existing
 *   regular file, in an existing directory the process may write in (a read-only file system is refused too).
 * - A directory output (an experiment's) must be a directory or a path that can be created; the files the command
 *   writes inside it (`files`) are checked as file outputs.
 * - A named input (`--original`, `--edges`, a config…) must exist and be a regular file.
 * - No output may be an input or another output of the run. Files are compared by identity (device and inode),
 *   not by their text, so a symbolic link or a hard link to an input is refused as the input itself is.
 *
 * Problems are {@link UsageError}s `<path>: reason` (the CLI prints `querymask: <path>: reason`, exit 2), or an
 * {@link InputError} `<path>: no such file` for a missing input.
 */
import { constants, type Stats } from "node:fs";
import { access, lstat, readlink, stat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { InputError, UsageError } from "../util/errors.ts";
import { expandInputs } from "./read.ts";

export interface OutputPath {
  readonly path: string;
  /** What it is, for messages: "output", "reject file", "database"… */
  readonly role: string;
  /** A directory the command fills (default: a file). */
  readonly directory?: boolean;
  /** With `directory`: the names the command writes in it (each checked as a file output). */
  readonly files?: readonly string[];
}

/** An input named by a flag: it must exist and be a regular file. */
export interface NamedInput {
  readonly path: string;
  /** What it is, for messages: "original log", "edge list"… */
  readonly role: string;
}

/** Inputs as given on a command line (paths or glob patterns: a missing one is the reader's to report) or named. */
export type InputPath = string | NamedInput;

async function statOrUndefined(path: string): Promise<Stats | undefined> {
  try {
    return await stat(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    if (code === "ENOTDIR") throw new UsageError(`${path}: a parent of this path is not a directory`);
    if (code === "ELOOP") throw new UsageError(`${path}: a loop of symbolic links`);
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
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code === "EROFS" ? "read-only file system" : "permission denied";
    throw new UsageError(`${path}: cannot write in directory ${dir} (${why})`);
  }
}

/** What a path that is not a regular file is, for messages. */
function kindOf(st: Stats): string {
  if (st.isCharacterDevice() || st.isBlockDevice()) return "a device";
  if (st.isFIFO()) return "a pipe";
  if (st.isSocket()) return "a socket";
  return "not a regular file";
}

/** A symbolic link's target, for messages ("" when it cannot be read). */
async function linkTarget(path: string): Promise<string> {
  try {
    return (await lstat(path)).isSymbolicLink() ? ` (a link to ${await readlink(path)})` : "";
  } catch {
    return "";
  }
}

/** Check a file output's own path: new or a regular file, in a writable directory. */
async function checkFileOutput(path: string, role: string, st: Stats | undefined): Promise<void> {
  if (st?.isDirectory()) throw new UsageError(`${path}: is a directory; give the ${role} a file name`);
  if (st && !st.isFile()) {
    throw new UsageError(
      `${path}: is ${kindOf(st)}${await linkTarget(path)}, not a regular file; give the ${role} a file name`,
    );
  }
  const dir = dirname(path);
  const dst = await statOrUndefined(dir);
  if (!dst) throw new UsageError(`${path}: directory ${dir} does not exist`);
  if (!dst.isDirectory()) throw new UsageError(`${path}: ${dir} is not a directory`);
  await writable(dir, path);
}

interface Seen {
  readonly path: string;
  readonly role: string;
  readonly abs: string;
  readonly st?: Stats;
}

/**
 * Check every input and output of a run against the rules above. `inputs` are the files the run reads (an input
 * that is also rewritten — a state file, a database extended in place — is listed as an output only).
 */
export async function checkPaths(
  outputs: readonly OutputPath[],
  inputs: readonly InputPath[] = [],
): Promise<void> {
  const inputStats: { path: string; role: string; st: Stats }[] = [];
  const patterns = inputs.filter((i): i is string => typeof i === "string");
  for (const p of patterns.length > 0 ? await expandInputs(patterns) : []) {
    const st = await stat(p).catch(() => undefined);
    if (st) inputStats.push({ path: p, role: "input", st });
  }
  for (const i of inputs) {
    if (typeof i === "string") continue;
    if (i.path === "") throw new UsageError(`the ${i.role} path is empty`);
    const st = await statOrUndefined(i.path);
    if (!st) throw new InputError(i.path, undefined, "no such file");
    if (st.isDirectory()) throw new InputError(i.path, undefined, `is a directory, expected the ${i.role}`);
    if (!st.isFile()) throw new InputError(i.path, undefined, `is ${kindOf(st)}, expected the ${i.role}`);
    inputStats.push({ path: i.path, role: i.role, st });
  }
  const seen: Seen[] = [];
  const claim = async (path: string, role: string): Promise<void> => {
    const st = await statOrUndefined(path);
    await checkFileOutput(path, role, st);
    if (st) {
      const input = inputStats.find((i) => sameFile(i.st, st));
      if (input) {
        const which =
          input.path === path
            ? `is ${input.role === "input" ? "an input" : `the ${input.role}`}`
            : `is the ${input.role} ${input.path} (same file)`;
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
  };
  for (const o of outputs) {
    const { path, role } = o;
    if (path === "") throw new UsageError(`the ${role} path is empty`);
    if (!o.directory) {
      await claim(path, role);
      continue;
    }
    const st = await statOrUndefined(path);
    if (st && !st.isDirectory()) throw new UsageError(`${path}: exists and is not a directory`);
    if (!st) {
      const up = await existingAncestor(dirname(path));
      if (!up.st.isDirectory()) throw new UsageError(`${path}: ${up.path} is not a directory`);
      await writable(up.path, path);
      continue; // a new directory holds no input
    }
    await writable(path, path);
    for (const name of o.files ?? []) await claim(join(path, name), `${role}'s ${name}`);
  }
}
