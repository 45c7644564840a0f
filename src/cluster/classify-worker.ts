/**
 * Classify worker of one shard. Records are routed to classify shards by a stable hash of their query text
 * (`classifyShardOf`), so the repeats of a query all reach one worker and its memo (`loadCategorize`'s: two
 * generations of 100,000 distinct queries, what is used kept) classifies each distinct query once — with workers sharing batches
 * instead, every worker classified every query it met. Ingest splits each batch by shard: each shard's segment on
 * its own subject, then a commit on the ingest stream naming them (src/cluster/ingest.ts). Each shard has its own
 * durable consumer on the ingest stream, reads every commit and fetches only its own segment, by sequence.
 * It gives its records the classifier's category (and scrubbed text), splits them by partition
 * and publishes one message per ingest batch, partition and shard (empty ones too, so each anonymizer sees every
 * input position from every shard and can restore input order), then acknowledges the ingest batch. A crash
 * before the acknowledgement redelivers the batch; the republished messages carry the same ids
 * (`c.<inSeq>.<p>.<shard>`) and are dropped as duplicates. Two workers on one shard share its batches (correct,
 * but each meets half the shard's repeats).
 */
import { loadCategorize } from "../classify/categorize.ts";
import { warmUp } from "../classify/warm-up.ts";
import type { LogRecord } from "../log/record.ts";
import { type Bus, closeOnAbort, publish, workConsumer } from "./bus.ts";
import { readConfig } from "./config.ts";
import { withBuildLock } from "./kb-lock.ts";
import { partitionOf } from "./partition.ts";
import {
  classifiedSubject,
  INGEST_STREAM,
  INGEST_SUBJECT,
  SEGMENT_STREAM,
  segmentSubject,
} from "./topology.ts";
import { decodeCommit, decodeSegment, encode, type Segment } from "./wire.ts";

export interface WorkerHooks {
  readonly signal?: AbortSignal;
}

/** The durable consumer of classify shard s on the ingest stream. */
export const classifyConsumer = (shard: number): string => `classify_${shard}`;

/**
 * Shard `shard`'s segment stored at `seq` of the segment stream (0 = the shard has no records in the batch). A
 * direct get may be answered by a replica that has not stored it yet (R3): then the stream's leader is asked.
 */
export async function readSegment(bus: Bus, shard: number, seq: number): Promise<Segment> {
  if (seq === 0) return { records: [] };
  const m =
    (await bus.jsm.direct.getMessage(SEGMENT_STREAM, { seq }).catch(() => null)) ??
    (await bus.jsm.streams.getMessage(SEGMENT_STREAM, { seq }));
  if (m === null || m.subject !== segmentSubject(shard))
    throw new Error(
      `segment ${seq} of ${SEGMENT_STREAM} ${m === null ? "is missing" : `is ${m.subject}'s, not shard ${shard}'s`}`,
    );
  return decodeSegment(m.data);
}

/**
 * Run classify shard `shard` (0 ≤ shard < the run's classifyShards): read every ingest batch, classify its segment
 * (the records whose query hashes to this shard), and publish them per partition with their indexes in the ingest
 * batch.
 */
export async function runClassifyWorker(bus: Bus, shard: number, hooks: WorkerHooks = {}): Promise<void> {
  const config = await readConfig(bus);
  const shards = config.classifyShards;
  if (!Number.isInteger(shard) || shard < 0 || shard >= shards) {
    throw new Error(`classify shard ${shard} does not exist (the run has ${shards})`);
  }
  // Load the classifier before taking work: a batch should not wait for the knowledge base.
  const categorize = await withBuildLock(() => loadCategorize());
  warmUp(categorize);
  const consumer = await workConsumer(bus, INGEST_STREAM, classifyConsumer(shard), INGEST_SUBJECT, 5_000);
  // Two batches at a time: a batch's acknowledgement clock runs from its delivery, so a deep prefetch on a loaded
  // machine lets batches time out in the buffer and be redelivered (and classified again).
  const messages = await consumer.consume({ max_messages: 2 });
  closeOnAbort(messages, hooks.signal);
  for await (const m of messages) {
    m.working(); // restart the clock now that this batch is being worked on
    const commit = decodeCommit(m.data, shards);
    const batch = await readSegment(bus, shard, commit.segments[shard]!);
    const inSeq = m.seq;
    const parts: LogRecord[][] = Array.from({ length: config.partitions }, () => []);
    const ixs: number[][] = Array.from({ length: config.partitions }, () => []);
    const { records, ix } = batch;
    for (let i = 0; i < records.length; i++) {
      const r = records[i]!;
      if (r.category === undefined) categorize(r);
      const p = partitionOf(r.category ?? "", config.partitions);
      parts[p]!.push(r);
      ixs[p]!.push(ix === undefined ? i : ix[i]!);
    }
    await Promise.all(
      parts.map((part, p) =>
        publish(
          bus,
          classifiedSubject(p),
          encode({
            inSeq,
            ...(commit.end ? { end: true } : {}),
            ...(shards > 1 ? { shard, ix: ixs[p]! } : {}),
            records: part,
          }),
          `c.${inSeq}.${p}.${shard}`,
        ),
      ),
    );
    await m.ackAck();
  }
}
