/**
 * The release of a batch method written by its workers (`ShardedRelease.parts`): each worker writes its shard's
 * users' released records to a part file (the output's layout, header included) and an index of what it wrote —
 * per `out.write` (one user's records), the log position of its first record and its line count — and the
 * coordinator merges the parts by those positions into the output. The log is grouped by user and shards own whole
 * users, so no record of another shard falls between the records of one write: ordering the writes by their first
 * record puts every line where the single machine writes it, and the bytes are the single machine's writer's.
 */
import { closeSync, openSync, readFileSync, readSync } from "node:fs";
import { AtomicTextFile, writeFileAtomic } from "../log/atomic.ts";
import { codecs } from "../log/formats/index.ts";
import type { LogFormat, LogRecord } from "../log/record.ts";
import { createLogWriter, type LogWriter } from "../log/write.ts";
import type { ReleaseSink } from "../methods/method.ts";

/** A shard's part: the released lines, and per write [position of its first record, lines]. */
export function partPaths(dir: string, pass: number, shard: number): { lines: string; index: string } {
  return {
    lines: `${dir}/release-${pass}-${shard}.part`,
    index: `${dir}/release-${pass}-${shard}.index.json`,
  };
}

/** A sink writing a shard's part (atomically: a worker killed mid-write leaves no part; its restart writes it all). */
export class PartWriter implements ReleaseSink {
  private readonly writer: LogWriter;
  private readonly index: number[] = [];

  constructor(
    private readonly paths: { lines: string; index: string },
    format: LogFormat,
    classified: boolean,
    private readonly order: (r: LogRecord) => number,
  ) {
    this.writer = createLogWriter(paths.lines, format, { classified });
  }

  write(records: readonly LogRecord[]): undefined | Promise<void> {
    if (records.length === 0) return undefined;
    this.index.push(this.order(records[0]!), records.length);
    let behind: Promise<void> | undefined;
    for (const r of records) behind = this.writer.write(r) ?? behind;
    return behind;
  }

  async close(): Promise<void> {
    await this.writer.close();
    await writeFileAtomic(this.paths.index, JSON.stringify(this.index));
  }

  abort(): Promise<void> {
    return this.writer.abort();
  }
}

/** Bytes read from a part at a time. */
const CHUNK = 1 << 20;

/** A part's lines, handed out a number at a time as bytes (the header skipped). */
class PartLines {
  private readonly fd: number;
  private buf = Buffer.allocUnsafe(CHUNK);
  private start = 0;
  private end = 0;
  private eof = false;

  constructor(path: string, header: boolean) {
    this.fd = openSync(path, "r");
    if (header) this.take(1);
  }

  /** The bytes of the next `n` lines (newlines included); valid until the next call. */
  take(n: number): Buffer {
    let at = this.start;
    for (let left = n; left > 0; ) {
      const nl = this.buf.indexOf(10, at);
      if (nl >= 0 && nl < this.end) {
        at = nl + 1;
        left--;
        continue;
      }
      if (this.eof) throw new Error("a release part ended before its index did");
      // Keep what is being taken, read more after it.
      const kept = this.end - this.start;
      const scanned = at - this.start;
      if (kept + CHUNK > this.buf.length) {
        const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, kept + CHUNK));
        this.buf.copy(grown, 0, this.start, this.end);
        this.buf = grown;
      } else this.buf.copy(this.buf, 0, this.start, this.end);
      this.start = 0;
      this.end = kept;
      at = scanned;
      const got = readSync(this.fd, this.buf, this.end, this.buf.length - this.end, null);
      if (got === 0) this.eof = true;
      this.end += got;
    }
    const out = this.buf.subarray(this.start, at);
    this.start = at;
    return out;
  }

  close(): void {
    closeSync(this.fd);
  }
}

/** Merge the shards' parts into `out` (atomically), in log order: the single machine's release, byte for byte. */
export async function mergeParts(
  parts: readonly { lines: string; index: string }[],
  out: string,
  format: LogFormat,
  classified: boolean,
): Promise<void> {
  const header = codecs[format].header(classified);
  const writes: { order: number; shard: number; lines: number }[] = [];
  parts.forEach((p, shard) => {
    const index = JSON.parse(readFileSync(p.index, "utf8")) as number[];
    for (let i = 0; i < index.length; i += 2) writes.push({ order: index[i]!, shard, lines: index[i + 1]! });
  });
  // Each shard's writes are in log order already; sorting all of them interleaves the shards.
  writes.sort((a, b) => a.order - b.order);
  const readers = parts.map((p) => new PartLines(p.lines, header !== undefined));
  const file = new AtomicTextFile(out);
  try {
    if (header !== undefined) file.write(`${header}\n`);
    for (const w of writes) {
      const behind = file.write(readers[w.shard]!.take(w.lines));
      if (behind) await behind;
    }
    await file.commit();
  } catch (e) {
    await file.abort();
    throw e;
  } finally {
    for (const r of readers) r.close();
  }
}
