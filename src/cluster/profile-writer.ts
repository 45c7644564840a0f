/**
 * Profile writer: reads the released stream and keeps per-user category profiles in a {@link ProfileSink}
 * (PostgreSQL in the cluster; the embedded SQLite store offers the same). Each released
 * batch is applied in one transaction keyed by its id (see {@link PgProfileStore.addBatch}) and acknowledged
 * after the commit: a crash between the two redelivers a batch that is then skipped.
 */
import type { LogRecord } from "../log/record.ts";
import { categoryAt } from "../profile/profiler.ts";
import type { ProfileDelta, ProfileSink } from "../profile/store.ts";
import { type Bus, workConsumer } from "./bus.ts";
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
  onBatch?(id: string, applied: boolean): void;
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
  const messages = await consumer.consume({ max_messages: 16 });
  hooks.signal?.addEventListener("abort", () => void messages.close());
  for await (const m of messages) {
    const b = decode<ReleasedBatch>(m.data);
    const id = `r.${b.partition}.${b.inSeq}`;
    const applied = await store.applyBatch(id, batchDeltas(b.records, config.profileDepth));
    await m.ackAck();
    hooks.onBatch?.(id, applied);
    if (b.end) await store.applyBatch(`end.${b.partition}`, []);
    if (hooks.untilEnd && b.end && (await store.countApplied("end.")) === config.partitions) break;
  }
}
