/**
 * Ingest: publishes a log's records to the cluster in batches, in input order. A batch is published in two steps
 * (`publishBatch`): each classify shard's segment on its own subject (`qm.segment.<s>`, so nats-server sends a
 * shard only its own records, not every shard every batch), then, once they are stored, the batch's commit on the
 * ingest stream naming them; the commit's stream sequence is the batch's input position for every later stage.
 * Every message carries an id derived from the batch's (`i.<n>` for the commit, `i.<n>.s<s>` for its segments),
 * so re-running an interrupted ingest stores nothing twice. The last batch's commit carries the end-of-stream
 * mark.
 */
import type { PubAck } from "@nats-io/jetstream";
import type { LogRecord } from "../log/record.ts";
import { type Bus, publish } from "./bus.ts";
import { readConfig } from "./config.ts";
import { INGEST_SUBJECT, segmentSubject } from "./topology.ts";
import { encodeCommit, encodeSegments } from "./wire.ts";

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

/**
 * Step 1 of a batch: each non-empty shard's segment, stored on the segment stream; their sequences (0 = no
 * segment). A segment published again under the same id (a retry) is dropped as a duplicate and answers with the
 * sequence of the one stored first.
 */
export async function publishSegments(
  bus: Bus,
  records: readonly LogRecord[],
  shards: number,
  id: string | undefined,
): Promise<number[]> {
  const segments = encodeSegments(records, shards);
  return Promise.all(
    segments.map(async (data, s) =>
      data === undefined
        ? 0
        : (await publish(bus, segmentSubject(s), data, id === undefined ? undefined : `${id}.s${s}`)).seq,
    ),
  );
}

/** Step 2: the commit naming the segments; its ingest stream sequence is the batch's input position. */
export function publishCommit(
  bus: Bus,
  segments: number[],
  end: boolean,
  id: string | undefined,
): Promise<PubAck> {
  return publish(bus, INGEST_SUBJECT, encodeCommit({ ...(end ? { end: true } : {}), segments }), id);
}

/** One batch, both steps (`serve --cluster`: one request = one batch). */
export async function publishBatch(
  bus: Bus,
  batch: { records: readonly LogRecord[]; end?: boolean },
  shards: number,
  id: string | undefined,
): Promise<PubAck> {
  const segments = await publishSegments(bus, batch.records, shards, id);
  return publishCommit(bus, segments, batch.end === true, id);
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
  // Segments of up to 32 batches are in flight at once; the commits go out one after another, in input order (a
  // commit waits for its own segments and for the commit before it).
  let commits: Promise<unknown> = Promise.resolve();
  for await (const b of rebatch(input, opts.batchSize ?? 1000)) {
    n++;
    records += b.records.length;
    const id = `i.${n}`;
    const segments = publishSegments(bus, b.records, classifyShards, id);
    commits = Promise.all([segments, commits])
      .then(([seqs]) => publishCommit(bus, seqs, b.end, id))
      .then((ack) => {
        if (ack.duplicate) duplicates++;
      });
    inflight.push(commits);
    if (inflight.length >= 32) await Promise.all(inflight.splice(0));
    opts.onBatch?.(b.records.length);
  }
  await Promise.all(inflight);
  return { batches: n, records, duplicates };
}
