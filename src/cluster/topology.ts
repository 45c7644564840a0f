/**
 * The JetStream layout of the pipeline, in one place:
 *
 *   qm.segment.<s>       QM_SEGMENTS   classify shard s's part of each ingest batch (raw records with their indexes in
 *                                      the batch), read by sequence (direct get) by shard s only
 *   qm.ingest            QM_INGEST     one commit per ingest batch, in input order (stream seq = input position),
 *                                      naming its segments; each classify shard's durable consumer `classify_<s>`
 *                                      reads all of them
 *   qm.classified.<p>    QM_CLASSIFIED classified records of partition p, one message per ingest batch, partition
 *                                      and classify shard
 *   qm.released.<p>      QM_RELEASED   what partition p's anonymizer released, one message per ingest batch
 *   KV qm_state          anonymizer snapshots, key `anon_<p>`: stage state + the input position it covers
 *
 * Every message carries a `Nats-Msg-Id` that is a pure function of its content's origin (ingest batch n,
 * partition p), so a worker that replays after a crash republishes the same ids and JetStream's duplicate window
 * drops them; the PostgreSQL sink is idempotent on the same ids.
 */
import type { JetStreamManager } from "@nats-io/jetstream";
import { DiscardPolicy, RetentionPolicy, StorageType } from "@nats-io/jetstream";

export const INGEST_STREAM = "QM_INGEST";
export const SEGMENT_STREAM = "QM_SEGMENTS";
export const CLASSIFIED_STREAM = "QM_CLASSIFIED";
export const RELEASED_STREAM = "QM_RELEASED";
export const STATE_BUCKET = "qm_state";

export const INGEST_SUBJECT = "qm.ingest";
export const segmentSubject = (shard: number): string => `qm.segment.${shard}`;
export const classifiedSubject = (p: number): string => `qm.classified.${p}`;
export const releasedSubject = (p: number): string => `qm.released.${p}`;

/** How long JetStream remembers message ids: longer than any restart we expect. */
const DUPLICATE_WINDOW_NS = 60 * 60 * 1e9;

/** Create the streams if they do not exist (idempotent). */
export async function ensureStreams(jsm: JetStreamManager): Promise<void> {
  const streams = [
    // Kept by limits, not a work queue: every classify shard reads every commit (each its own durable consumer).
    { name: INGEST_STREAM, subjects: [INGEST_SUBJECT], retention: RetentionPolicy.Limits },
    // Read by sequence, each segment by its own shard only: direct gets, no consumer.
    {
      name: SEGMENT_STREAM,
      subjects: ["qm.segment.*"],
      retention: RetentionPolicy.Limits,
      allow_direct: true,
    },
    { name: CLASSIFIED_STREAM, subjects: ["qm.classified.*"], retention: RetentionPolicy.Limits },
    { name: RELEASED_STREAM, subjects: ["qm.released.*"], retention: RetentionPolicy.Limits },
  ];
  for (const s of streams) {
    try {
      await jsm.streams.info(s.name);
    } catch {
      await jsm.streams.add({
        name: s.name,
        subjects: s.subjects,
        retention: s.retention,
        ...(s.allow_direct ? { allow_direct: true } : {}),
        storage: StorageType.File,
        discard: DiscardPolicy.Old,
        duplicate_window: DUPLICATE_WINDOW_NS,
      });
    }
  }
}

/** Delete the streams and the state bucket: the next run starts from input position 1. */
export async function resetStreams(jsm: JetStreamManager): Promise<void> {
  for (const name of [
    INGEST_STREAM,
    SEGMENT_STREAM,
    CLASSIFIED_STREAM,
    RELEASED_STREAM,
    `KV_${STATE_BUCKET}`,
  ]) {
    try {
      await jsm.streams.delete(name);
    } catch {
      // absent already
    }
  }
}
