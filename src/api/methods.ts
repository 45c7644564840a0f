/**
 * Anonymization for library callers: {@link anonymize} runs any registered method on a log held in memory,
 * {@link createStage} gives the streaming stage of a method that has one (swap) for a live feed.
 *
 * Parameters are typed per method ({@link MethodParams}): a parameter name a method does not take, or a value of
 * the wrong type, is a compile error. What TypeScript cannot see (a value out of range, an untyped caller) is a
 * {@link ParamError} at run time with the CLI's wording (`swap: parameter k: must be an integer ≥ 2, got 1`).
 */
import type { KnowledgeService } from "../classify/service.ts";
import type { Guarantee } from "../log/guarantee.ts";
import type { LogFormat, QueryLog } from "../log/record.ts";
import {
  type Method,
  type MethodContext,
  type MethodKind,
  methodRng,
  type Release,
  type StageOptions,
  withParamRange,
} from "../methods/method.ts";
import { loadMethod, type MethodName, methodEntry, methods, type ParsedParams } from "../methods/registry.ts";
import { releaseLog } from "../pipeline/memory.ts";
import { releaseFiles } from "../pipeline/release.ts";
import type { ClickUsers } from "../scrub/click-url.ts";
import type { Stage } from "../stream/stage.ts";
import { ParamError, type ParamSpec } from "../util/params.ts";
import { knowledgeOr } from "./knowledge.ts";
import { type ProgressCallback, progressOf } from "./progress.ts";

export type { MethodName, ParsedParams };

/** The parameters a caller gives a method: any subset of its parameters (the others take their defaults). */
export type MethodParams = { [N in MethodName]: Partial<ParsedParams[N]> };

/** A method as the API describes it: its declaration, with parameters as specs (types, defaults). */
export interface MethodInfo {
  readonly name: MethodName;
  readonly summary: string;
  readonly paper: string;
  /** `release`, or `simulation` (what the engine would see if its users ran a protocol: clientside). */
  readonly kind: MethodKind;
  readonly params: readonly ParamSpec[];
  readonly streaming: boolean;
}

/** Every registered method, in the registry's order. */
export function listMethods(): MethodInfo[] {
  return methods.map((m) => ({
    name: m.name as MethodName,
    summary: m.summary,
    paper: m.paper,
    kind: m.kind,
    params: m.params.specs,
    streaming: m.input.timeOrder,
  }));
}

export interface RunOptions {
  /** Seed of every random choice the method makes (default 1, the CLI's). dp's noise ignores it unless
   *  `noise: "seeded"` (experiments only: a seeded release is not private). */
  readonly seed?: number;
  /** The knowledge base and classifier (default: the one the CLI uses, built on first use). */
  readonly knowledge?: KnowledgeService;
  readonly onProgress?: ProgressCallback;
  /** Notes for the user, e.g. mdav falling back to its blocked variant (the CLI prints them on stderr). */
  readonly onWarning?: (message: string) => void;
}

export interface AnonymizeOptions<N extends MethodName> extends RunOptions {
  readonly method: N;
  readonly params?: MethodParams[N];
}

/** A method's release, with what it ran with (the input of {@link audit} and of the attacks). */
export interface Anonymized<N extends MethodName = MethodName> extends Release {
  readonly method: N;
  /** The parameters the method ran with, defaults filled in. */
  readonly params: ParsedParams[N];
  readonly seed: number;
}

/**
 * Validate `params` for method `name` as the CLI does; a name the method does not take is a {@link ParamError}
 * (for callers TypeScript does not check), a bad value the method's own.
 */
export function parseParams<N extends MethodName>(name: N, params: MethodParams[N] = {}): ParsedParams[N] {
  return methodEntry(name).params.parse(params as Readonly<Record<string, unknown>>) as ParsedParams[N];
}

/** The method's parameters as its implementation parses them (dp also checks its calibration). */
function parsedBy<N extends MethodName>(m: Method, params: MethodParams[N] = {}): ParsedParams[N] {
  return m.parse(params as Readonly<Record<string, unknown>>) as ParsedParams[N];
}

function seedOf(seed: number | undefined): number {
  const s = seed ?? 1;
  if (!Number.isSafeInteger(s)) throw new ParamError("anonymize", "seed", `must be an integer, got ${s}`);
  return s;
}

function context(opts: RunOptions, seed: number): MethodContext {
  return {
    rng: methodRng(seed),
    progress: progressOf(opts.onProgress),
    warn: opts.onWarning ?? (() => {}),
    knowledge: knowledgeOr(opts.knowledge),
  };
}

/**
 * Anonymize a log held in memory with one method. The same log, parameters and seed give the same release as
 * `querymask anonymize` and the experiment runner: the log is prepared as the method declares (scrubbed, or
 * classified, unless already classified), as the CLI does. Write `release.log` with `writeLog` (or
 * `release.table`, the count table of `dp`, with `writeCountTable`); check it with `audit`.
 */
export async function anonymize<N extends MethodName>(
  log: QueryLog,
  opts: AnonymizeOptions<N>,
): Promise<Anonymized<N>> {
  const m = await loadMethod(opts.method);
  const params = parsedBy<N>(m, opts.params);
  const seed = seedOf(opts.seed);
  const knowledge = knowledgeOr(opts.knowledge);
  const { release } = await releaseLog({
    method: m,
    params,
    seed,
    log,
    knowledge,
    ...(knowledge.allow !== undefined ? { allow: knowledge.allow } : {}),
    progress: progressOf(opts.onProgress),
    warn: opts.onWarning ?? (() => {}),
  });
  return { ...release, method: opts.method, params, seed };
}

