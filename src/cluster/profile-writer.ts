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
  // A writer started (or restarted) after every partition's end is applied has nothing left to wait for: without
  // this check it waited forever for an end of stream that had already come.
  if (hooks.untilEnd && (await store.countApplied("end.")) === config.partitions) return;
  const consumer = await workConsumer(bus, RELEASED_STREAM, "profile", "qm.released.*", 5_000);
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
    for (const m of group) m.ack();
    if (hooks.untilEnd && ends > 0 && (await store.countApplied("end.")) === config.partitions) break;
  }
}
