/**
 * The cluster's pipeline in one process: the same partitioning, the same per-partition random streams and the
 * same stage code, without servers. For the same seed and partition count its release is the cluster's (as a
 * multiset of records): the yardstick the cluster tests hold the distributed run to. The service's embedded
 * runtime drives the same {@link PartitionedStages}.
 */
import type { LogRecord } from "../log/record.ts";
import { loadMethod, loadMethods } from "../methods/registry.ts";
import {
  openSnapshot,
  releasedRecordId,
  SnapshotError,
  type SnapshotScope,
  type Stage,
  sealSnapshot,
} from "../stream/stage.ts";
import { UsageError } from "../util/errors.ts";
import { silentProgress } from "../util/progress.ts";
import type { PipelineConfig } from "./config.ts";
import { partitionOf, partitionRng } from "./partition.ts";

export type PartitionedConfig = Pick<PipelineConfig, "partitions" | "method" | "params" | "seed">;

/** A released record with its deterministic id ({@link releasedRecordId}). */
export interface Identified {
  readonly id: string;
  readonly record: LogRecord;
}

const isCount = (p: unknown): p is number => Number.isInteger(p) && (p as number) >= 0;

export class PartitionedStages {
  /** Input batches consumed so far: the input position a snapshot covers; batch n (from 1) is position n. */
  private position = 0;

  private constructor(
    private readonly config: PartitionedConfig,
    private readonly stages: Stage[],
  ) {}

  /** The input batches consumed so far (the position the next batch gets is one more). */
  get inputPosition(): number {
    return this.position;
  }

  private static scope(config: PartitionedConfig): SnapshotScope {
    return { method: config.method, scope: `${config.partitions} partitions` };
  }

  /**
   * The stages of `config`, fresh or resumed from `snapshot` (text from {@link PartitionedStages.snapshot}); a
   * snapshot of another method, partition count or schema version, or a damaged one, is refused
   * ({@link SnapshotError}) rather than resumed wrongly. `what` names it in the message (e.g. the file).
   */
  static async create(
    config: PartitionedConfig,
    snapshot?: string,
    what = "saved state",
  ): Promise<PartitionedStages> {
    const method = await loadMethod(config.method);
    if (!method.createStage) {
      const streaming = (await loadMethods()).filter((m) => m.createStage !== undefined).map((m) => m.name);
      throw new UsageError(
        `${config.method} is not a streaming method; a stream runs ${streaming.join(", ")} (anonymize runs the others on a file)`,
      );
    }
    const params = method.parse(config.params);
    const opened =
      snapshot === undefined
        ? undefined
        : openSnapshot(snapshot, PartitionedStages.scope(config), isCount, what);
    const states = opened?.state;
    if (opened && (!Array.isArray(states) || states.length !== config.partitions))
      throw new SnapshotError(`${what}: does not hold one stage state per partition; not restored`);
    const stages: Stage[] = [];
    for (let p = 0; p < config.partitions; p++) {
      const ctx = { rng: partitionRng(config.seed, p, config.partitions), progress: silentProgress };
      stages.push(
        await method.createStage(params, ctx, {
          classified: true,
          ...(opened ? { snapshot: (states as unknown[])[p] } : {}),
        }),
      );
    }
    const s = new PartitionedStages(config, stages);
    s.position = opened?.position ?? 0;
    return s;
  }

  /** Push classified records; returns what they caused to be released, partition by partition. */
  push(batch: readonly LogRecord[]): LogRecord[] {
    return this.pushIdentified(batch).map((x) => x.record);
  }

  /** {@link push}, each released record with its id: partition, this batch's input position, index. */
  pushIdentified(batch: readonly LogRecord[]): Identified[] {
    const parts: LogRecord[][] = this.stages.map(() => []);
    for (const r of batch) parts[partitionOf(r.category ?? "", this.config.partitions)]!.push(r);
    const position = ++this.position;
    const out: Identified[] = [];
    parts.forEach((records, p) => {
      this.stages[p]!.push(records).forEach((record, i) => {
        out.push({ id: releasedRecordId(p, position, i), record });
      });
    });
    return out;
  }

  flush(): LogRecord[] {
    const out: LogRecord[] = [];
    for (const s of this.stages) for (const r of s.flush()) out.push(r);
    return out;
  }

  /** The whole state with the input position it covers, sealed (stage contract, src/stream/stage.ts). */
  snapshot(): string {
    return sealSnapshot(
      PartitionedStages.scope(this.config),
      this.position,
      this.stages.map((s) => s.snapshot()),
    );
  }

  /** Each partition's counts (held events, current k, …), for metrics. */
  counts(): Record<string, number>[] {
    return this.stages.map((s) => s.counts());
  }
}

export async function* runPartitioned(
  input: AsyncIterable<LogRecord[]>,
  config: PartitionedConfig,
): AsyncGenerator<LogRecord[]> {
  const stages = await PartitionedStages.create(config);
  for await (const batch of input) {
    const out = stages.push(batch);
    if (out.length > 0) yield out;
  }
  const rest = stages.flush();
  if (rest.length > 0) yield rest;
}
