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
  type KeptAdder,
  type KeptUser,
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
 * What a shard's pass that read the log kept of its users (`UserAdder`'s results), every user in log order, for the
 * passes that work from it (`KeptAdder`). As a file (`encodeKept`): the distinct keys once, each user who kept
 * something as its index and its keys' indexes.
 */
export interface KeptShard {
  readonly users: number;
  readonly kept: ReadonlyMap<number, readonly string[]>;
}

export function encodeKept(k: KeptShard): string {
  const ids = new Map<string, number>();
  const keys: string[] = [];
  const users: [number, number[]][] = [];
  for (const [u, list] of k.kept) {
    users.push([
      u,
      list.map((key) => {
        let id = ids.get(key);
        if (id === undefined) {
          id = keys.length;
          ids.set(key, id);
          keys.push(key);
        }
        return id;
      }),
    ]);
  }
  return JSON.stringify({ users: k.users, keys, kept: users });
}

export function decodeKept(text: string): KeptShard {
  const f = JSON.parse(text) as { users: number; keys: string[]; kept: [number, number[]][] };
  return { users: f.users, kept: new Map(f.kept.map(([u, ids]) => [u, ids.map((i) => f.keys[i]!)])) };
}

/** Batches cut every `batchUsers` users and applied with one in flight; `skip(batch)`: applied before. */
function batcher(
  run: ShardRun,
  apply: (batch: number, table: PartialTable) => Promise<void>,
  skip: (batch: number) => boolean,
) {
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
  return {
    /** The table of the next user, or undefined when their batch was applied before. */
    get table(): PartialTable | undefined {
      return skip(batch) ? undefined : table;
    },
    async next(): Promise<void> {
      users++;
      if (users % run.batchUsers === 0) {
        if (!skip(batch)) await send(batch, table);
        batch++;
        table = new PartialTable();
      }
    },
    async end(): Promise<ShardTotals> {
      if (users % run.batchUsers !== 0) {
        if (!skip(batch)) await send(batch, table);
        batch++;
      }
      await pending;
      return { batches: batch, users };
    },
  };
}

/** A pass over what a reading pass kept of shard `run.shard`'s users (`KeptAdder`), batches as `shardPartials`. */
export async function shardKept(
  kept: KeptShard,
  add: KeptAdder,
  run: ShardRun,
  apply: (batch: number, table: PartialTable) => Promise<void>,
  skip: (batch: number) => boolean = () => false,
): Promise<ShardTotals> {
  const b = batcher(run, apply, skip);
  for (let u = 0; u < kept.users; u++) {
    const table = b.table;
    if (table) add.fromKept(kept.kept.get(u), table);
    await b.next();
  }
  return b.end();
}

/**
 * Compute and apply shard `run.shard`'s batches; `skip(batch)`: already applied (its users are read past without
 * being added). `order` gives a record's position in the whole log. `keep`: what the adder kept of each user, for
 * the passes that work from it (a user of a skipped batch is added all the same, into a table that is dropped,
 * so a restarted worker keeps what an uninterrupted one does).
 */
export async function shardPartials(
  log: Passes,
  add: UserAdder,
  run: ShardRun,
  order: (r: LogRecord) => number,
  apply: (batch: number, table: PartialTable) => Promise<void>,
  skip: (batch: number) => boolean = () => false,
  onUser?: (rows: number) => void,
  keep?: Map<number, readonly string[]>,
): Promise<ShardTotals> {
  const b = batcher(run, apply, skip);
  let users = 0;
  for await (const block of log.pass()) {
    onUser?.(block.length);
    if (userShardOf(block[0]!.user, run.shards) !== run.shard) continue;
    const table = b.table;
    if (table || keep) {
      const kept: KeptUser | void = add(block, order, table ?? new PartialTable());
      if (kept !== undefined && keep) keep.set(users, kept);
    }
    users++;
    await b.next();
  }
  return b.end();
}

/**
 * The adder of a method's pass: the first (`input` undefined) or a later one (`ShardedRelease.later`), which may work
 * from what an earlier pass kept (`KeptAdder`) instead of reading the log.
 */
export function passAdderOf<P>(
  sharded: ShardedRelease<P>,
  params: P,
  input?: unknown,
): UserAdder | KeptAdder {
  if (input === undefined) return (block, order, table) => sharded.addUser(block, order, table, params);
  if (!sharded.later) throw new Error("the method asked for another pass but has no later adder");
  return sharded.later(input, params);
}

/** The adder of a pass that reads the log (`passAdderOf`; throws for one that works from kept users). */
export function adderOf<P>(sharded: ShardedRelease<P>, params: P, input?: unknown): UserAdder {
  const add = passAdderOf(sharded, params, input);
  if (typeof add !== "function") throw new Error("that pass reads no log: it works from kept users");
  return add;
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
  // What each shard's last reading pass kept, through the file format the workers use.
  let kept: string[] = [];
  const sums = async (input?: unknown): Promise<SummedRows> => {
    const tables: PartialTable[] = [];
    const add = passAdderOf(sharded, params, input);
    const reads = typeof add === "function";
    const keptNow: string[] = [];
    for (let shard = 0; shard < run.shards; shard++) {
      const apply = async (_b: number, t: PartialTable) => {
        tables.push(t);
      };
      if (typeof add === "function") {
        const keep = new Map<number, readonly string[]>();
        const done = await shardPartials(
          log,
          add,
          { shard, ...run },
          order,
          apply,
          undefined,
          undefined,
          keep,
        );
        keptNow.push(encodeKept({ users: done.users, kept: keep }));
      } else await shardKept(decodeKept(kept[shard]!), add, { shard, ...run }, apply);
    }
    if (reads) kept = keptNow;
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
