/**
 * Anonymizer worker for one partition: drives the method's streaming stage (the same code the embedded
 * `querymask anonymize` runs) over the partition's records in input order, publishes what each input batch
 * released under a deterministic id, and snapshots the stage with the input position it covers.
 *
 * Recovery: a restarted worker restores the last snapshot and reads the partition's subject again from the
 * stream position the snapshot names; every batch after it is processed again, exactly as before (the PRNG state
 * is in the snapshot), so it releases the same records under the same ids, which JetStream's duplicate window and
 * the idempotent sinks drop. Snapshots are written after the releases they cover are acknowledged by the server,
 * never before: a crash can repeat work, never lose it.
 */
import { hostname } from "node:os";
import type { LogRecord } from "../log/record.ts";
import { loadMethod } from "../methods/registry.ts";
import { openSnapshot, releasedBatchId, type Stage, sealSnapshot } from "../stream/stage.ts";
import { silentProgress } from "../util/progress.ts";
import { type Bus, closeOnAbort, positionedConsumer, publish } from "./bus.ts";
import { type PipelineConfig, readConfig } from "./config.ts";
import { Lease } from "./lease.ts";
import { partitionRng } from "./partition.ts";
import { CLASSIFIED_STREAM, classifiedSubject, releasedSubject } from "./topology.ts";
import { decode, encode, type WireBatch } from "./wire.ts";

/** The input position an anonymizer's snapshot covers. */
export interface AnonymizerPosition {
  /** The next input position (ingest sequence) to process. */
  readonly nextInSeq: number;
  /** Stream sequence of QM_CLASSIFIED to read from on restore: everything before it is processed. */
  readonly resumeStreamSeq: number;
  /** The end of stream is processed (and flushed): nothing is left to do. */
  readonly ended: boolean;
}

export interface AnonymizerSnapshot extends AnonymizerPosition {
  readonly stage: unknown;
}

const isPosition = (p: unknown): p is AnonymizerPosition => {
  const o = p as Partial<AnonymizerPosition> | null;
  return (
    typeof o === "object" &&
    o !== null &&
    Number.isInteger(o.nextInSeq) &&
    o.nextInSeq! >= 1 &&
    Number.isInteger(o.resumeStreamSeq) &&
    o.resumeStreamSeq! >= 1 &&
    typeof o.ended === "boolean"
  );
};

export const snapshotKey = (p: number): string => `anon_${p}`;
const scopeOf = (method: string, partition: number) => ({ method, scope: `partition ${partition}` });

export interface AnonymizeHooks {
  readonly signal?: AbortSignal;
  /** Snapshot after this many input batches (default 16) and at the end. */
  readonly snapshotEvery?: number;
}

/**
 * Partition p's snapshot (stage contract, src/stream/stage.ts: schema version, method, partition, input position
 * and digest checked), or undefined when it has none yet; a wrong or damaged one throws {@link SnapshotError}.
 */
export async function readSnapshot(
  bus: Bus,
  partition: number,
  method?: string,
): Promise<AnonymizerSnapshot | undefined> {
  const e = await bus.state.get(snapshotKey(partition));
  if (e?.operation !== "PUT" || e.value.length === 0) return undefined;
  const m = method ?? (await readConfig(bus)).method;
  const { position, state } = openSnapshot(
    e.string(),
    scopeOf(m, partition),
    isPosition,
    `snapshot ${snapshotKey(partition)} of the state bucket`,
  );
  return { ...position, stage: state };
}

/** The parts of one ingest batch from several classify shards, back in input order (by index in the batch). */
export function mergeShards(parts: readonly WireBatch[]): LogRecord[] {
  if (parts.length === 1) return parts[0]!.records;
  const at: { ix: number; r: LogRecord }[] = [];
  for (const p of parts) {
    if (p.ix === undefined || p.ix.length !== p.records.length)
      throw new Error(`classified batch ${p.inSeq} from shard ${String(p.shard)} carries no record indexes`);
    for (let i = 0; i < p.records.length; i++) at.push({ ix: p.ix[i]!, r: p.records[i]! });
  }
  at.sort((a, b) => a.ix - b.ix);
  return at.map((x) => x.r);
}

