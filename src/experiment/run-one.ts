/**
 * Run one combination: anonymize the input with one method, one parameter point and one seed, audit the
 * release (src/audit: does it keep the method's promises?), then measure it with every chosen yardstick. A
 * failure (a method that rejects the input, a yardstick that
 * throws) becomes an "error" row naming the cause rather than stopping the whole experiment.
 */

import { audit, verdict } from "../audit/audit.ts";
import type { Categorizer } from "../classify/categorize.ts";
import type { KnowledgeService } from "../classify/service.ts";
import { Taxonomy } from "../knowledge/taxonomy.ts";
import type { QueryLog } from "../log/record.ts";
import { declaredInput, NO_GUARANTEE, type Release } from "../methods/method.ts";
import { loadMethod } from "../methods/registry.ts";
import { getYardstick } from "../metrics/registry.ts";
import type { Value, YardstickContext, YardstickOptions } from "../metrics/yardstick.ts";
import { releaseLog } from "../pipeline/memory.ts";
import type { ResultRow } from "../report/results.ts";
import { Rng } from "../util/random.ts";
import type { Combination } from "./config.ts";
import { preparationKey } from "./input.ts";

/** What every combination shares: the input, prepared for each method, and how to categorise new queries. */
export interface PreparedInput {
  /** The input as the yardsticks' category lookup reads it (classified when the classifier ran). */
  readonly log: QueryLog;
  /**
   * The log each preparation gives (input.ts `preparationKey`), for the methods given something else than `log`
   * as read; absent = every method is given `log`.
   */
  readonly prepared?: ReadonlyMap<string, QueryLog>;
  /** The classifier, loaded on first use (only releases with new query texts need it); absent = none. */
  readonly categorizer?: () => Promise<Categorizer | undefined>;
  /** Knowledge for the methods that need it (mdav and its family, swap on unclassified input). */
  readonly knowledge?: KnowledgeService;
}

let taxonomy: Taxonomy | undefined;
const knownByLog = new WeakMap<QueryLog, Map<string, string>>();

/**
 * A category lookup for a release: a record's own category, else the category the original gave the same
 * text, else the classifier's (run here, before measuring, on the release's new query texts only).
 */
export async function categoryLookup(
  input: PreparedInput,
  release: Release,
): Promise<(query: string, own?: string) => string> {
  let known = knownByLog.get(input.log);
  if (!known) {
    known = new Map();
    for (const r of input.log.records) if (r.category && !known.has(r.query)) known.set(r.query, r.category);
    knownByLog.set(input.log, known);
  }
  const fresh = new Set<string>();
  for (const r of release.log?.records ?? []) {
    if (r.category === undefined && r.query !== "" && !known.has(r.query)) fresh.add(r.query);
  }
  const extra = new Map<string, string>();
  if (fresh.size > 0 && input.categorizer) {
    const categorize = await input.categorizer();
    if (categorize) for (const q of fresh) extra.set(q, categorize(q));
  }
  const map = known;
  return (query, own) => own ?? map.get(query) ?? extra.get(query) ?? "";
}

/**
 * Measure a release with the named yardsticks: `<yardstick>.<column>` → value, `null` where a yardstick does not
 * apply. Each yardstick's random stream derives from (seed, "yardsticks", its name), so adding or removing one
 * changes no other's value. `measured` is told each yardstick's name when it is done (the runner's timings).
 */
export async function measureRelease(
  input: PreparedInput,
  release: Release,
  how: {
    readonly method: { readonly name: string; readonly paper: string };
    readonly params: Readonly<Record<string, unknown>>;
    readonly seed: number;
    readonly yardsticks: readonly string[];
    readonly options: YardstickOptions;
    readonly measured?: (yardstick: string) => void;
    /** The log the method was given (default: `input.log`): what the release is compared with. */
    readonly original?: QueryLog;
  },
): Promise<Record<string, Value>> {
  const categoryOf = await categoryLookup(input, release);
  const ctx: YardstickContext = {
    rng: Rng.fromSeed(how.seed).derive("yardsticks"),
    options: how.options,
    taxonomy: () => {
      taxonomy ??= Taxonomy.bundled();
      return taxonomy;
    },
    categoryOf,
  };
  const values: Record<string, Value> = {};
  for (const name of how.yardsticks) {
    const y = getYardstick(name);
    const measured = await y.measure(
      { original: how.original ?? input.log, release, params: how.params, method: how.method },
      { ...ctx, rng: ctx.rng.derive(name) },
    );
    for (const c of y.columns(how.options)) values[`${y.name}.${c.key}`] = measured[c.key] ?? null;
    how.measured?.(y.name);
  }
  return values;
}

/**
 * The release of one combination, as the pipeline makes it (src/pipeline/memory.ts) from the log the method is
 * given (`given`: prepared as it declares, once per preparation for the whole experiment; its origins index it).
 */
export async function releaseCombination(
  input: PreparedInput,
  combo: Combination,
): Promise<{ release: Release; given: QueryLog; params: unknown }> {
  const method = await loadMethod(combo.method);
  const loaded = input.prepared?.get("as-read") ?? input.log;
  const given = input.prepared?.get(preparationKey(method, loaded)) ?? loaded;
  const params = method.parse(combo.params);
  const { release } = await releaseLog({
    method,
    params,
    seed: combo.seed,
    log: loaded,
    prepared: { log: given },
    ...(input.knowledge ? { knowledge: input.knowledge } : {}),
  });
  return { release, given, params };
}

export async function runCombination(
  input: PreparedInput,
  combo: Combination,
  key: string,
  yardstickNames: readonly string[],
  options: YardstickOptions,
): Promise<ResultRow> {
  const started = performance.now();
  const method = await loadMethod(combo.method);
  const base = { key, method: method.name, paper: method.paper, params: combo.params, seed: combo.seed };
  const values: Record<string, Value> = {};
  const timings: Record<string, number> = {};
  let lap = performance.now();
  const clock = (name: string) => {
    const now = performance.now();
    timings[name] = (now - lap) / 1000;
    lap = now;
  };
  try {
    const { release, given, params } = await releaseCombination(input, combo);
    clock("anonymize");
    const audited = audit(
      {
        method: method.name,
        declared: declaredInput(method),
        params: params as Record<string, unknown>,
        original: given,
        released: release.log,
        table: release.table,
        summary: release.counts,
        guarantee: release.guarantee,
        ...(input.knowledge?.allow !== undefined ? { allow: input.knowledge.allow } : {}),
      },
      3,
    );
    clock("audit");
    Object.assign(
      values,
      await measureRelease(input, release, {
        original: given,
        method: { name: method.name, paper: method.paper },
        params: params as Record<string, unknown>,
        seed: combo.seed,
        yardsticks: yardstickNames,
        options,
        measured: clock,
      }),
    );
    return {
      ...base,
      status: "ok",
      seconds: (performance.now() - started) / 1000,
      counts: release.counts,
      guarantee: release.guarantee,
      audit: verdict(audited),
      ...(audited.ok
        ? {}
        : {
            auditViolations: audited.results
              .filter((r) => !r.ok)
              .flatMap((r) => r.examples.map((e) => `${r.name}: ${e}`)),
          }),
      timings,
      values,
    };
  } catch (err) {
    return {
      ...base,
      status: "error",
      error: err instanceof Error ? err.message : String(err),
      seconds: (performance.now() - started) / 1000,
      counts: {},
      guarantee: NO_GUARANTEE,
      values,
    };
  }
}
