/**
 * Ingest: publishes a log's records to the ingest stream in batches, in input order, each under an id derived from
 * its position (`i.<n>`), so re-running an interrupted ingest does not enqueue a batch twice, and each split by
 * the run's classify shards (`encodeSharded`). The last batch carries the end-of-stream mark. The stream sequence
 * of a batch is its input position for every later stage.
 */
import type { LogRecord } from "../log/record.ts";
import { type Bus, publish } from "./bus.ts";
import { readConfig } from "./config.ts";
import { INGEST_SUBJECT } from "./topology.ts";
import { encodeSharded } from "./wire.ts";

/** Re-cut batches to `size` records; the last one out carries `end`. */
export async function* rebatch(
  input: AsyncIterable<LogRecord[]>,
  size: number,
): AsyncGenerator<{ records: LogRecord[]; end: boolean }> {
  let buf: LogRecord[] = [];
  for await (const batch of input) {
    for (const r of batch) {
      buf.push(r);
      if (buf.length === size) {
        const out = buf;
        buf = [];
        yield { records: out, end: false };
      }
    }
  }
  yield { records: buf, end: true };
}

export interface IngestResult {
  readonly batches: number;
  readonly records: number;
  readonly duplicates: number;
}

export async function ingest(
  bus: Bus,
  input: AsyncIterable<LogRecord[]>,
  opts: { batchSize?: number; onBatch?: (records: number) => void } = {},
): Promise<IngestResult> {
  const { classifyShards } = await readConfig(bus);
  let n = 0;
  let records = 0;
  let duplicates = 0;
  const inflight: Promise<unknown>[] = [];
  for await (const b of rebatch(input, opts.batchSize ?? 1000)) {
    n++;
    records += b.records.length;
    const payload = encodeSharded({ ...(b.end ? { end: true } : {}), records: b.records }, classifyShards);
    inflight.push(
      publish(bus, INGEST_SUBJECT, payload, `i.${n}`).then((ack) => {
        if (ack.duplicate) duplicates++;
      }),
    );
    // Keep a bounded window of unacknowledged publishes: order is kept (one connection), memory is bounded.
    if (inflight.length >= 32) await Promise.all(inflight.splice(0));
    opts.onBatch?.(b.records.length);
  }
  await Promise.all(inflight);
  return { batches: n, records, duplicates };
}
