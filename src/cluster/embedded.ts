/**
 * The cluster's pipeline in one process: the same partitioning, the same per-partition random streams and the
 * same stage code, without servers. For the same seed and partition count its release is the cluster's (as a
 * multiset of records): the yardstick the cluster tests hold the distributed run to. The service's embedded
 * runtime drives the same {@link PartitionedStages}.
 */
import type { LogRecord } from "../log/record.ts";
import { getMethod } from "../methods/registry.ts";
import type { Stage } from "../stream/stage.ts";
import { silentProgress } from "../util/progress.ts";
import type { PipelineConfig } from "./config.ts";
import { partitionOf, partitionRng } from "./partition.ts";

export type PartitionedConfig = Pick<PipelineConfig, "partitions" | "method" | "params" | "seed">;

export interface PartitionedSnapshot {
  readonly version: 1;
  readonly method: string;
  readonly partitions: number;
  /** Input records consumed so far (the input position the snapshot covers). */
  readonly position: number;
  readonly stages: unknown[];
}

export class PartitionedStages {
  private position = 0;

  private constructor(
    private readonly config: PartitionedConfig,
    private readonly stages: Stage[],
  ) {}

  static async create(config: PartitionedConfig, snapshot?: PartitionedSnapshot): Promise<PartitionedStages> {
    const method = getMethod(config.method);
    if (!method.createStage) throw new Error(`${config.method} has no streaming stage`);
    const params = method.parse(config.params);
    if (
      snapshot &&
      (snapshot.version !== 1 ||
        snapshot.method !== config.method ||
        snapshot.partitions !== config.partitions)
    ) {
      throw new Error(
        `the saved state is of ${snapshot.method} with ${snapshot.partitions} partitions (version ${snapshot.version}); this run is ${config.method} with ${config.partitions}`,
      );
    }
    const stages: Stage[] = [];
    for (let p = 0; p < config.partitions; p++) {
      const ctx = { rng: partitionRng(config.seed, p), progress: silentProgress };
      stages.push(
        await method.createStage(params, ctx, {
          classified: true,
          ...(snapshot ? { snapshot: snapshot.stages[p] } : {}),
        }),
      );
    }
    const s = new PartitionedStages(config, stages);
    s.position = snapshot?.position ?? 0;
    return s;
  }

  /** Push classified records; returns what they caused to be released, partition by partition. */
  push(batch: readonly LogRecord[]): LogRecord[] {
    const parts: LogRecord[][] = this.stages.map(() => []);
    for (const r of batch) parts[partitionOf(r.category ?? "", this.config.partitions)]!.push(r);
    const out: LogRecord[] = [];
    parts.forEach((records, p) => {
      for (const r of this.stages[p]!.push(records)) out.push(r);
    });
    this.position += batch.length;
    return out;
  }

  flush(): LogRecord[] {
    const out: LogRecord[] = [];
    for (const s of this.stages) for (const r of s.flush()) out.push(r);
    return out;
  }

  snapshot(): PartitionedSnapshot {
    return {
      version: 1,
      method: this.config.method,
      partitions: this.config.partitions,
      position: this.position,
      stages: this.stages.map((s) => s.snapshot()),
    };
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
