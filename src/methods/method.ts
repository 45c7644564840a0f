/**
 * The one small interface every anonymization method implements (swap, mdav and its baselines, graph, km, dp,
 * threshold, …). The CLI (`querymask anonymize --method NAME`) and the experiment runner only talk to this.
 *
 * A method validates its parameters where they enter ({@link Method.parse}) and then works on a typed value;
 * it receives the whole input log (batch) and returns a {@link Release}. A streaming method (swap) also exposes a
 * pipeline stage of its own, but still implements this interface for batch use and for experiments.
 */
import type { KnowledgeService } from "../classify/service.ts";
import type { CountTable } from "../log/count-table.ts";
import type { DeclaredInput, MethodModel, TextDomain } from "../log/declared.ts";
import type { Guarantee } from "../log/guarantee.ts";
import type { LoadLimit } from "../log/read.ts";
import type { LogFormat, LogRecord, QueryLog } from "../log/record.ts";
import type { RowBlock } from "../log/row-block.ts";
import type { RowWriter } from "../log/row-write.ts";
import type { ClickUsers } from "../scrub/click-url.ts";
import type { Stage } from "../stream/stage.ts";
import { ParamError, type ParamSet } from "../util/params.ts";
import type { Progress } from "../util/progress.ts";
import { Rng } from "../util/random.ts";
import type { ShardedRelease } from "./sharded.ts";

export {
  bool,
  choice,
  defineParams,
  int,
  num,
  ParamError,
  type ParamSet,
  type ParamSpec,
  type ParamsOf,
  text,
} from "../util/params.ts";

/**
 * The random stream a method gets for a run with `seed`. The CLI and the experiment runner both take it from
 * here, so the same log, parameters and seed give the same release through either. A method splits it into
 * named parts with {@link Rng.derive} (e.g. one stream per cluster), so adding a draw in one part changes no
 * other part.
 */
export function methodRng(seed: number): Rng {
  return Rng.fromSeed(seed).derive("method");
}

export interface MethodContext {
  readonly rng: Rng;
  readonly progress: Progress;
  /** A note for the user (the CLI prints it on stderr): e.g. mdav falling back to its blocked variant. */
  readonly warn?: (message: string) => void;
  /**
   * The knowledge base and the classifier, for methods that need categories or semantics (swap on an
   * unclassified input, mdav and its family). The CLI and the experiment runner always set it; without it mdav
   * falls back to a stand-in label mapper (tests) and swap to a service of its own.
   */
  readonly knowledge?: KnowledgeService;
}

export type { CountTable } from "../log/count-table.ts";
export { type Guarantee, NO_GUARANTEE, userLevelDp } from "../log/guarantee.ts";

export interface Release {
  /** The released log, in the input's format (absent for a method that releases only counts, i.e. dp). */
  readonly log?: QueryLog;
  /** For each released record, the index in the input's `records` of the record it came from, or -1 if
   *  synthetic. Ground truth for attacks and metrics; never written with the release. */
  readonly origin?: Int32Array;
  /** Aggregate counts released instead of, or besides, a log. */
  readonly table?: CountTable;
  /**
   * What the method did, for the summary: e.g. { released: 1000, suppressed: 12, "queries removed": 3 }. For a
   * method with a differential-privacy claim, publishable: data-independent values, values read off the
   * released table, or values noised and charged to the budget.
   */
  readonly counts: Record<string, number>;
  /**
   * Exact data-dependent figures a DP method computed (users, distinct items before and after the bound, …): not
   * for the public summary; written only when the user asks for diagnostics, to a file marked private.
   */
  readonly diagnostics?: Record<string, number>;
  /**
   * The privacy model the release keeps by construction, with its parameters — only what holds for the
   * parameters it ran with ({@link NO_GUARANTEE} otherwise). `querymask audit` checks it on the written files
   * where the model is checkable there.
   */
  readonly guarantee: Guarantee;
  /** Plain sentences the user must read, e.g. why nothing was released and what would release something. */
  readonly notes?: readonly string[];
}

export interface StageOptions {
  /** The input carries category columns (default false: classify on the way if the method needs it). */
  readonly classified?: boolean;
  /** State from `Stage.snapshot()` to resume from. */
  readonly snapshot?: unknown;
  /**
   * The whole input's click counts, for a stage that classifies on the way: it then drops the clicks only one user
   * made, as `querymask classify` does (absent on a live stream, which cannot know them).
   */
  readonly clickUsers?: ClickUsers;
}

