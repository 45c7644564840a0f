/**
 * The pipeline's configuration, stored once in the state bucket (key `config`) by whoever starts a run, and read
 * by every worker: one source of truth for the partition count, the method, its parameters and the seed.
 */
import { loadMethod } from "../methods/registry.ts";
import { UsageError } from "../util/errors.ts";
import type { Bus } from "./bus.ts";

export interface PipelineConfig {
  readonly version: 2;
  readonly partitions: number;
  /**
   * Classify shards: records go to shard `classifyShardOf(query)`, each shard read by its own durable consumer, so
   * each distinct query is classified by one worker (whose memo holds it) instead of by every worker it meets.
   */
  readonly classifyShards: number;
  readonly method: string;
  /** Raw parameters as given; each worker parses them with the method's own `parse`. */
  readonly params: Readonly<Record<string, unknown>>;
  readonly seed: number;
  /** ODP depth of the profiles the profile writer keeps (1 = top level). */
  readonly profileDepth: number;
}

const KEY = "config";

export async function writeConfig(bus: Bus, config: PipelineConfig): Promise<void> {
  await checkConfig(config);
  await bus.state.put(KEY, JSON.stringify(config));
}

/**
 * Refuse a configuration no worker could run (a method without a stream stage, bad parameters, partition or shard
 * counts out of range) — called before any server is touched, so the error is the run's whole outcome.
 */
export async function checkConfig(config: PipelineConfig): Promise<void> {
  const method = await loadMethod(config.method);
  if (!method.createStage)
    throw new UsageError(
      `${config.method} has no streaming stage; the cluster runs streaming methods (swap, identity)`,
    );
  method.parse(config.params); // refuse bad parameters before any worker sees them
  if (!Number.isInteger(config.partitions) || config.partitions < 1 || config.partitions > 64) {
    throw new UsageError("partitions must be a whole number from 1 to 64");
  }
  if (!Number.isInteger(config.classifyShards) || config.classifyShards < 1 || config.classifyShards > 64) {
    throw new UsageError("classify shards must be a whole number from 1 to 64");
  }
}

/** The configuration, waiting up to `waitMs` for a run to write it. */
export async function readConfig(bus: Bus, waitMs = 30_000): Promise<PipelineConfig> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const e = await bus.state.get(KEY);
    if (e && e.operation === "PUT" && e.value.length > 0) {
      const c = e.json<PipelineConfig>();
      if (c.version !== 2)
        throw new Error(`pipeline config version ${String(c.version)} is not supported (this is version 2)`);
      return c;
    }
    if (Date.now() > deadline)
      throw new UsageError("no pipeline configuration in the cluster: start a run first");
    await new Promise((r) => setTimeout(r, 200));
  }
}
