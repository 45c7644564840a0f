/**
 * Profile writer: reads the released stream and keeps per-user category profiles in a {@link ProfileSink}
 * (PostgreSQL in the cluster; the embedded SQLite store offers the same). The released batches that have arrived
 * are applied together in one transaction, each keyed by its id ({@link ProfileSink.applyBatches}), and
 * acknowledged after the commit: a crash between the two redelivers batches that are then skipped.
 */
import type { LogRecord } from "../log/record.ts";
import { categoryAt } from "../profile/profiler.ts";
import type { ProfileDelta, ProfileSink, SinkBatch } from "../profile/store.ts";
import { releasedBatchId } from "../stream/stage.ts";
import { type Bus, closeOnAbort, grouped, workConsumer } from "./bus.ts";
import { readConfig } from "./config.ts";
import { RELEASED_STREAM } from "./topology.ts";
import { decode, type ReleasedBatch } from "./wire.ts";

/** Profile deltas of one released batch: one query per event (consecutive rows of one search count once). */
export function batchDeltas(records: readonly LogRecord[], depth: number): ProfileDelta[] {
  const agg = new Map<string, Map<string, number>>();
  let prev: LogRecord | undefined;
  for (const r of records) {
    const same = prev !== undefined && prev.user === r.user && prev.time === r.time && prev.query === r.query;
    prev = r;
    if (same) continue;
    const cat = categoryAt(r.category ?? "", depth);
    let m = agg.get(r.user);
    if (m === undefined) {
      m = new Map();
      agg.set(r.user, m);
    }
    m.set(cat, (m.get(cat) ?? 0) + 1);
  }
  const out: ProfileDelta[] = [];
  for (const [user, m] of agg) for (const [category, count] of m) out.push({ user, category, count });
  return out;
}

export interface ProfileHooks {
  /** Stop once every partition's end-of-stream batch has been applied. */
  readonly untilEnd?: boolean;
  readonly signal?: AbortSignal;
}

export async function runProfileWriter(
  bus: Bus,
  store: ProfileSink,
  hooks: ProfileHooks = {},
): Promise<void> {
  const config = await readConfig(bus);
  const consumer = await workConsumer(bus, RELEASED_STREAM, "profile", "qm.released.*", 5_000);
  // Done when every partition's end is applied AND the consumer holds nothing undelivered or unacknowledged: a
  // writer killed mid-group leaves batches that come back only after the ack wait, possibly after the ends (a
  // writer that stopped at the ends alone lost them). A writer (re)started when all is done returns at once,
  // instead of waiting forever for an end that already came.
  const allApplied = async (): Promise<boolean> => {
    if ((await store.countApplied("end.")) !== config.partitions) return false;
    const info = await consumer.info();
    return info.num_pending === 0 && info.num_ack_pending === 0;
  };
  if (hooks.untilEnd && (await allApplied())) return;
  // Some end already applied (by this writer or one before a crash): from here on each group checks for done.
  let endsSeen = (await store.countApplied("end.")) > 0;
  const messages = await consumer.consume({ max_messages: 32 });
  closeOnAbort(messages, hooks.signal);
  // What has arrived is applied together: one transaction for a group of released batches, each under its id.
  for await (const group of grouped(messages, 32)) {
    const batches: SinkBatch[] = [];
    let ends = 0;
    for (const m of group) {
      const b = decode<ReleasedBatch>(m.data);
      batches.push({
        id: releasedBatchId(b.partition, b.inSeq),
        deltas: batchDeltas(b.records, config.profileDepth),
      });
      if (b.end) {
        batches.push({ id: `end.${b.partition}`, deltas: [] });
        ends++;
      }
    }
    await store.applyBatches(batches);
    // After the commit; an acknowledgement lost on the way redelivers batches the sink then skips.
    endsSeen ||= ends > 0;
    if (!(hooks.untilEnd && endsSeen)) {
      for (const m of group) m.ack();
      continue;
    }
    // Near the end, wait for the server to take the acknowledgements, so the consumer's counts are current.
    await Promise.all(group.map((m) => m.ackAck()));
    if (await allApplied()) break;
  }
}