/** Whether a method's output is a release a data team can apply to a log it holds, or a what-if (clientside). */
export type MethodKind = "release" | "simulation";

/**
 * What a method's summary may show. `exact`: every count. `dp`: the public summary (printed table, `--json`,
 * notes, progress lines) holds only data-independent values, values read off the released table or values the
 * method noised and charged to its budget; exact data-dependent figures go to the diagnostics, written only on
 * request to a `*.PRIVATE.*` file.
 */
export type Disclosure = "exact" | "dp";

/** What input a method takes; the pipeline prepares and reads the log accordingly. */
export interface InputDeclaration {
  /** The text the method is given (src/log/declared.ts). */
  readonly text: TextDomain;
  /** It reads a stream in time order (a stage): the pipeline sorts a log that is not. */
  readonly timeOrder: boolean;
  /** It reads each user's records together (`anonymizeByUser`): the pipeline verifies the grouping itself. */
  readonly userGrouping: boolean;
  /**
   * Preparation may decide about one record from other records (the scrubber's "URL clicked by one user only"
   * rule, the count of users who typed a name). A DP method declares false: its preparation is per record.
   */
  readonly crossUser: boolean;
  /**
   * Its release depends on the order in which keys (queries, URLs, items) first appear in the log, which reading by
   * user changes when the log is not grouped by user: on a log the pipeline sorted by user it runs the method's
   * sharded path in one process, each record's original position its order key, so ids are numbered as the batch
   * path numbers them on the original log.
   */
  readonly firstSeen?: boolean;
  /**
   * False: a log not grouped by user is loaded rather than sorted by user on disk, because the release on the sorted
   * copy is not shown equal to the loaded log's (km's greedy ties, dp's rounds with seeded noise, mdav's partition).
   */
  readonly sortable?: boolean;
}

/**
 * What is known of a method without loading its implementation: each method folder's `meta.ts` declares it, and
 * the registry (./registry.ts) lists it beside a loader, so the CLI can offer every method's flags and help while
 * loading only the method that runs.
 */
export interface MethodDeclaration<P = unknown, N extends string = string> {
  /** The name used on the command line and in configs: "swap", "mdav", "graph", "km", "dp", "threshold", … */
  readonly name: N;
  /** One line for `--help` and the report. */
  readonly summary: string;
  /** The paper it implements, as "Author et al. year" (docs/references.md): "Batet et al. 2013", "Korolova et al. 2009". */
  readonly paper: string;
  readonly kind: MethodKind;
  readonly input: InputDeclaration;
  readonly disclosure: Disclosure;
  /** What it releases: a log in the input's format, or a query-click count table (dp). */
  readonly releases: "log" | "count-table";
  /** The privacy model it is built for (the audit's checks apply by it). */
  readonly model: MethodModel;
  /** Its parameters: one schema, from which type, parser, flags, help and JSON Schema derive. */
  readonly params: ParamSet<P>;
  /**
   * The method can stream raw rows ({@link Method.createRowStage}): it reads only a row's user, query, time and
   * category, and writes each row back as read or with a new user and time, so the pipeline copies the bytes of
   * the rest of the row instead of parsing and printing every field (src/log/rows.ts). Absent = records only.
   */
  readonly rows?: boolean;
  /** The method runs over shards of users in the cluster (`cluster run`): its index.ts gives {@link Method.sharded}. */
  readonly shards?: boolean;
}

/** The part of a declaration the audit reads (src/log/declared.ts). */
export function declaredInput(m: MethodDeclaration): DeclaredInput {
  return { model: m.model, text: m.input.text, crossUser: m.input.crossUser };
}

/**
 * A streaming stage on raw rows: it reads blocks of rows and writes what it releases to the writer it was made
 * with, synchronously. A row kept past `push` must be copied first: the next block reuses the reader's buffer
 * and the block's columns.
 */
export interface RowStage {
  /** The stage is defined on a stream in time order (the driver checks the order, as for records). */
  readonly timeOrdered: boolean;
  push(rows: RowBlock): void;
  /** End of stream: release or suppress whatever is still held. */
  flush(): void;
  /** What the stage did, for the summary (the same counts as the method's record stage or batch release). */
  counts(): Record<string, number>;
  /** The whole state, in the method's record stage's snapshot format (either stage resumes from it). */
  snapshot(): unknown;
}