export interface AnonymizeFilesOptions<N extends MethodName> extends AnonymizeOptions<N> {
  /** Force a layout (default: by file name, then by the first line). */
  readonly format?: LogFormat | "auto";
  /** Set bad lines aside (to `rejectsPath` when given) instead of stopping at the first. */
  readonly lenient?: boolean;
  readonly rejectsPath?: string;
  /** Load the whole log even where the method could stream it or read it one user at a time. */
  readonly batch?: boolean;
  /**
   * A method that reads by user: sort the log by user on disk even if it may be grouped by user already (a log
   * found not grouped by user is sorted so anyway).
   */
  readonly sortByUser?: boolean;
  /** MiB of records each sort by user holds at once (default 256). */
  readonly memory?: number;
  /** Lines about how the run goes (sorting a log out of time order or by user, a fallback to loading it whole). */
  readonly onMessage?: (line: string) => void;
}

/** What {@link anonymizeFiles} did: the summary `querymask anonymize --json` prints, and the private part. */
export interface FilesAnonymized {
  readonly method: MethodName;
  readonly guarantee: Guarantee;
  /** Safe to publish beside the release (for a DP method: no exact data-dependent value). */
  readonly counts: Readonly<Record<string, number>>;
  /** Rejected lines and seconds: absent for a DP method (they are in `diagnostics`). */
  readonly rejected?: number;
  readonly seconds?: number;
  readonly notes: readonly string[];
  /** A DP method's exact figures: never publish them. */
  readonly diagnostics: Readonly<Record<string, number>>;
}

/**
 * Anonymize log files into `out`, exactly as `querymask anonymize` does (same bytes for the same files,
 * parameters and seed): streamed when the method has a stage, one user at a time when it reads by user and the
 * files are grouped by user, else loaded; prepared as the method declares; written atomically.
 */
export async function anonymizeFiles<N extends MethodName>(
  inputs: string | readonly string[],
  out: string,
  opts: AnonymizeFilesOptions<N>,
): Promise<FilesAnonymized> {
  const m = await loadMethod(opts.method);
  const params = parsedBy<N>(m, opts.params);
  const paths = typeof inputs === "string" ? [inputs] : inputs;
  const { checkPaths } = await import("../log/paths.ts");
  await checkPaths(
    [
      { path: out, role: "output" },
      ...(opts.rejectsPath ? [{ path: opts.rejectsPath, role: "reject file" }] : []),
    ],
    paths,
  );
  const knowledge = knowledgeOr(opts.knowledge);
  const run = await releaseFiles({
    method: m,
    params,
    seed: seedOf(opts.seed),
    inputs: paths,
    read: {
      format: opts.format ?? "auto",
      lenient: opts.lenient ?? false,
      ...(opts.rejectsPath ? { rejectsPath: opts.rejectsPath } : {}),
    },
    out,
    batch: opts.batch ?? false,
    ...(opts.sortByUser ? { sortByUser: true } : {}),
    ...(opts.memory !== undefined ? { memory: opts.memory } : {}),
    knowledge,
    ...(knowledge.allow !== undefined ? { allow: knowledge.allow } : {}),
    progress: progressOf(opts.onProgress),
    say: opts.onMessage ?? (() => {}),
    warn: opts.onWarning ?? (() => {}),
  });
  return {
    method: opts.method,
    guarantee: run.guarantee,
    counts: run.counts,
    ...(run.rejected !== undefined ? { rejected: run.rejected } : {}),
    ...(run.seconds !== undefined ? { seconds: run.seconds } : {}),
    notes: run.notes,
    diagnostics: run.diagnostics,
  };
}

export interface StageRunOptions<N extends MethodName> extends RunOptions {
  readonly method: N;
  readonly params?: MethodParams[N];
  /** The feed carries the classifier's columns (default false: the stage classifies on the way). */
  readonly classified?: boolean;
  /** State from an earlier stage's `snapshot()`, to resume a feed after a restart. */
  readonly snapshot?: unknown;
  /**
   * An unclassified feed whose whole log is known (a file): its click counts, from `countClickUsers`, so that a
   * click only one user made is dropped as `querymask classify` drops it. A live feed cannot know them.
   */
  readonly clickUsers?: ClickUsers;
}

/**
 * The streaming stage of a method for a live feed: `push(batch)` returns what that batch released, `flush()`
 * the rest at the end, `snapshot()` the whole state (JSON) to resume from. A feed must come in time order.
 */
export async function createStage<N extends MethodName>(opts: StageRunOptions<N>): Promise<Stage> {
  const m = await loadMethod(opts.method);
  if (!m.createStage) throw new ParamError(m.name, "method", `${m.name} has no streaming stage`);
  const params = parsedBy<N>(m, opts.params);
  const stageOpts: StageOptions = {
    classified: opts.classified ?? false,
    ...(opts.snapshot === undefined ? {} : { snapshot: opts.snapshot }),
    ...(opts.clickUsers === undefined ? {} : { clickUsers: opts.clickUsers }),
  };
  const create = m.createStage.bind(m);
  const ctx = context(opts, seedOf(opts.seed));
  return withParamRange(m.name, async () => create(params, ctx, stageOpts));
}
