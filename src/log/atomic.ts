/**
 * Output files are written atomically: to a temporary file beside the target, renamed over it only when
 * complete. A crash or an error leaves the previous file (or none), never a half-written one. Names ending in
 * `.gz` are gzip-compressed on the way.
 */
import { createWriteStream, type WriteStream } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { Writable } from "node:stream";
import { finished } from "node:stream/promises";
import { createGzip } from "node:zlib";

let counter = 0;

/** Text sink with backpressure: `write` returns a promise only when the caller must wait. */
export class AtomicTextFile {
  private readonly tmp: string;
  private readonly file: WriteStream;
  private readonly out: Writable;
  private pending: string[] = [];
  private pendingLength = 0;
  private failure: Error | undefined;
  private closed = false;

  constructor(readonly path: string) {
    this.tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${++counter}.tmp`);
    this.file = createWriteStream(this.tmp);
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
    if (this.pendingLength < 1 << 18) return undefined;
    return this.flush();
  }

  private flush(): undefined | Promise<void> {
    if (this.pending.length === 0) return undefined;
    const ok = this.out.write(this.pending.join(""));
    this.pending = [];
    this.pendingLength = 0;
    if (ok) return undefined;
    return new Promise((resolve, reject) => {
      const onDrain = () => {
        this.out.off("error", onError);
        resolve();
      };
      const onError = (e: Error) => {
        this.out.off("drain", onDrain);
        reject(e);
      };
      this.out.once("drain", onDrain);
      this.out.once("error", onError);
    });
  }

  /** Flush, close and move the file into place. */
  async commit(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.flush();
      this.out.end();
      await finished(this.file);
      if (this.failure) throw this.failure;
      await rename(this.tmp, this.path);
    } catch (e) {
      await rm(this.tmp, { force: true });
      throw e;
    }
  }

  /** Give up: remove the temporary file; the target is untouched. */
  async abort(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.out.destroy();
    // The file is opened asynchronously: wait until the stream has closed, or the open could land after rm.
    const closed = new Promise<void>((resolve) => {
      if (this.file.closed) resolve();
      else this.file.once("close", () => resolve());
    });
    this.file.destroy();
    await closed;
    await rm(this.tmp, { force: true });
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