export interface Method<P = unknown> extends MethodDeclaration<P> {
  /**
   * Validate raw parameters (from CLI flags or a config), defaults filled in; throws {@link ParamError}. The
   * declaration's schema, plus what only the implementation can check (dp: a usable threshold).
   */
  parse(raw: Readonly<Record<string, unknown>>): P;
  anonymize(input: QueryLog, params: P, ctx: MethodContext): Promise<Release>;
  /**
   * Streaming methods only (swap): a pipeline stage with constant memory in the log size, optionally resumed
   * from a snapshot. `classified` says whether the input already carries the classifier's columns; a stage that
   * needs categories loads the classifier (asynchronously) when it does not. The CLI uses the stage instead of
   * `anonymize` for logs read as a stream.
   */
  createStage?(params: P, ctx: MethodContext, opts?: StageOptions): Stage | Promise<Stage>;
  /** With {@link createStage}: the guarantee the stage's release keeps (the batch release states the same). */
  stageGuarantee?(params: P): Guarantee;
  /**
   * Methods whose info says `rows`: a {@link RowStage} releasing to `out`, for an AOL input (`classified` as its
   * header says); undefined when this input needs records (e.g. swap on an unclassified log, which it classifies).
   * Its release must be byte-identical to the record path's for the same seed.
   */
  createRowStage?(
    params: P,
    ctx: MethodContext,
    out: RowWriter,
    opts: { readonly classified: boolean; readonly snapshot?: unknown },
  ): RowStage | undefined;
  /**
   * Methods that need each user's whole history but never two users' at once (dp, threshold, graph, km, the
   * microaggregation family; declared by `input.userGrouping`): the release read from the log one user at a time,
   * in as many passes as the method needs, so memory follows one user and the release's own tables, not the log.
   * The pipeline uses it instead of `anonymize` for a log grouped by user that it can read again (regular files). The release must equal `anonymize`'s on the same log for the same
   * randomness; a method takes its randomness from the context only after its first pass (which is where a log
   * not grouped by user is found, and the CLI then gives `anonymize` the same context).
   *
   * A method that releases a log writes it to `out` when one is given, in release order, during its last pass
   * (never before its first pass has ended, so bad input and a log not grouped by user are found before anything
   * is written), and returns a release without `log` and `origin`: memory then follows the method's aggregates,
   * not the release. Without `out` it returns the log as `anonymize` does.
   */
  anonymizeByUser?(log: UserPasses, params: P, ctx: MethodContext, out?: ReleaseSink): Promise<Release>;
  /**
   * Methods that hold the whole log and their structures over it: the most rows the heap has room for now, and
   * the error (exit 2) refusing a log of `rows` rows or more. The batch path stops loading there, before V8 would
   * run out of heap.
   */
  heldRows?(): LoadLimit;
  /** How the method runs over shards of users (`querymask cluster run`): see ./sharded.ts. */
  readonly sharded?: ShardedRelease<P>;
}

/** Where a method read by user writes its released records ({@link Method.anonymizeByUser}). */
export interface ReleaseSink {
  /** Append records, in release order; await the result when it is a promise (the disk is behind). */
  write(records: readonly LogRecord[]): undefined | Promise<void>;
}

/** A log a method reads by user ({@link Method.anonymizeByUser}). */
export interface UserPasses {
  /** The input's format and whether it carries the classifier's columns (a released log keeps them). */
  readonly format?: LogFormat;
  readonly classified?: boolean;
  /**
   * One pass over the log: each user's records (as `anonymize` would be given them: scrubbed when the CLI scrubs)
   * as one block, users in log order, the same records in the same order every pass. Throws
   * NotGroupedByUser (src/log/user-blocks.ts) when a user's rows are not contiguous.
   */
  pass(): AsyncIterable<readonly LogRecord[]>;
}

/**
 * Run a method's computation, turning a RangeError it raises (a parameter that passed `parse` but is out of the
 * range the arithmetic can use: a noise scale of Infinity, an array too large for the grid asked) into a
 * {@link ParamError}, which the CLI reports in one line with exit 2 instead of a stack trace.
 */
export async function withParamRange<T>(method: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof RangeError) {
      throw new ParamError(method, "values", `out of the range this method can compute with: ${e.message}`);
    }
    throw e;
  }
}

export type { LogRecord };
