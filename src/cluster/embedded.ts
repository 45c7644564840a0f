/**
 * The cluster's pipeline in one process: the same partitioning, the same per-partition random streams and the
 * same stage code, without servers. For the same seed and partition count its release is the cluster's (as a
 * multiset of records): the yardstick the cluster tests hold the distributed run to.
 */
import type { LogRecord } from "../log/record.ts";
import { getMethod } from "../methods/registry.ts";
import type { Stage } from "../stream/stage.ts";
import { silentProgress } from "../util/progress.ts";
import type { PipelineConfig } from "./config.ts";
import { partitionOf, partitionRng } from "./partition.ts";

export async function* runPartitioned(
  input: AsyncIterable<LogRecord[]>,
  config: Pick<PipelineConfig, "partitions" | "method" | "params" | "seed">,
): AsyncGenerator<LogRecord[]> {
  const method = getMethod(config.method);
  const params = method.parse(config.params);
  const stages: Stage[] = [];
  for (let p = 0; p < config.partitions; p++) {
    stages.push(
      await method.createStage!(
        params,
        { rng: partitionRng(config.seed, p), progress: silentProgress },
        { classified: true },
      ),
    );
  }
  for await (const batch of input) {
    const parts: LogRecord[][] = stages.map(() => []);
    for (const r of batch) parts[partitionOf(r.category ?? "", config.partitions)]!.push(r);
    const out: LogRecord[] = [];
    parts.forEach((records, p) => {
      for (const r of stages[p]!.push(records)) out.push(r);
    });
    if (out.length > 0) yield out;
  }
  const rest: LogRecord[] = [];
  for (const s of stages) for (const r of s.flush()) rest.push(r);
  if (rest.length > 0) yield rest;
}
