/** A log held in memory read by user (`Method.anonymizeByUser`), and a sink that keeps what a method writes. */
import assert from "node:assert/strict";
import type { LogRecord, QueryLog } from "../../src/log/record.ts";
import { userBlocks } from "../../src/log/user-blocks.ts";
import type { Method, Release, ReleaseSink, UserPasses } from "../../src/methods/method.ts";
import { silentProgress } from "../../src/util/progress.ts";
import { Rng } from "../../src/util/random.ts";

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

/**
 * `method` read by user gives the batch release: the same records written to its sink, in order, the same counts,
 * and (without a sink) the same log and origins. Returns the batch release.
 */
export async function assertSameByUser<P>(
  method: Method<P>,
  input: QueryLog,
  raw: Record<string, unknown>,
  seed = 1,
): Promise<Release> {
  const params = method.parse(raw);
  const ctx = () => ({ rng: Rng.fromSeed(seed), progress: silentProgress });
  const batch = await method.anonymize(input, params, ctx());
  const out = keptSink();
  const streamed = await method.anonymizeByUser!(userPasses(input, 7), params, ctx(), out);
  assert.equal(streamed.log, undefined, "written to the sink, not held");
  assert.deepEqual(out.records, batch.log!.records);
  assert.deepEqual(streamed.counts, batch.counts);
  assert.deepEqual(streamed.guarantee, batch.guarantee);
  const held = await method.anonymizeByUser!(userPasses(input), params, ctx());
  assert.deepEqual(held.log, batch.log);
  assert.deepEqual(held.origin, batch.origin);
  return batch;
}
