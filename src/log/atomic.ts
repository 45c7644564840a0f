/**
 * Output files are written atomically: to a temporary file beside the target, synced to disk and renamed over
 * it only when complete (then the directory is synced too, so a power loss cannot leave a renamed, empty file).
 * A crash or an error leaves the previous file (or none), never a half-written one. Names ending in `.gz` are
 * gzip-compressed on the way.
 *
 * Temporary files are named `.<name>.<pid>.<n>.tmp`, temporary directories `<prefix><pid>-<random>`. Both are
 * removed on failure, on `abort()`, and when the process ends on SIGINT, SIGTERM or SIGHUP; a run killed outright
 * (kill -9, out of memory) cannot clean up, so {@link removeStaleTemps} — called before every new temporary file
 * and directory — removes those of the directory whose process is gone.
 *
 * {@link AtomicTextFile} streams (a log of any size, gzip on the way); {@link writeFileAtomic} and
 * {@link writeFileAtomicSync} write a whole text or buffer (a state file, a snapshot, a model). `write-file-atomic`
 * was measured against: it neither syncs the directory after the rename nor streams, and it writes through a
 * symbolic link to its target.
 */
import {
  closeSync,
  createWriteStream,
  fsyncSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  unlinkSync,
  type WriteStream,
  writeSync,
} from "node:fs";
import { mkdtemp, open, readdir, rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { Writable } from "node:stream";
import { finished } from "node:stream/promises";
import { createGzip } from "node:zlib";

let counter = 0;

/** Temporary files of this process not yet renamed or removed. */
const live = new Set<string>();

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
let handlersInstalled = false;

/** Temporary directories of this process not yet removed (sorted runs, a classified copy of a log). */
const liveDirs = new Set<string>();

/** Remove this process's temporary files and directories, synchronously (on exit or a fatal signal). */
function removeLiveTemps(): void {
  for (const t of live) {
    try {
      unlinkSync(t);
    } catch {
      // already gone
    }
  }
  live.clear();
  for (const d of liveDirs) rmSync(d, { recursive: true, force: true });
  liveDirs.clear();
}

/** On a fatal signal, remove our temporary files, then die of the same signal (so the exit status is right). */
function onSignal(signal: NodeJS.Signals): void {
  removeLiveTemps();
  for (const s of SIGNALS) process.removeListener(s, onSignal);
  process.kill(process.pid, signal);
}

function track(tmp: string): void {
  live.add(tmp);
  installHandlers();
}

function installHandlers(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.once("exit", removeLiveTemps);
  // Only take over a signal nobody else handles: the default action (die) stays, after our cleanup.
  for (const s of SIGNALS) if (process.listenerCount(s) === 0) process.on(s, onSignal);
}

/**
 * A new temporary directory under `parent` (named `prefix`, this process's id and a random tail), removed by
 * `dispose` — or, if the process ends first (an error, SIGINT, SIGTERM, SIGHUP), on its way out: what it holds
 * (sorted runs, a classified copy of a log) is the input's data and must not be left behind. Directories a killed
 * run left in `parent` are removed first.
 */
export async function temporaryDirectory(
  parent: string,
  prefix: string,
): Promise<{ readonly dir: string; dispose(): Promise<void> }> {
  await removeStaleIn(parent, () => false);
  const dir = await mkdtemp(join(parent, `${prefix}${process.pid}-`));
  liveDirs.add(dir);
  installHandlers();
  return {
    dir,
    dispose: async () => {
      await rm(dir, { recursive: true, force: true });
      liveDirs.delete(dir);
    },
  };
}

/** A temporary directory's name (from {@link temporaryDirectory}: a querymask prefix, the pid, mkdtemp's tail). */
const TEMP_DIR = /^\.?querymask-[a-z]+-(\d+)-[A-Za-z0-9]{6}$/;

/** The temporary-file name pattern for `target`: capture group 1 is the writer's process id. */
function tempPattern(target: string): RegExp {
  const name = basename(target).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`^\\.${name}\\.(\\d+)\\.\\d+\\.tmp$`);
}

function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists but belongs to someone else.
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The pid of a temporary file or directory `name` of `dir` (`file` the pattern of one target's temp files). */
function ownerOf(name: string, file: RegExp | undefined): number | undefined {
  const m = file?.exec(name) ?? TEMP_DIR.exec(name);
  return m ? Number(m[1]) : undefined;
}

/** Remove what killed runs left in `dir`: temp files matching `isFile`'s pattern, and temporary directories. */
async function removeStaleIn(dir: string, isFile: RegExp | (() => false)): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const pattern = isFile instanceof RegExp ? isFile : undefined;
  const removed: string[] = [];
  for (const n of names) {
    const pid = ownerOf(n, pattern);
    if (pid === undefined || processAlive(pid)) continue;
    const p = join(dir, n);
    await rm(p, { recursive: true, force: true });
    removed.push(p);
  }
  return removed;
}

