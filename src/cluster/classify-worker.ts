/**
 * Classify worker: stateless, as many as you start. Takes ingest batches from the work queue, gives each record
 * without a category the classifier's category (and scrubbed text), splits the batch by partition and publishes
 * one message per partition (empty ones too, so each anonymizer sees every input position and can keep input
 * order), then acknowledges the ingest batch. A crash before the acknowledgement redelivers the batch; the
 * republished messages carry the same ids and are dropped as duplicates.
 */
import { type Categorize, loadCategorize } from "../classify/categorize.ts";
import type { LogRecord } from "../log/record.ts";
import { type Bus, publish, workConsumer } from "./bus.ts";
import { readConfig } from "./config.ts";
import { partitionOf } from "./partition.ts";
import { classifiedSubject, INGEST_STREAM, INGEST_SUBJECT } from "./topology.ts";
import { decode, encode, type IngestBatch } from "./wire.ts";

/** Queries that take the classifier down its lazily loaded paths (place names, spelling, the language model). */
const WARM_UP = ["weather in new york", "john smith", "britney spears lyrics", "cheap flihgts to paris"];

/** The classifier loads parts of itself on its first queries (~1.7 CPU-s): pay that before taking work. */
export function warmUp(categorize: Categorize): void {
  for (const query of WARM_UP) categorize({ user: "", query, time: 0 });
}

export interface WorkerHooks {
  readonly signal?: AbortSignal;
}

export async function runClassifyWorker(bus: Bus, hooks: WorkerHooks = {}): Promise<void> {
  const config = await readConfig(bus);
  // Load the classifier before taking work: a batch should not wait for the knowledge base.
  const categorize = await loadCategorize();
  warmUp(categorize);
  const consumer = await workConsumer(bus, INGEST_STREAM, "classify", INGEST_SUBJECT, 5_000);
  // Two batches at a time: a batch's acknowledgement clock runs from its delivery, so a deep prefetch on a loaded
  // machine lets batches time out in the buffer and be redelivered to (and classified again by) another worker.
  const messages = await consumer.consume({ max_messages: 2 });
  hooks.signal?.addEventListener("abort", () => void messages.close());
  for await (const m of messages) {
    m.working(); // restart the clock now that this batch is being worked on
    const batch = decode<IngestBatch>(m.data);
    const inSeq = m.seq;
    for (const r of batch.records) if (r.category === undefined) categorize(r);
    const parts: LogRecord[][] = Array.from({ length: config.partitions }, () => []);
    for (const r of batch.records) parts[partitionOf(r.category ?? "", config.partitions)]!.push(r);
    await Promise.all(
      parts.map((records, p) =>
        publish(
          bus,
          classifiedSubject(p),
          encode({ inSeq, ...(batch.end ? { end: true } : {}), records }),
          `c.${inSeq}.${p}`,
        ),
      ),
    );
    await m.ackAck();
  }
}
