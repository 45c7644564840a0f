/** A log held in memory read by user (`Method.anonymizeByUser`), and a sink that keeps what a method writes. */
import type { LogRecord, QueryLog } from "../../src/log/record.ts";
import { userBlocks } from "../../src/log/user-blocks.ts";
import type { ReleaseSink, UserPasses } from "../../src/methods/method.ts";

async function* batchesOf(records: readonly LogRecord[], size: number): AsyncGenerator<LogRecord[]> {
  for (let i = 0; i < records.length; i += size) yield records.slice(i, i + size);
}

/** Passes over `log`'s records in batches of `size`, counting how many passes were asked for. */
export function userPasses(log: QueryLog, size = 64): UserPasses & { count: number } {
  return {
    count: 0,
    format: log.format,
    classified: log.classified,
    pass() {
      this.count++;
      return userBlocks(batchesOf(log.records, size));
    },
  };
}

/** A sink that keeps every record written to it, in order. */
export function keptSink(): ReleaseSink & { records: LogRecord[] } {
  const records: LogRecord[] = [];
  return {
    records,
    write(batch) {
      records.push(...batch);
      return undefined;
    },
  };
}
