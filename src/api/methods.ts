/**
 * Anonymization for library callers: {@link anonymize} runs any registered method on a log held in memory,
 * {@link createStage} gives the streaming stage of a method that has one (swap) for a live feed.
 *
 * Parameters are typed per method ({@link MethodParams}): a parameter name a method does not take, or a value of
 * the wrong type, is a compile error. What TypeScript cannot see (a value out of range, an untyped caller) is a
 * {@link ParamError} at run time with the CLI's wording (`swap: parameter k: must be an integer ≥ 2, got 1`).
 */
import type { KnowledgeService } from "../classify/service.ts";
import type { QueryLog } from "../log/record.ts";
import type { clientside } from "../methods/clientside/index.ts";
import type { dp } from "../methods/dp/index.ts";
import type { erola } from "../methods/erola/index.ts";
import type { graph } from "../methods/graph/index.ts";
import type { identity } from "../methods/identity/index.ts";
import type { km } from "../methods/km/index.ts";
import type { mdav } from "../methods/mdav/index.ts";
import type { mdavStrings } from "../methods/mdav-strings/index.ts";
import {
  type Method,
  type MethodContext,
  methodRng,
  type Release,
  type StageOptions,
  withParamRange,
} from "../methods/method.ts";
import type { navarro } from "../methods/navarro/index.ts";
import { getMethod, methods } from "../methods/registry.ts";
import type { dropAll } from "../methods/suppress-all/index.ts";
import type { swap } from "../methods/swap/index.ts";
import type { threshold } from "../methods/threshold/index.ts";
import type { ClickUsers } from "../scrub/click-url.ts";
import { scrubLog, scrubsInput } from "../scrub/scrub-log.ts";
import { createScrubber } from "../scrub/scrubber.ts";
import type { Stage } from "../stream/stage.ts";
import { ParamError, type ParamSpec } from "../util/params.ts";
import { knowledgeOr } from "./knowledge.ts";
import { type ProgressCallback, progressOf } from "./progress.ts";

type ParsedOf<M> = M extends Method<infer P> ? P : never;

/** Each method's parameters as its `parse` returns them: every parameter present, defaults filled in. */
export interface ParsedParams {
  swap: ParsedOf<typeof swap>;
  graph: ParsedOf<typeof graph>;
  dp: ParsedOf<typeof dp>;
  threshold: ParsedOf<typeof threshold>;
  km: ParsedOf<typeof km>;
  identity: ParsedOf<typeof identity>;
  "drop-all": ParsedOf<typeof dropAll>;
  mdav: ParsedOf<typeof mdav>;
  "mdav-strings": ParsedOf<typeof mdavStrings>;
  erola: ParsedOf<typeof erola>;
  navarro: ParsedOf<typeof navarro>;
  clientside: ParsedOf<typeof clientside>;
}

/** The name of a registered method. */
export type MethodName = keyof ParsedParams;

/** The parameters a caller gives a method: any subset of its parameters (the others take their defaults). */
export type MethodParams = { [N in MethodName]: Partial<ParsedParams[N]> };

/** The methods with a streaming stage ({@link createStage}). */
export type StreamingMethodName = "swap";

/** A method as the API describes it: name, summary, paper and parameters (with types and defaults). */
export interface MethodInfo {
  readonly name: MethodName;
  readonly summary: string;
  readonly paper: string;
  readonly params: readonly ParamSpec[];
  readonly streaming: boolean;
}

/** Every registered method, in the registry's order. */
export function listMethods(): MethodInfo[] {
  return methods.map((m) => ({
    name: m.name as MethodName,
    summary: m.summary,
    paper: m.paper,
    params: m.params,
    streaming: m.createStage !== undefined,
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
  const m = getMethod(name);
  for (const key of Object.keys(params)) {
    if (!m.params.some((p) => p.name === key)) {
      const takes = m.params.map((p) => p.name).join(", ") || "none";
      throw new ParamError(m.name, key, `not a parameter of ${m.name}; it takes: ${takes}`);
    }
  }
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
 * `querymask anonymize` and the experiment runner (a log not already classified is scrubbed first, as the CLI does). Write `release.log` with `writeLog` (or `release.table`, the
 * count table of `dp`, with `writeCountTable`); check it with `audit`.
 */
export async function anonymize<N extends MethodName>(
  log: QueryLog,
  opts: AnonymizeOptions<N>,
): Promise<Anonymized<N>> {
  const m = getMethod(opts.method);
  const params = parseParams(opts.method, opts.params);
  const seed = seedOf(opts.seed);
  const ctx = context(opts, seed);
  // As `querymask anonymize` does: a log not already classified is scrubbed before the method sees it (keeping
  // what the knowledge's allow list allows).
  const allow = ctx.knowledge?.allow;
  const input = scrubsInput(m.name, log) ? (await scrubLog(log, createScrubber({ allow }))).log : log;
  const release = await withParamRange(m.name, () => m.anonymize(input, params, ctx));
  return { ...release, method: opts.method, params, seed };
}

export interface StageRunOptions<N extends StreamingMethodName> extends RunOptions {
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
export async function createStage<N extends StreamingMethodName>(opts: StageRunOptions<N>): Promise<Stage> {
  const m = getMethod(opts.method);
  if (!m.createStage) throw new ParamError(m.name, "method", `${m.name} has no streaming stage`);
  const params = parseParams(opts.method, opts.params);
  const stageOpts: StageOptions = {
    classified: opts.classified ?? false,
    ...(opts.snapshot === undefined ? {} : { snapshot: opts.snapshot }),
    ...(opts.clickUsers === undefined ? {} : { clickUsers: opts.clickUsers }),
  };
  const create = m.createStage.bind(m);
  const ctx = context(opts, seedOf(opts.seed));
  return withParamRange(m.name, async () => create(params, ctx, stageOpts));
}
