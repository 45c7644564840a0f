/**
 * One shard's partial aggregates of a batch method (`Method.sharded`): the log read by user, the users the shard
 * owns (`userShardOf`) taken in log order and cut into batches of `batchUsers`, each batch's partial table handed
 * to `apply` (which PostgreSQL makes idempotent by (shard, batch)). The cut depends only on the log and the shard
 * count, so a worker started again makes the same batches and skips those already applied.
 */
import type { LogRecord } from "../log/record.ts";
import type { MethodContext, Release, ReleaseSink, UserPasses } from "../methods/method.ts";
import {
  forShard,
  PartialTable,
  type ShardedRelease,
  type SummedRows,
  sumInMemory,
  type UserAdder,
} from "../methods/sharded.ts";
import { userShardOf } from "./partition.ts";

export interface ShardRun {
  readonly shard: number;
  readonly shards: number;
  readonly batchUsers: number;
}

/** Passes over a log by user (`UserPasses`). */
interface Passes {
  pass(): AsyncIterable<readonly LogRecord[]>;
}

/** Batches applied, and the shard's users. */
export interface ShardTotals {
  readonly batches: number;
  readonly users: number;
}

/**
 * Compute and apply shard `run.shard`'s batches; `skip(batch)`: already applied (its users are read past without
 * being added). `order` gives a record's position in the whole log.
 */
export async function shardPartials(
  log: Passes,
  add: UserAdder,
  run: ShardRun,
  order: (r: LogRecord) => number,
  apply: (batch: number, table: PartialTable) => Promise<void>,
  skip: (batch: number) => boolean = () => false,
  onUser?: (rows: number) => void,
): Promise<ShardTotals> {
  let users = 0;
  let batch = 0;
  let table = new PartialTable();
  // One batch is sent while the next is read and added: at most one apply in flight, in batch order.
  let pending: Promise<void> = Promise.resolve();
  const send = async (b: number, t: PartialTable): Promise<void> => {
    await pending;
    const p = apply(b, t);
    p.catch(() => {}); // awaited at the next send or at the end; this only keeps it from counting as unhandled
    pending = p;
  };
  for await (const block of log.pass()) {
    onUser?.(block.length);
    if (userShardOf(block[0]!.user, run.shards) !== run.shard) continue;
    if (!skip(batch)) add(block, order, table);
    users++;
    if (users % run.batchUsers === 0) {
      if (!skip(batch)) await send(batch, table);
      batch++;
      table = new PartialTable();
    }
  }
  if (users % run.batchUsers !== 0) {
    if (!skip(batch)) await send(batch, table);
    batch++;
  }
  await pending;
  return { batches: batch, users };
}

/** The adder of a method's pass: the first (`input` undefined) or a later one (`ShardedRelease.later`). */
export function adderOf<P>(sharded: ShardedRelease<P>, params: P, input?: unknown): UserAdder {
  if (input === undefined) return (block, order, table) => sharded.addUser(block, order, table, params);
  if (!sharded.later) throw new Error("the method asked for another pass but has no later adder");
  return sharded.later(input, params);
}

/**
 * A sharded run in this process (no servers): each pass's partial tables of `shards` shards summed in memory, the
 * coordinator's decision from them — the cluster's arithmetic without PostgreSQL, for tests and checks.
 */
export async function shardedInProcess<P>(
  sharded: ShardedRelease<P>,
  params: P,
  log: Passes & UserPasses,
  run: { readonly shards: number; readonly batchUsers: number },
  order: (r: LogRecord) => number,
  ctx: MethodContext,
  out: ReleaseSink,
): Promise<Release> {
  const sums = async (input?: unknown): Promise<SummedRows> => {
    const tables: PartialTable[] = [];
    for (let shard = 0; shard < run.shards; shard++) {
      await shardPartials(log, adderOf(sharded, params, input), { shard, ...run }, order, async (_b, t) => {
        tables.push(t);
      });
    }
    return sumInMemory(tables);
  };
  if (!sharded.parts) return sharded.release(await sums(), log, params, ctx, out, sums);
  // The workers' release: each shard writes its users' records from its cut of the decision; the parts are merged
  // by the position of each user's first record, as the coordinator merges the part files.
  const decision = await sharded.parts.decide(await sums(), params, ctx, sums);
  const written: { at: number; records: readonly LogRecord[] }[] = [];
  const releases: Release[] = [];
  for (let shard = 0; shard < run.shards; shard++) {
    const mine = (user: string) => userShardOf(user, run.shards) === shard;
    let at = 0;
    const own: UserPasses = {
      format: log.format,
      classified: log.classified,
      async *pass() {
        for await (const block of log.pass()) {
          if (!mine(block[0]!.user)) continue;
          at = order(block[0]!);
          yield block;
        }
      },
    };
    const sink: ReleaseSink = {
      write(records) {
        written.push({ at, records });
        return undefined;
      },
    };
    releases.push(await sharded.parts.write(forShard(decision, mine), own, params, sink));
  }
  written.sort((a, b) => a.at - b.at);
  for (const w of written) await out.write(w.records);
  return sharded.parts.merge(decision, releases, params);
}
