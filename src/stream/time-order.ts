/**
 * Time order for streaming stages. A stage such as swap is defined on a stream in time order (a search engine's
 * live stream); a log file may come in another order (AOL ships each file sorted by user). Two pieces:
 *
 * - {@link checkTimeOrder} passes batches through and throws {@link NotInTimeOrder} at the first record earlier
 *   than the one before it, so a driver can stop, discard what it wrote and start over on sorted input. On a log
 *   already in time order it costs one comparison per record.
 * - {@link sortByTime} is an external merge sort with memory bounded by `runRecords`: records are read in runs,
 *   each run is sorted by time (stably) and spilled to a temporary file, and the runs are merged. The order is
 *   exactly a stable sort by time of the whole input, which is what the batch methods do in memory
 *   (`swapRecords`), so the streaming and the batch paths see the same sequence of records.
 */
import { createReadStream, createWriteStream, type WriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { temporaryDirectory } from "../log/atomic.ts";
import type { LogRecord } from "../log/record.ts";

/** Thrown by {@link checkTimeOrder}: `record` (at `where`) is earlier than the record before it. */
export class NotInTimeOrder extends Error {
  constructor(
    readonly where: string,
    readonly previous: number,
    readonly time: number,
  ) {
    super(`${where}: record is earlier than the one before it: the log is not in time order`);
    this.name = "NotInTimeOrder";
  }
}

function position(r: LogRecord, index: number): string {
  return r.source ? `${r.source.file}:${r.source.line}` : `record ${index + 1}`;
}

/** Pass batches through unchanged; throw {@link NotInTimeOrder} at the first record earlier than its predecessor. */
export async function* checkTimeOrder(input: AsyncIterable<LogRecord[]>): AsyncGenerator<LogRecord[]> {
  let last = Number.NEGATIVE_INFINITY;
  let seen = 0;
  for await (const batch of input) {
    for (let i = 0; i < batch.length; i++) {
      const t = batch[i]!.time;
      if (t < last) throw new NotInTimeOrder(position(batch[i]!, seen + i), last, t);
      last = t;
    }
    seen += batch.length;
    yield batch;
  }
}

export interface SortOptions {
  /** Records held in memory at once while building runs (default 16,384). */
  runRecords?: number;
  /** Records per output batch (default 8192). */
  batchSize?: number;
  /** Parent of the temporary run directory (default the OS temp directory); removed at the end. */
  tempDir?: string;
  /** Called once with the number of runs spilled (0 when the input fitted in one run). */
  onRuns?: (runs: number) => void;
  /**
   * Runs merged at once (default 64): more runs are first merged in groups into longer runs, so the open files
   * and read buffers stay bounded however large the log.
   */
  fanIn?: number;
}

/** A run record on disk: one JSON array per line (`source` is kept: messages and origins need it). */
type Packed = [
  string,
  string,
  number,
  number | null,
  string | null,
  string | null,
  string | null,
  string | null,
  number,
];

function pack(r: LogRecord): string {
  const p: Packed = [
    r.user,
    r.query,
    r.time,
    r.itemRank ?? null,
    r.clickUrl ?? null,
    r.category ?? null,
    r.unit ?? null,
    r.source?.file ?? null,
    r.source?.line ?? 0,
  ];
  return JSON.stringify(p);
}

function unpack(line: string): LogRecord {
  const p = JSON.parse(line) as Packed;
  const r: LogRecord = { user: p[0], query: p[1], time: p[2] };
  if (p[3] !== null) r.itemRank = p[3];
  if (p[4] !== null) r.clickUrl = p[4];
  if (p[5] !== null) r.category = p[5];
  if (p[6] !== null) r.unit = p[6];
  if (p[7] !== null) r.source = { file: p[7], line: p[8] };
  return r;
}

const byTime = (a: LogRecord, b: LogRecord): number => a.time - b.time;

async function writeRun(
  path: string,
  batches: Iterable<LogRecord[]> | AsyncIterable<LogRecord[]>,
): Promise<void> {
  const out: WriteStream = createWriteStream(path);
  const done = new Promise<void>((resolve, reject) => {
    out.on("finish", resolve);
    out.on("error", reject);
  });
  let chunk = "";
  for await (const batch of batches) {
    for (const r of batch) {
      chunk += `${pack(r)}\n`;
      if (chunk.length >= 1 << 16) {
        if (!out.write(chunk)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
        chunk = "";
      }
    }
  }
  out.end(chunk);
  await done;
}

/** Reads one spilled run back, a small buffer at a time. */
class RunReader {
  private readonly it: AsyncIterator<Buffer>;
  private lines: string[] = [];
  private at = 0;
  private carry = "";
  head: LogRecord | undefined;

  constructor(
    path: string,
    /** Position of the run in the input: ties in time go to the earlier run (stability). */
    readonly index: number,
  ) {
    this.it = createReadStream(path, { highWaterMark: 1 << 16 })[Symbol.asyncIterator]();
  }

  /** Move `head` to the next record (undefined at the end). */
  async advance(): Promise<void> {
    while (this.at >= this.lines.length) {
      const next = await this.it.next();
      if (next.done) {
        this.head = this.carry === "" ? undefined : unpack(this.carry);
        this.carry = "";
        this.lines = [];
        this.at = 0;
        return;
      }
      const text = this.carry + (next.value as Buffer).toString("utf8");
      const nl = text.lastIndexOf("\n");
      this.carry = text.slice(nl + 1);
      this.lines = nl < 0 ? [] : text.slice(0, nl).split("\n");
      this.at = 0;
    }
    this.head = unpack(this.lines[this.at++]!);
  }
}

/** Binary min-heap of run readers by (head time, run index). */
function before(a: RunReader, b: RunReader): boolean {
  const ta = a.head!.time;
  const tb = b.head!.time;
  return ta < tb || (ta === tb && a.index < b.index);
}

function siftDown(heap: RunReader[], i: number): void {
  const n = heap.length;
  for (;;) {
    const l = 2 * i + 1;
    if (l >= n) return;
    const c = l + 1 < n && before(heap[l + 1]!, heap[l]!) ? l + 1 : l;
    if (!before(heap[c]!, heap[i]!)) return;
    [heap[c], heap[i]] = [heap[i]!, heap[c]!];
    i = c;
  }
}

/** Merge sorted run files into batches of one sorted sequence; ties go to the earlier file. */
async function* mergeRuns(paths: readonly string[], batchSize: number): AsyncGenerator<LogRecord[]> {
  const heap: RunReader[] = [];
  for (let i = 0; i < paths.length; i++) {
    const reader = new RunReader(paths[i]!, i);
    await reader.advance();
    if (reader.head !== undefined) heap.push(reader);
  }
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) siftDown(heap, i);
  let out: LogRecord[] = [];
  while (heap.length > 0) {
    const top = heap[0]!;
    out.push(top.head!);
    if (out.length >= batchSize) {
      yield out;
      out = [];
    }
    await top.advance();
    if (top.head === undefined) {
      heap[0] = heap[heap.length - 1]!;
      heap.pop();
    }
    if (heap.length > 0) siftDown(heap, 0);
  }
  if (out.length > 0) yield out;
}

/**
 * The records of `input` as a stable sort by time, in batches, holding at most `runRecords` records (plus one
 * small read buffer per run) in memory. An input that fits in one run is sorted in memory and never touches disk.
 */
export async function* sortByTime(
  input: AsyncIterable<LogRecord[]>,
  opts: SortOptions = {},
): AsyncGenerator<LogRecord[]> {
  const runRecords = opts.runRecords ?? 16_384;
  const batchSize = opts.batchSize ?? 8192;
  let run: LogRecord[] = [];
  let temp: Awaited<ReturnType<typeof temporaryDirectory>> | undefined;
  let dir: string | undefined;
  const paths: string[] = [];
  try {
    for await (const batch of input) {
      for (const r of batch) {
        // A full run spills only when another record comes: an input of exactly one run stays in memory.
        if (run.length >= runRecords) {
          run.sort(byTime);
          temp ??= await temporaryDirectory(opts.tempDir ?? tmpdir(), "querymask-sort-");
          dir = temp.dir;
          const path = join(dir, `run-${paths.length}.jsonl`);
          await writeRun(path, [run]);
          paths.push(path);
          run = [];
        }
        run.push(r);
      }
    }
    run.sort(byTime);
    opts.onRuns?.(paths.length === 0 ? 0 : paths.length + (run.length > 0 ? 1 : 0));
    if (paths.length === 0) {
      for (let i = 0; i < run.length; i += batchSize) yield run.slice(i, i + batchSize);
      return;
    }
    if (run.length > 0) {
      const path = join(dir!, `run-${paths.length}.jsonl`);
      await writeRun(path, [run]);
      paths.push(path);
      run = [];
    }
    // Merge in passes of at most fanIn runs; groups are consecutive, so ties still go to the earlier records.
    const fanIn = Math.max(2, opts.fanIn ?? 64);
    let runs = paths;
    while (runs.length > fanIn) {
      const next: string[] = [];
      for (let g = 0; g < runs.length; g += fanIn) {
        const group = runs.slice(g, g + fanIn);
        if (group.length === 1) {
          next.push(group[0]!);
          continue;
        }
        const path = join(dir!, `run-${paths.length + next.length}-${runs.length}.jsonl`);
        await writeRun(path, mergeRuns(group, batchSize));
        for (const p of group) await rm(p);
        next.push(path);
      }
      runs = next;
    }
    yield* mergeRuns(runs, batchSize);
  } finally {
    await temp?.dispose();
  }
}
