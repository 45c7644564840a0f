/**
 * A release written in the original log's order when the method wrote it in another (one user at a time, from a
 * log sorted by user: ./user-sort.ts). Each record's key is its original position (its file's index among the
 * inputs, then its line); records are gathered in runs of at most `memoryBytes`, each sorted by key and spilled,
 * and `close` merges them into the release through the log writer, so the bytes are those the batch path writes
 * for the same records in log order. A release of records without a source (synthetic rows: mdav's) has no log
 * order to go back to: it is written as the method gave it.
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { temporaryDirectory } from "./atomic.ts";
import { LineFileWriter, leadingKey, mergeRuns } from "./line-file.ts";
import type { LogFormat } from "./record.ts";
import { decodeRecord, encodeRecord } from "./user-sort.ts";
import { createLogWriter, type LogWriter } from "./write.ts";

export interface LogOrderOptions {
  readonly classified: boolean;
  /** The original inputs, in order (a record's source names one). */
  readonly files: readonly string[];
  /** Parent of the temporary directory of the runs (the output's). */
  readonly tempDir: string;
  /** Bytes of records held at once (`--memory`). */
  readonly memoryBytes: number;
}

const ROW_OVERHEAD = 64;

/** A writer of `path` that puts the records back in log order (see the module comment). */
export function createLogOrderWriter(path: string, format: LogFormat, opts: LogOrderOptions): LogWriter {
  const fileIndex = new Map(opts.files.map((f, i) => [f, i]));
  let direct: LogWriter | undefined;
  let temp: Promise<{ readonly dir: string; dispose(): Promise<void> }> | undefined;
  let lines: string[] = [];
  let keys: number[] = [];
  let bytes = 0;
  let count = 0;
  const runs: string[] = [];
  // A caller may write on before awaiting a spill: each takes its lines at once, and spills run one after another.
  let spilling: Promise<void> = Promise.resolve();
  const spill = (): Promise<void> => {
    const held = lines;
    const heldKeys = keys;
    lines = [];
    keys = [];
    bytes = 0;
    const n = runs.length;
    runs.push("");
    spilling = spilling.then(async () => {
      temp ??= temporaryDirectory(opts.tempDir, ".querymask-logorder-");
      const { dir } = await temp;
      const order = Array.from({ length: held.length }, (_, i) => i).sort(
        (a, b) => heldKeys[a]! - heldKeys[b]! || a - b,
      );
      const file = join(dir, `run-${n}`);
      const w = await LineFileWriter.create(file);
      try {
        for (const i of order) {
          const behind = w.write(held[i]!);
          if (behind) await behind;
        }
      } finally {
        await w.close();
      }
      runs[n] = file;
    });
    return spilling;
  };
  const dispose = async () => {
    if (temp !== undefined) await (await temp).dispose();
  };
  return {
    write(rec) {
      count++;
      if (direct === undefined && count === 1 && rec.source === undefined) {
        direct = createLogWriter(path, format, { classified: opts.classified });
      }
      if (direct !== undefined) {
        if (rec.source !== undefined) throw new Error("a release mixed records with and without a source");
        return direct.write(rec);
      }
      const f = rec.source === undefined ? undefined : fileIndex.get(rec.source.file);
      if (f === undefined) throw new Error("a released record has no position in the log");
      const key = f * 2 ** 32 + rec.source!.line;
      const line = encodeRecord(key, f, rec);
      lines.push(line);
      keys.push(key);
      bytes += line.length + ROW_OVERHEAD;
      return bytes >= opts.memoryBytes ? spill() : undefined;
    },
    async close() {
      if (direct !== undefined) return direct.close();
      const out = createLogWriter(path, format, { classified: opts.classified });
      try {
        if (lines.length > 0) await spill();
        await spilling;
        const write = (line: string) => out.write(decodeRecord(line, opts.files));
        const remove = (f: string) => rm(f, { force: true });
        if (runs.length > 0) {
          const { dir } = await temp!;
          await mergeRuns(runs, join(dir, "merged"), leadingKey, 64, remove, write);
        }
        await out.close();
      } catch (e) {
        await out.abort();
        throw e;
      } finally {
        await dispose();
      }
    },
    async abort() {
      lines = [];
      keys = [];
      try {
        await spilling.catch(() => {});
        await direct?.abort();
      } finally {
        await dispose();
      }
    },
    get count() {
      return count;
    },
  };
}
