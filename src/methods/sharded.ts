/**
 * A batch method run over shards of users (`querymask cluster run`): each worker adds its users' records to partial
 * aggregates, PostgreSQL sums the partials of all shards, and one coordinator reads the sums, applies the method's
 * decision once and writes the release. A method declares how (`Method.sharded`); the sums of the shards'
 * partials must equal the partial of the whole log, so the release is the single machine's.
 */
import type { LogRecord } from "../log/record.ts";
import type { MethodContext, Release, ReleaseSink, UserPasses } from "./method.ts";

/**
 * One row of a partial aggregate: `a` and `b` are summed across shards, `first` is the smallest (the order key of
 * the row where the key first appears in the log: the single machine numbers things by first appearance).
 */
export interface PartialRow {
  readonly kind: number;
  readonly key: string;
  readonly key2: string;
  a: number;
  b: number;
  first: number;
}

/** The partial aggregate of a batch of users: rows merged by (kind, key, key2). */
export class PartialTable {
  private readonly byKey = new Map<string, PartialRow>();

  add(kind: number, key: string, key2: string, a: number, b: number, first: number): void {
    const id = `${kind}\u0000${key}\u0000${key2}`;
    const row = this.byKey.get(id);
    if (row === undefined) this.byKey.set(id, { kind, key, key2, a, b, first });
    else {
      row.a += a;
      row.b += b;
      if (first < row.first) row.first = first;
    }
  }

  get size(): number {
    return this.byKey.size;
  }

  rows(): PartialRow[] {
    return [...this.byKey.values()];
  }
}

/** The summed rows of every shard, read one kind at a time, in pages. */
export interface SummedRows {
  rows(kind: number): AsyncIterable<readonly PartialRow[]>;
}

/**
 * What a worker keeps of one user after a pass that reads the log, for the later passes that work from it instead
 * of reading the log again (`KeptAdder`): a list of keys (dp: the user's bounded items), or nothing.
 */
export type KeptUser = readonly string[] | undefined;

/**
 * What one user adds to a batch's partial aggregate (see `ShardedRelease.addUser`), and what the worker keeps of
 * them for later passes (`KeptAdder`), if anything.
 */
export type UserAdder = (
  block: readonly LogRecord[],
  order: (r: LogRecord) => number,
  table: PartialTable,
) => KeptUser | void;

/**
 * A later pass that reads no log: each user's part is computed from what the last pass that read the log kept of
 * them (`UserAdder`'s result), every user of the shard in log order, so its batches are cut as a reading pass's.
 */
export interface KeptAdder {
  readonly fromKept: (kept: KeptUser, table: PartialTable) => void;
}

/**
 * Another pass of the workers over their shards (a method that decides in steps: dp selects queries, then counts
 * the click pairs of the released ones): `input` (JSON) goes to every worker, whose `ShardedRelease.later` makes
 * the pass's adder from it; the result is that pass's sums.
 */
export type AnotherPass = (input: unknown) => Promise<SummedRows>;

/**
 * A later pass's input or a release decision made mostly of per-user entries (km: each user's suppressed terms):
 * each worker is sent `common` and only its own shard's users' entries ({@link forShard}), not every user's.
 */
export interface ByUser<C = unknown, U = unknown> {
  readonly byUser: true;
  readonly common: C;
  readonly users: readonly (readonly [string, U])[];
}

export function byUser<C, U>(common: C, users: readonly (readonly [string, U])[]): ByUser<C, U> {
  return { byUser: true, common, users };
}

export function isByUser(x: unknown): x is ByUser {
  return typeof x === "object" && x !== null && (x as { byUser?: unknown }).byUser === true;
}

/** What the worker of the users `keep` keeps is sent of an input or a decision: a {@link ByUser} cut to them. */
export function forShard(x: unknown, keep: (user: string) => boolean): unknown {
  return isByUser(x)
    ? byUser(
        x.common,
        x.users.filter(([u]) => keep(u)),
      )
    : x;
}

export interface ShardedRelease<P> {
  /**
   * Parameters the cluster cannot run, as a UsageError (before any server or worker starts): e.g. a dp selection
   * that is sequential over users.
   */
  readonly check?: (params: P) => void;
  /**
   * Add one user's records (as `anonymizeByUser`'s passes give them) to a batch's partial aggregate; `order` gives a
   * record's position in the whole log (the same on every shard).
   */
  addUser(block: readonly LogRecord[], order: (r: LogRecord) => number, table: PartialTable, params: P): void;
  /**
   * The adder of a later pass (`AnotherPass`), from the coordinator's input for it: one that reads the log again,
   * or one that works from what the last reading pass kept of each user (`KeptAdder`: no reading).
   */
  readonly later?: (input: unknown, params: P) => UserAdder | KeptAdder;
  /**
   * The release written by the workers instead of the coordinator alone (a method whose release is a per-user
   * filter once the decision is known): the coordinator decides from the sums (`decide`, JSON for every worker),
   * each worker writes its shard's users' released records (`write`, in log order, one user's records per
   * `out.write`), the coordinator merges the shards' parts in log order and their releases (`merge`: the counts).
   * A decision made in steps asks for more passes (`again`) before it is final.
   */
  readonly parts?: {
    decide(sums: SummedRows, params: P, ctx: MethodContext, again: AnotherPass): Promise<unknown>;
    write(decision: unknown, log: UserPasses, params: P, out: ReleaseSink): Promise<Release>;
    merge(decision: unknown, shards: readonly Release[], params: P): Release;
  };
  /** Decide once from the summed rows (asking for more passes if the method needs them), then write the release. */
  release(
    sums: SummedRows,
    log: UserPasses,
    params: P,
    ctx: MethodContext,
    out: ReleaseSink,
    again: AnotherPass,
  ): Promise<Release>;
}

/** Summed rows held in memory (tests, and one-process runs): the tables of all shards added up. */
export function sumInMemory(tables: readonly PartialTable[]): SummedRows {
  const all = new PartialTable();
  for (const t of tables) for (const r of t.rows()) all.add(r.kind, r.key, r.key2, r.a, r.b, r.first);
  const rows = all.rows();
  return {
    async *rows(kind) {
      yield rows.filter((r) => r.kind === kind);
    },
  };
}
