/**
 * Output files are written atomically: to a temporary file beside the target, synced to disk and renamed over
 * it only when complete (then the directory is synced too, so a power loss cannot leave a renamed, empty file).
 * A crash or an error leaves the previous file (or none), never a half-written one. Names ending in `.gz` are
 * gzip-compressed on the way.
 *
 * Temporary files are named `.<name>.<pid>.<n>.tmp`. They are removed on failure, on `abort()`, and when the
 * process ends on SIGINT, SIGTERM or SIGHUP; a run killed outright (kill -9, out of memory) cannot clean up, so
 * {@link removeStaleTemps} — called before every new temporary file — removes those whose process is gone.
 */
import { createWriteStream, unlinkSync, type WriteStream } from "node:fs";
import { open, readdir, rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { Writable } from "node:stream";
import { finished } from "node:stream/promises";
import { createGzip } from "node:zlib";

let counter = 0;

/** Temporary files of this process not yet renamed or removed. */
const live = new Set<string>();

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
let handlersInstalled = false;

/** Remove this process's temporary files, synchronously (on exit or a fatal signal). */
function removeLiveTemps(): void {
  for (const t of live) {
    try {
      unlinkSync(t);
    } catch {
      // already gone
    }
  }
  live.clear();
}

/** On a fatal signal, remove our temporary files, then die of the same signal (so the exit status is right). */
function onSignal(signal: NodeJS.Signals): void {
  removeLiveTemps();
  for (const s of SIGNALS) process.removeListener(s, onSignal);
  process.kill(process.pid, signal);
}

function track(tmp: string): void {
  live.add(tmp);
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.once("exit", removeLiveTemps);
  // Only take over a signal nobody else handles: the default action (die) stays, after our cleanup.
  for (const s of SIGNALS) if (process.listenerCount(s) === 0) process.on(s, onSignal);
}

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

/**
 * Remove temporary files left beside `target` by runs that were killed before they could clean up (their process
 * is gone). Returns the paths removed. A directory that cannot be listed is left alone.
 */
export async function removeStaleTemps(target: string): Promise<string[]> {
  const dir = dirname(target);
  const pattern = tempPattern(target);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const n of names) {
    const m = pattern.exec(n);
    if (!m || processAlive(Number(m[1]))) continue;
    const p = join(dir, n);
    await rm(p, { force: true });
    removed.push(p);
  }
  return removed;
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

/** Text sink with backpressure: `write` returns a promise only when the caller must wait. */
export class AtomicTextFile {
  private readonly tmp: string;
  private readonly file: WriteStream;
  private readonly out: Writable;
  private pending: string[] = [];
  private pendingLength = 0;
  private failure: Error | undefined;
  private closed = false;
  /** While the stream is full: resolves on `drain`, rejects on a stream error. Writes queue behind it. */
  private draining: Promise<void> | undefined;
  private readonly ready: Promise<void>;

  constructor(readonly path: string) {
    this.tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${++counter}.tmp`);
    track(this.tmp);
    this.ready = removeStaleTemps(path).then(
      () => undefined,
      () => undefined,
    );
    // `flush`: fsync before close, so the renamed file has its bytes on disk.
    this.file = createWriteStream(this.tmp, { flush: true });
    this.out = path.endsWith(".gz") ? createGzip({ level: 6 }) : this.file;
    if (this.out !== this.file) this.out.pipe(this.file);
    const fail = (e: Error) => {
      this.failure ??= e;
    };
    this.file.on("error", fail);
    this.out.on("error", fail);
  }

  /** Queue text; flushes in ~256 KB pieces. Await the result when it is a promise. */
  write(text: string): undefined | Promise<void> {
    if (this.failure) throw this.failure;
    this.pending.push(text);
    this.pendingLength += text.length;
    if (this.draining) return this.draining;
    if (this.pendingLength < 1 << 18) return undefined;
    return this.flush();
  }

  private flush(): undefined | Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.pending.length === 0) return this.draining;
    if (this.draining) return this.draining;
    const ok = this.out.write(this.pending.join(""));
    this.pending = [];
    this.pendingLength = 0;
    if (ok) return undefined;
    this.draining = this.waitForDrain().finally(() => {
      this.draining = undefined;
    });
    return this.draining;
  }

  /** One pair of listeners per full buffer, whatever the number of writes waiting behind it. */
  private waitForDrain(): Promise<void> {
    return new Promise((resolve, reject) => {
      const streams = this.out === this.file ? [this.file] : [this.out, this.file];
      const done = (e?: Error) => {
        this.out.off("drain", onDrain);
        for (const s of streams) s.off("error", onError);
        if (e) reject(e);
        else resolve();
      };
      const onDrain = () => done();
      // An error on either stream ends the wait: no `drain` will come after it.
      const onError = (e: Error) => done(e);
      this.out.once("drain", onDrain);
      for (const s of streams) s.once("error", onError);
      if (this.failure) done(this.failure);
    });
  }

  /** Flush, sync, close and move the file into place. */
  async commit(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.ready;
      while (this.draining || this.pending.length > 0) await (this.draining ?? this.flush());
      if (this.failure) throw this.failure;
      this.out.end();
      await finished(this.file);
      if (this.failure) throw this.failure;
      await rename(this.tmp, this.path);
      live.delete(this.tmp);
      await syncDir(dirname(this.path));
    } catch (e) {
      await this.discard();
      throw e;
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
