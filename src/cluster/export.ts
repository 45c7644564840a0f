/**
 * The released-log sink: reads the released stream from its start until every partition's end-of-stream batch
 * has arrived, and hands the records on (to a file writer, or any consumer). Duplicates were dropped at publish
 * time by their ids; the ids are checked again here, so the sink never passes a batch twice.
 */
import type { LogRecord } from "../log/record.ts";
import { releasedBatchId } from "../stream/stage.ts";
import { type Bus, positionedConsumer } from "./bus.ts";
import { readConfig } from "./config.ts";
import { RELEASED_STREAM } from "./topology.ts";
import { decode, type ReleasedBatch } from "./wire.ts";

export async function* releasedRecords(bus: Bus, sinkName = "export"): AsyncGenerator<LogRecord[]> {
  const config = await readConfig(bus);
  const consumer = await positionedConsumer(bus, RELEASED_STREAM, sinkName, "qm.released.*", 1);
  const messages = await consumer.consume({ max_messages: 64 });
  const seen = new Set<string>();
  const ended = new Set<number>();
  try {
    for await (const m of messages) {
      const b = decode<ReleasedBatch>(m.data);
      const id = releasedBatchId(b.partition, b.inSeq);
      if (seen.has(id)) continue;
      seen.add(id);
      if (b.records.length > 0) yield b.records;
      if (b.end) ended.add(b.partition);
      if (ended.size === config.partitions) return;
    }
    // The subscription closed (the connection is going away) before the end: a partial release must not pass
    // for a whole one (a file writer would commit it).
    throw new Error(
      `the released stream closed after ${ended.size} of ${config.partitions} partitions' end of stream`,
    );
  } finally {
    await messages.close();
    await bus.jsm.consumers.delete(RELEASED_STREAM, sinkName).catch(() => {});
  }
}
