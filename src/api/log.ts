/**
 * Logs in and out, for library callers: whole logs in memory ({@link readLog}, {@link writeLog}) and streams of
 * record batches with memory flat in the log size ({@link openLog}, {@link writeLogStream}). Bad input throws an
 * {@link InputError} naming `file:line: reason`, as the CLI reports it; `lenient` sets bad lines aside and counts
 * them instead.
 */
import { loadLog, type OpenedLog, openLog as openLogInternal, type ReadOptions } from "../log/read.ts";
import type { LogFormat, LogRecord, QueryLog } from "../log/record.ts";
import { writeBatches, writeLog as writeLogInternal } from "../log/write.ts";
import { type ProgressCallback, progressOf } from "./progress.ts";

export interface ReadLogOptions {
  /** Force a layout; default "auto" (by file name, then by the first line). */
  readonly format?: LogFormat | "auto";
  /** Set bad lines aside (counted in `rejected`) instead of throwing at the first one. */
  readonly lenient?: boolean;
  /** With `lenient`: write the rejected lines, with their reasons, to this file (raw input rows: keep private). */
  readonly rejectsPath?: string;
  /** Records read so far. */
  readonly onProgress?: ProgressCallback;
}

/** A whole log read into memory, with the number of bad lines set aside (0 unless `lenient`). */
export interface ReadLog extends QueryLog {
  readonly rejected: number;
}

/** A log opened for streaming: its layout is known before the first record is read. */
export interface LogStream {
  readonly files: readonly string[];
  readonly format: LogFormat;
  /** Whether the (first) file carries the classifier's columns (category, unit). */
  readonly classified: boolean;
  /** The records, in batches; read once. */
  batches(): AsyncGenerator<LogRecord[]>;
  /** Bad lines set aside so far (lenient mode). */
  readonly rejected: number;
  /** Flush the rejects file (lenient mode with `rejectsPath`); call after reading. */
  close(): Promise<void>;
}

function readOptions(opts: ReadLogOptions): ReadOptions {
  return {
    ...(opts.format ? { format: opts.format } : {}),
    lenient: opts.lenient ?? false,
    ...(opts.rejectsPath ? { rejectsPath: opts.rejectsPath } : {}),
    progress: progressOf(opts.onProgress),
  };
}

/** Read one or more logs (paths or glob patterns; plain or gzip; AOL, Excite or NDJSON) into memory. */
export async function readLog(
  paths: string | readonly string[],
  opts: ReadLogOptions = {},
): Promise<ReadLog> {
  const o = readOptions(opts);
  o.progress?.start("read");
  const log = await loadLog(typeof paths === "string" ? [paths] : paths, o);
  o.progress?.stop();
  return { records: log.records, format: log.format, classified: log.classified, rejected: log.rejected };
}

/** Open one or more logs for streaming (memory flat in the log size). */
export async function openLog(
  paths: string | readonly string[],
  opts: ReadLogOptions = {},
): Promise<LogStream> {
  const log: OpenedLog = await openLogInternal(
    typeof paths === "string" ? [paths] : paths,
    readOptions(opts),
  );
  return {
    files: log.files,
    format: log.format,
    classified: log.classified,
    batches: () => log.batches(),
    get rejected() {
      return log.rejects.count;
    },
    close: () => log.rejects.close(),
  };
}

/**
 * Write a whole log atomically (temp file, fsync, rename; `.gz` compresses), in `format` (default: the log's
 * own). An existing file at `path` is replaced only once the new one is complete.
 */
export function writeLog(path: string, log: QueryLog, format: LogFormat = log.format): Promise<void> {
  return writeLogInternal(path, log, format);
}

/**
 * Write a stream of record batches atomically; `classified` adds the classifier's columns (AOL layout). Returns
 * the number of records written.
 */
export function writeLogStream(
  path: string,
  format: LogFormat,
  batches: AsyncIterable<readonly LogRecord[]>,
  opts: { readonly classified?: boolean } = {},
): Promise<number> {
  return writeBatches(
    path,
    format,
    batches,
    opts.classified === undefined ? {} : { classified: opts.classified },
  );
}
