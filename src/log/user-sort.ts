/**
 * A log not grouped by user, sorted by user out of core: users in the order of their first row, each user's rows
 * in their original order (a stable sort by the user's first-seen rank). Records are gathered in runs of at most
 * `memoryBytes`, each run sorted and spilled to a file of its own in a temporary directory beside the output; the
 * runs are merged into one sorted file, which {@link SortedByUser.open} reads as often as a method asks, each
 * record with its original `source` (file and line), so messages, order keys and the release's log order are the
 * original file's. Bad lines are the reader's: an error at their original `file:line`, or set aside with
 * `--lenient`, while the runs are read. Memory: one run, and a number per distinct user.
 */

import { rm } from "node:fs/promises";
import { join } from "node:path";
import { temporaryDirectory } from "./atomic.ts";
import { LineFileWriter, leadingKey, mergeRuns, readLineFile } from "./line-file.ts";
import type { OpenedLog } from "./read.ts";
import type { LogRecord } from "./record.ts";
import { RejectSink } from "./rejects.ts";

export interface UserSortOptions {
  /** Parent of the temporary directory (the output's). */
  readonly tempDir: string;
  /** Bytes of records held at once while building runs (`--memory`). */
  readonly memoryBytes: number;
  /** Runs merged at once (default 64). */
  readonly fanIn?: number;
  /** Called once with the number of runs spilled (1 when the log fitted in one). */
  readonly onRuns?: (runs: number) => void;
}

/** The log sorted by user, in a temporary directory: `dispose` removes it. */
export interface SortedByUser {
  readonly rows: number;
  readonly users: number;
  /** A pass over the sorted records (the layout and files of the original; nothing in it is bad). */
  open(): OpenedLog;
  dispose(): Promise<void>;
}

/** Rows per run below which a row's index fits beside its user's rank in one sort key. */
const INDEX_SPAN = 2 ** 22;
/** What a held row costs beside its text (the string's header, the array slots). */
const ROW_OVERHEAD = 64;

/** A record as one line of a run: its sort key (a user's rank), then its fields and original position as JSON. */
export function encodeRecord(key: number, file: number, r: LogRecord): string {
  return `${key}\t${JSON.stringify([
    file,
    r.source?.line ?? 0,
    r.user,
    r.query,
    r.time,
    r.itemRank ?? null,
    r.clickUrl ?? null,
    r.category ?? null,
    r.unit ?? null,
  ])}`;
}

type Fields = [
  number,
  number,
  string,
  string,
  number,
  number | null,
  string | null,
  string | null,
  string | null,
];

/** The record of an {@link encodeRecord} line, its source a file of `files`. */
export function decodeRecord(line: string, files: readonly string[]): LogRecord {
  const f = JSON.parse(line.slice(line.indexOf("\t") + 1)) as Fields;
  const r: LogRecord = { user: f[2], query: f[3], time: f[4] };
  if (f[5] !== null) r.itemRank = f[5];
  if (f[6] !== null) r.clickUrl = f[6];
  if (f[7] !== null) r.category = f[7];
  if (f[8] !== null) r.unit = f[8];
  r.source = { file: files[f[0]]!, line: f[1] };
  return r;
}

/** Sort `log`'s records by user (see the module comment); its bad lines go to `log.rejects`, which is not closed. */
export async function sortByUser(log: OpenedLog, opts: UserSortOptions): Promise<SortedByUser> {
  const { dir, dispose } = await temporaryDirectory(opts.tempDir, ".querymask-usersort-");
  try {
    const fileIndex = new Map(log.files.map((f, i) => [f, i]));
    const rankOf = new Map<string, number>();
    let lines: string[] = [];
    let ranks: number[] = [];
    let bytes = 0;
    let rows = 0;
    const runs: string[] = [];
    const spill = async () => {
      const n = lines.length;
      const keys = new Float64Array(n);
      for (let i = 0; i < n; i++) keys[i] = ranks[i]! * INDEX_SPAN + i;
      keys.sort();
      const path = join(dir, `run-${runs.length}`);
      const w = await LineFileWriter.create(path);
      try {
        for (let k = 0; k < n; k++) {
          const behind = w.write(lines[keys[k]! % INDEX_SPAN]!);
          if (behind) await behind;
        }
      } finally {
        await w.close();
      }
      runs.push(path);
      lines = [];
      ranks = [];
      bytes = 0;
    };
    for await (const batch of log.batches()) {
      for (const r of batch) {
        let rank = rankOf.get(r.user);
        if (rank === undefined) {
          rank = rankOf.size;
          rankOf.set(r.user, rank);
        }
        const line = encodeRecord(rank, r.source ? (fileIndex.get(r.source.file) ?? 0) : 0, r);
        lines.push(line);
        ranks.push(rank);
        bytes += line.length + ROW_OVERHEAD;
        rows++;
        if (bytes >= opts.memoryBytes || lines.length >= INDEX_SPAN - 1) await spill();
      }
    }
    if (lines.length > 0 || runs.length === 0) await spill();
    const users = rankOf.size;
    rankOf.clear();
    opts.onRuns?.(runs.length);
    // One run is the sorted log already.
    const sorted = runs.length === 1 ? runs[0]! : join(dir, "sorted");
    const remove = (f: string) => rm(f, { force: true });
    if (runs.length > 1) await mergeRuns(runs, sorted, leadingKey, Math.max(2, opts.fanIn ?? 64), remove);
    const files = log.files;
    return {
      rows,
      users,
      open: () => ({
        files,
        format: log.format,
        classified: log.classified,
        rejects: new RejectSink(),
        batches: () => readSorted(sorted, files),
      }),
      dispose,
    };
  } catch (e) {
    await dispose();
    throw e;
  }
}

async function* readSorted(path: string, files: readonly string[]): AsyncGenerator<LogRecord[]> {
  let batch: LogRecord[] = [];
  for await (const lines of readLineFile(path)) {
    for (const line of lines) {
      batch.push(decodeRecord(line, files));
      if (batch.length >= 256) {
        yield batch;
        batch = [];
      }
    }
  }
  if (batch.length > 0) yield batch;
}
