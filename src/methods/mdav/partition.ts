/**
 * The semantic data partition (paper 004 §4.2), exact or blocked.
 *
 * - `exact`: Algorithm 1 over all users (O(n²) Ds evaluations and an n×n Float32 matrix: fine to ~10,000 users).
 * - `blocked`: users are blocked by dominant category path ({@link blockUsers}) and exact MDAV runs on each block,
 *   in `workers` worker threads (0 = in this thread). The partition is the same whatever the number of workers.
 */
import { availableParallelism } from "node:os";
import type { Worker } from "node:worker_threads";
import type { CategorySpace } from "../../semantic/category-space.ts";
import type { Profile } from "../../semantic/profile.ts";
import type { Progress } from "../../util/progress.ts";
import { spawnModuleWorker } from "../../util/worker.ts";
import type { BlockAnswer, BlockMessage, InitMessage } from "./block-worker.ts";
import { blockUsers } from "./blocking.ts";
import { exactSemanticPartition } from "./partition-exact.ts";

export type Variant = "exact" | "blocked";

export interface PartitionOptions {
  readonly k: number;
  readonly variant: Variant;
  /** Users per block (blocked variant). */
  readonly blockSize: number;
  /** Worker threads for the blocked variant; default: available cores, capped by the number of blocks. */
  readonly workers?: number;
  readonly progress?: Progress;
}

export async function semanticPartition(
  space: CategorySpace,
  profiles: readonly Profile[],
  opts: PartitionOptions,
): Promise<Int32Array[]> {
  const n = profiles.length;
  if (partitionsWhole(opts, n)) {
    opts.progress?.start("mdav: distances", n);
    const clusters = exactSemanticPartition(space, profiles, opts.k, () => opts.progress?.tick());
    opts.progress?.stop();
    return clusters;
  }
  const blocks = blockUsers(space, profiles, opts.blockSize, 2 * opts.k);
  return partitionBlocks(space, blocks, (u) => profiles[u]!, opts);
}

/** Whether {@link semanticPartition} runs exact MDAV on all `n` users at once (else on blocks). */
export function partitionsWhole(opts: Pick<PartitionOptions, "variant" | "blockSize">, n: number): boolean {
  return opts.variant === "exact" || n <= opts.blockSize;
}

/**
 * The blocked variant's partition once the blocks are cut: exact MDAV on each block (in worker threads or in
 * this one), clusters in block order with global user indices. `profileOf(u)` gives user u's profile, so a caller
 * can make the profiles of one block at a time.
 */
export async function partitionBlocks(
  space: CategorySpace,
  blocks: readonly number[][],
  profileOf: (u: number) => Profile,
  opts: Pick<PartitionOptions, "k" | "workers" | "progress">,
): Promise<Int32Array[]> {
  const workers = Math.min(opts.workers ?? availableParallelism(), blocks.length);
  opts.progress?.start("mdav: blocks", blocks.length);
  const local =
    workers <= 0
      ? blocks.map((b) => {
          const c = exactSemanticPartition(space, b.map(profileOf), opts.k);
          opts.progress?.tick();
          return c;
        })
      : await inWorkers(space, profileOf, blocks, opts.k, workers, () => opts.progress?.tick());
  opts.progress?.stop();
  const out: Int32Array[] = [];
  local.forEach((clusters, b) => {
    const ids = blocks[b]!;
    for (const c of clusters) out.push(Int32Array.from(c, (i) => ids[i]!));
  });
  return out;
}

async function inWorkers(
  space: CategorySpace,
  profileOf: (u: number) => Profile,
  blocks: readonly number[][],
  k: number,
  count: number,
  onDone: () => void,
): Promise<Int32Array[][]> {
  const results: Int32Array[][] = new Array(blocks.length);
  let next = 0;
  const init: InitMessage = { type: "init", parents: space.parents(), depths: space.depth };
  const run = (w: Worker) =>
    new Promise<void>((resolve, reject) => {
      const send = () => {
        if (next >= blocks.length) return resolve();
        const id = next++;
        const msg: BlockMessage = { type: "block", id, k, profiles: blocks[id]!.map(profileOf) };
        w.postMessage(msg);
      };
      w.on("message", (a: BlockAnswer) => {
        results[a.id] = a.clusters;
        onDone();
        send();
      });
      w.on("error", reject);
      w.postMessage(init);
      send();
    });
  const pool = Array.from({ length: count }, spawnWorker);
  try {
    await Promise.all(pool.map(run));
  } finally {
    await Promise.all(pool.map((w) => w.terminate()));
  }
  return results;
}

/** A block worker (the `.ts` module under tsx, the compiled `.js` otherwise). */
function spawnWorker(): Worker {
  const ext = import.meta.url.endsWith(".ts") ? "ts" : "js";
  return spawnModuleWorker(new URL(`./block-worker.${ext}`, import.meta.url));
}