/**
 * Remove temporary files left beside `target` — and temporary directories left in its directory — by runs that
 * were killed before they could clean up (their process is gone). Returns the paths removed. A directory that
 * cannot be listed is left alone.
 */
export function removeStaleTemps(target: string): Promise<string[]> {
  return removeStaleIn(dirname(target), tempPattern(target));
}

function removeStaleTempsSync(target: string): void {
  const dir = dirname(target);
  const pattern = tempPattern(target);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const n of names) {
    const pid = ownerOf(n, pattern);
    if (pid !== undefined && !processAlive(pid)) rmSync(join(dir, n), { recursive: true, force: true });
  }
}

/**
 * A write error naming the file it was for: a stream's error names no path ("ENOSPC: no space left on device,
 * write"), and the temp file's name would mislead. The code and syscall stay (the CLI exits 1 on them).
 */
function forTarget(e: Error, path: string): Error {
  const err = e as NodeJS.ErrnoException;
  if (err.code === undefined || err.message.startsWith(`${path}: `)) return e;
  const reason = err.message.replace(/, [a-z]+( '[^']*')?$/, "");
  err.message = `${path}: ${reason}; the file is left as it was`;
  return err;
}

function tempName(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${++counter}.tmp`);
}

/** fsync a directory, so that a rename in it is on disk. Some file systems refuse: that is not an error. */
async function syncDir(dir: string): Promise<void> {
  let fh: Awaited<ReturnType<typeof open>> | undefined;
  try {
    fh = await open(dir, "r");
    await fh.sync();
  } catch {
    // EISDIR/EINVAL/EPERM on some platforms and file systems: nothing more we can do.
  } finally {
    await fh?.close();
  }
}

/** Bytes per piece handed to the file (or gzip) stream. */
const PIECE_BYTES = 1 << 18;

/**
 * Text sink with backpressure: `write` returns a promise only when the caller must wait.
 *
 * Text is encoded straight into one of two reused buffers: while one is being written, the other fills. (Joining
 * the text and encoding it into a fresh buffer per piece cost ~0.3 CPU-s per 40 MB written, much of it page
 * faults.) A piece goes to the stream only after the previous one is written, so at most two are held.
 */
export class AtomicTextFile {
  private readonly tmp: string;
  private readonly file: WriteStream;
  private readonly out: Writable;
  private buf: Buffer = Buffer.allocUnsafeSlow(PIECE_BYTES);
  private used = 0;
  /** The other buffer, when it is not being written. */
  private spare: Buffer | undefined = Buffer.allocUnsafeSlow(PIECE_BYTES);
  /** Resolves when the buffer being written is back as `spare`. */
  private spareBack: Promise<void> = Promise.resolve();
  /** Text written while `waiting`, in order. */
  private queued: (string | Uint8Array)[] = [];
  private failure: Error | undefined;
  private closed = false;
  /** While both buffers are taken: resolves once the text given then is in a buffer. Writes queue behind it. */
  private waiting: Promise<void> | undefined;
  private readonly ready: Promise<void>;

  constructor(readonly path: string) {
    this.tmp = tempName(path);
    track(this.tmp);
    this.ready = removeStaleTemps(path).then(
      () => undefined,
      () => undefined,
    );
    // `flush`: fsync before close, so the renamed file has its bytes on disk.
    this.file = createWriteStream(this.tmp, { flush: true });
    this.out = path.endsWith(".gz") ? createGzip({ level: 6 }) : this.file;
    if (this.out !== this.file) this.out.pipe(this.file);
    const fail = (e: Error) => this.fail(e);
    this.file.on("error", fail);
    this.out.on("error", fail);
  }

  private fail(e: Error): void {
    this.failure ??= forTarget(e, this.path);
  }

  /**
   * Queue text, or bytes (copied before this returns: the caller may reuse its buffer). Await the result when it
   * is a promise.
   */
  write(text: string | Uint8Array): undefined | Promise<void> {
    if (this.failure) throw this.failure;
    if (this.waiting) {
      this.queued.push(typeof text === "string" ? text : Buffer.from(text));
      return this.waiting;
    }
    // A UTF-16 code unit takes at most 3 bytes in UTF-8.
    const most = typeof text === "string" ? text.length * 3 : text.length;
    if (this.used + most <= this.buf.length) {
      this.used += this.put(text, this.used);
      return undefined;
    }
    if (this.spare !== undefined && most <= this.spare.length) {
      this.send();
      this.used = this.put(text, 0);
      return undefined;
    }
    const w = this.after(typeof text === "string" ? text : Buffer.from(text));
    this.waiting = w;
    return w;
  }

  /** Encode or copy into the current buffer at `at`; the bytes written. */
  private put(text: string | Uint8Array, at: number): number {
    if (typeof text === "string") return this.buf.write(text, at);
    this.buf.set(text, at);
    return text.length;
  }

  /**
   * Once the buffer being written is back: send the current one, then `text` (straight to the stream, waiting
   * until it has taken it, when it is longer than a buffer), then what was queued meanwhile.
   */
  private async after(text: string | Uint8Array): Promise<void> {
    await this.spareBack;
    this.send();
    const most = typeof text === "string" ? text.length * 3 : text.length;
    if (most <= this.buf.length) this.used = this.put(text, 0);
    else {
      await new Promise<void>((resolve) => {
        this.out.write(text, (e) => {
          if (e) this.fail(e);
          resolve();
        });
      });
    }
    this.waiting = undefined;
    const rest = this.queued;
    this.queued = [];
    for (let i = 0; i < rest.length; i++) {
      const p = this.write(rest[i]!);
      if (p) {
        for (let j = i + 1; j < rest.length; j++) this.queued.push(rest[j]!);
        return p;
      }
    }
    if (this.failure) throw this.failure;
  }

  /** Hand the current buffer to the stream and continue in the spare one (which must be there). */
  private send(): void {
    if (this.used === 0) return;
    const sent = this.buf;
    const n = this.used;
    this.buf = this.spare!;
    this.spare = undefined;
    this.used = 0;
    this.spareBack = new Promise((resolve) => {
      this.out.write(sent.subarray(0, n), (e) => {
        if (e) this.fail(e);
        this.spare = sent;
        resolve();
      });
    });
  }

  /** Flush, sync, close and move the file into place. */
  async commit(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.ready;
      while (this.waiting) await this.waiting;
      if (this.failure) throw this.failure;
      if (this.used > 0) {
        await this.spareBack;
        this.send();
      }
      await this.spareBack;
      if (this.failure) throw this.failure;
      this.out.end();
      await finished(this.file);
      if (this.failure) throw this.failure;
      await rename(this.tmp, this.path);
      live.delete(this.tmp);
      await syncDir(dirname(this.path));
    } catch (e) {
      await this.discard();
      throw e instanceof Error ? forTarget(e, this.path) : e;
    }
  }

  /** Give up: remove the temporary file; the target is untouched. */
  async abort(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.discard();
  }

  private async discard(): Promise<void> {
    this.out.destroy();
    // The file is opened asynchronously: wait until the stream has closed, or the open could land after rm.
    const closed = new Promise<void>((resolve) => {
      if (this.file.closed) resolve();
      else this.file.once("close", () => resolve());
    });
    this.file.destroy();
    await closed;
    await rm(this.tmp, { force: true });
    live.delete(this.tmp);
  }
}

/** Write a whole text atomically. */
export async function writeFileAtomic(path: string, text: string): Promise<void> {
  const f = new AtomicTextFile(path);
  try {
    await f.write(text);
    await f.commit();
  } catch (e) {
    await f.abort();
    throw e;
  }
}

function syncDirSync(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, "r");
    fsyncSync(fd);
  } catch {
    // as syncDir
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Write a whole text or buffer atomically and durably, synchronously (for callers that cannot wait: a snapshot
 * built on first use, a state file saved at shutdown): a temp file beside `path`, fsynced, renamed over `path`, the
 * directory fsynced; on failure the temp file is removed and `path` is untouched. No gzip.
 */
export function writeFileAtomicSync(path: string, data: string | Uint8Array): void {
  removeStaleTempsSync(path);
  const tmp = tempName(path);
  track(tmp);
  let fd: number | undefined;
  try {
    fd = openSync(tmp, "w");
    const bytes = typeof data === "string" ? Buffer.from(data) : data;
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(tmp, path);
    live.delete(tmp);
  } catch (e) {
    if (fd !== undefined) closeSync(fd);
    rmSync(tmp, { force: true });
    live.delete(tmp);
    throw e instanceof Error ? forTarget(e, path) : e;
  }
  syncDirSync(dirname(path));
}