export async function runAnonymizeWorker(
  bus: Bus,
  partition: number,
  hooks: AnonymizeHooks = {},
): Promise<void> {
  const config = await readConfig(bus);
  if (partition < 0 || partition >= config.partitions) {
    throw new Error(`partition ${partition} does not exist (the run has ${config.partitions})`);
  }
  const lease = await Lease.acquire(bus.state, `lease_${partition}`, `${hostname()}:${process.pid}`);
  try {
    await drive(bus, partition, config, hooks, lease);
  } finally {
    await lease.release();
  }
}

async function drive(
  bus: Bus,
  partition: number,
  config: PipelineConfig,
  hooks: AnonymizeHooks,
  lease: Lease,
): Promise<void> {
  const method = await loadMethod(config.method);
  const params = method.parse(config.params);
  const snap = await readSnapshot(bus, partition, config.method);
  if (snap?.ended) return;
  const ctx = { rng: partitionRng(config.seed, partition, config.partitions), progress: silentProgress };
  const stage: Stage = await method.createStage!(params, ctx, {
    classified: true,
    ...(snap ? { snapshot: snap.stage } : {}),
  });
  let nextInSeq = snap?.nextInSeq ?? 1;
  let lastStreamSeq = (snap?.resumeStreamSeq ?? 1) - 1;
  const every = hooks.snapshotEvery ?? 16;
  let sinceSnapshot = 0;
  const shards = config.classifyShards;
  /** Input batches not yet processed: the parts (one per classify shard) that have arrived, by shard. */
  const waiting = new Map<number, Map<number, { streamSeq: number; batch: WireBatch }>>();
  const consumer = await positionedConsumer(
    bus,
    CLASSIFIED_STREAM,
    `anon_${partition}`,
    classifiedSubject(partition),
    snap?.resumeStreamSeq ?? 1,
  );
  const messages = await consumer.consume({ max_messages: 64 });
  closeOnAbort(messages, hooks.signal);

  const save = async (ended: boolean) => {
    let resume = lastStreamSeq + 1;
    for (const parts of waiting.values())
      for (const w of parts.values()) resume = Math.min(resume, w.streamSeq);
    const position: AnonymizerPosition = { nextInSeq, resumeStreamSeq: resume, ended };
    const text = sealSnapshot(scopeOf(config.method, partition), position, stage.snapshot());
    lease.check();
    await bus.state.put(snapshotKey(partition), text);
    sinceSnapshot = 0;
  };

  for await (const m of messages) {
    lastStreamSeq = m.seq;
    const batch = decode<WireBatch>(m.data);
    if (batch.inSeq < nextInSeq) continue; // processed before the snapshot we restored
    const parts = waiting.get(batch.inSeq) ?? new Map();
    waiting.set(batch.inSeq, parts);
    parts.set(batch.shard ?? 0, { streamSeq: m.seq, batch });
    let ended = false;
    for (let w = waiting.get(nextInSeq); w !== undefined && w.size === shards; w = waiting.get(nextInSeq)) {
      waiting.delete(nextInSeq);
      const input = mergeShards([...w.values()].map((x) => x.batch));
      const out: LogRecord[] = stage.push(input);
      if (w.values().next().value!.batch.end) {
        for (const r of stage.flush()) out.push(r);
        ended = true;
      }
      lease.check();
      if (out.length > 0 || ended) {
        const inSeq = nextInSeq;
        await publish(
          bus,
          releasedSubject(partition),
          encode({
            partition,
            inSeq,
            ...(ended ? { end: true } : {}),
            records: out,
          }),
          releasedBatchId(partition, inSeq),
        );
      }
      nextInSeq++;
      sinceSnapshot++;
      if (ended) break;
    }
    if (ended) {
      await save(true);
      break;
    }
    if (sinceSnapshot >= every) await save(false);
  }
}
