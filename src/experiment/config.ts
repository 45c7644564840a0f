/**
 * The experiment configuration (JSON or YAML) and its validation. Every problem is reported with the path of
 * the offending key, e.g. `config.yaml: methods[1].params.k: must be an integer, got "x"`, as a
 * {@link UsageError} (exit 2).
 *
 * ```yaml
 * log: ../data/excite/excite-small.log   # one path or a list; relative to the config file
 * seeds: [1, 2]
 * methods:
 *   - method: swap
 *     params: { k: [3, 10], depth: 1 }   # a list = a grid axis
 *   - method: identity
 * ```
 */
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { dirname, isAbsolute, resolve } from "node:path";
import { parse as parseYaml } from "yaml";
import { LOG_FORMATS, type LogFormat } from "../log/record.ts";
import { ParamError } from "../methods/method.ts";
import { methodEntry, methods } from "../methods/registry.ts";
import { yardsticks } from "../metrics/registry.ts";
import { DEFAULT_OPTIONS, type YardstickOptions } from "../metrics/yardstick.ts";
import type { Frontier } from "../report/results.ts";
import { UsageError } from "../util/errors.ts";

/** One anonymization run to perform: a method, one point of its grid, one seed. */
export interface Combination {
  readonly method: string;
  /**
   * One grid point as the method parsed it: every parameter it runs with, its defaults filled in. The cache key,
   * the results, the report and the summary all use this, so `swap` and `swap {k: 3}` are one computation.
   */
  readonly params: Readonly<Record<string, unknown>>;
  readonly seed: number;
}

export interface ExperimentConfig {
  /** Where the config came from (for messages and the report). */
  readonly source: string;
  readonly log: readonly string[];
  readonly format: LogFormat | "auto";
  /** Classify the input first: true, false, or "auto" (when a classifier is available). */
  readonly classify: boolean | "auto";
  readonly seeds: readonly number[];
  readonly combinations: readonly Combination[];
  /** Yardstick names, in report order. */
  readonly yardsticks: readonly string[];
  readonly options: YardstickOptions;
  /** Worker threads. */
  readonly jobs: number;
  /** The frontier chart's axes and the risk budget (see {@link Frontier}). */
  readonly frontier: Frontier;
  /** `allowList`: a file of phrases that are not identifiers (as `--allow-list`), resolved like `log`. */
  readonly allowList?: string;
}

const TOP_KEYS = [
  "log",
  "format",
  "classify",
  "seeds",
  "methods",
  "yardsticks",
  "options",
  "jobs",
  "frontier",
  "allowList",
];

/**
 * The most combinations (methods × grid points × seeds) a config may ask for without `force`. Each one is a full
 * anonymization plus every yardstick, so 10,000 is already days of work on a large log; past it, a typo in a grid
 * (10⁶ points × 100 seeds ran 64 s and died out of memory while expanding) is far likelier than intent.
 */
export const MAX_COMBINATIONS = 10_000;

export interface ParseOptions {
  /** Accept more than {@link MAX_COMBINATIONS} combinations. */
  readonly force?: boolean;
}

export const DEFAULT_FRONTIER = {
  privacy: "background.m2.reidentified",
  utility: "frequency.recall",
  budget: 5,
};

/** Read and validate a config file. */
export function loadConfig(path: string, opts: ParseOptions = {}): ExperimentConfig {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new UsageError(`${path}: cannot read config (${(e as NodeJS.ErrnoException).code ?? e})`);
  }
  let raw: unknown;
  try {
    raw = /\.json$/i.test(path) ? JSON.parse(text) : parseYaml(text);
  } catch (e) {
    throw new UsageError(
      `${path}: not valid ${/\.json$/i.test(path) ? "JSON" : "YAML"}: ${(e as Error).message}`,
    );
  }
  return parseConfig(raw, path, dirname(resolve(path)), opts);
}

function fail(source: string, key: string, reason: string): never {
  throw new UsageError(`${source}: ${key}: ${reason}`);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function checkKeys(source: string, where: string, obj: Record<string, unknown>, allowed: readonly string[]) {
  for (const k of Object.keys(obj)) {
    if (!allowed.includes(k)) {
      fail(source, where ? `${where}.${k}` : k, `unknown key (expected one of: ${allowed.join(", ")})`);
    }
  }
}

function intList(source: string, key: string, v: unknown, min: number): number[] {
  const list = Array.isArray(v) ? v : [v];
  if (list.length === 0) fail(source, key, "must not be empty");
  return list.map((x, i) => {
    if (typeof x !== "number" || !Number.isInteger(x) || x < min) {
      fail(
        source,
        Array.isArray(v) ? `${key}[${i}]` : key,
        `must be an integer ≥ ${min}, got ${JSON.stringify(x)}`,
      );
    }
    return x;
  });
}

/** Validate a parsed config object; `baseDir` resolves relative log paths. */
export function parseConfig(
  raw: unknown,
  source = "<config>",
  baseDir = process.cwd(),
  opts: ParseOptions = {},
): ExperimentConfig {
  if (!isObject(raw)) fail(source, "(top level)", "must be a mapping of keys to values");
  checkKeys(source, "", raw, TOP_KEYS);

  const logRaw = raw.log;
  if (logRaw === undefined) fail(source, "log", "missing: give the path of the query log");
  const logs = Array.isArray(logRaw) ? logRaw : [logRaw];
  if (logs.length === 0) fail(source, "log", "must not be empty");
  const log = logs.map((p, i) => {
    if (typeof p !== "string" || p === "")
      fail(source, Array.isArray(logRaw) ? `log[${i}]` : "log", "must be a path");
    return isAbsolute(p) ? p : resolve(baseDir, p);
  });

  const format = raw.format ?? "auto";
  if (format !== "auto" && !LOG_FORMATS.includes(format as LogFormat)) {
    fail(source, "format", `must be one of auto, ${LOG_FORMATS.join(", ")}; got ${JSON.stringify(format)}`);
  }
  const classify = raw.classify ?? "auto";
  if (classify !== "auto" && typeof classify !== "boolean")
    fail(source, "classify", "must be true, false or auto");

  const seeds = intList(source, "seeds", raw.seeds ?? [1], 0);

  if (raw.methods === undefined) fail(source, "methods", "missing: list the methods to compare");
  if (!Array.isArray(raw.methods) || raw.methods.length === 0)
    fail(source, "methods", "must be a non-empty list");
  // Count before expanding: the expansion itself is what runs out of memory.
  const total =
    seeds.length *
    raw.methods.reduce(
      (sum: number, e: unknown) => sum + (isObject(e) && isObject(e.params) ? gridSize(e.params) : 1),
      0,
    );
  if (total > MAX_COMBINATIONS && !opts.force) {
    fail(
      source,
      "methods",
      `${total.toLocaleString("en")} combinations (grid points × ${seeds.length} seeds) is more than the limit of ` +
        `${MAX_COMBINATIONS.toLocaleString("en")}; shorten the parameter lists or pass --force`,
    );
  }
  const combinations: Combination[] = [];
  raw.methods.forEach((entry: unknown, i: number) => {
    const where = `methods[${i}]`;
    const e = typeof entry === "string" ? { method: entry } : entry;
    if (!isObject(e)) fail(source, where, "must be a method name or { method, params }");
    checkKeys(source, where, e, ["method", "params"]);
    if (typeof e.method !== "string") fail(source, `${where}.method`, "missing: the method's name");
    if (!methods.some((m) => m.name === e.method)) {
      fail(
        source,
        `${where}.method`,
        `unknown method ${JSON.stringify(e.method)}; registered: ${methods.map((m) => m.name).join(", ")}`,
      );
    }
    const method = methodEntry(e.method);
    const params = e.params ?? {};
    if (!isObject(params))
      fail(source, `${where}.params`, "must be a mapping of parameter names to values or lists");
    checkKeys(
      source,
      `${where}.params`,
      params,
      method.params.specs.map((p) => p.name),
    );
    for (const point of grid(params)) {
      let parsed: Readonly<Record<string, unknown>>;
      try {
        parsed = { ...(method.params.parse(point) as Record<string, unknown>) };
      } catch (err) {
        if (err instanceof ParamError) fail(source, `${where}.params.${err.param}`, err.message);
        throw err;
      }
      for (const seed of seeds) combinations.push({ method: method.name, params: parsed, seed });
    }
  });

  const names = raw.yardsticks ?? yardsticks.map((y) => y.name);
  if (!Array.isArray(names)) fail(source, "yardsticks", "must be a list of yardstick names");
  names.forEach((n: unknown, i: number) => {
    if (typeof n !== "string" || !yardsticks.some((y) => y.name === n)) {
      fail(
        source,
        `yardsticks[${i}]`,
        `unknown yardstick ${JSON.stringify(n)}; known: ${yardsticks.map((y) => y.name).join(", ")}`,
      );
    }
  });

  const o = raw.options ?? {};
  if (!isObject(o)) fail(source, "options", "must be a mapping");
  checkKeys(source, "options", o, ["backgroundM", "backgroundTargets", "topQueries", "bids"]);
  if (o.bids !== undefined && (typeof o.bids !== "string" || o.bids === "")) {
    fail(source, "options.bids", "must be the path of a bid table (term TAB value)");
  }
  const options: YardstickOptions = {
    backgroundM: intList(source, "options.backgroundM", o.backgroundM ?? DEFAULT_OPTIONS.backgroundM, 1),
    backgroundTargets: intList(
      source,
      "options.backgroundTargets",
      o.backgroundTargets ?? DEFAULT_OPTIONS.backgroundTargets,
      1,
    )[0]!,
    topQueries: intList(source, "options.topQueries", o.topQueries ?? DEFAULT_OPTIONS.topQueries, 1)[0]!,
    ...(typeof o.bids === "string" ? { bids: isAbsolute(o.bids) ? o.bids : resolve(baseDir, o.bids) } : {}),
  };

  // More workers than cores only adds memory (each holds the input): 16 jobs took 1.35 GB vs 0.34 GB.
  const jobs = Math.min(
    raw.jobs === undefined ? availableParallelism() : intList(source, "jobs", raw.jobs, 1)[0]!,
    availableParallelism(),
  );

  const f = raw.frontier ?? {};
  if (!isObject(f)) fail(source, "frontier", "must be a mapping { privacy, utility, budget }");
  checkKeys(source, "frontier", f, ["privacy", "utility", "budget"]);
  const frontier = { ...DEFAULT_FRONTIER };
  for (const axis of ["privacy", "utility"] as const) {
    const v = f[axis];
    if (v === undefined) continue;
    if (typeof v !== "string" || !/^[a-z0-9-]+\.[\w.]+$/i.test(v)) {
      fail(source, `frontier.${axis}`, `must be a result column such as ${DEFAULT_FRONTIER[axis]}`);
    }
    // A column no chosen yardstick measures would leave the chart and the decision without data, silently.
    const columns = yardsticks
      .filter((y) => (names as string[]).includes(y.name))
      .flatMap((y) => y.columns(options).map((c) => `${y.name}.${c.key}`));
    if (!columns.includes(v)) {
      fail(
        source,
        `frontier.${axis}`,
        `no yardstick of this config measures ${JSON.stringify(v)}; its columns: ${columns.join(", ")}`,
      );
    }
    frontier[axis] = v;
  }
  if (f.budget !== undefined) {
    if (typeof f.budget !== "number" || !Number.isFinite(f.budget) || f.budget < 0) {
      fail(
        source,
        "frontier.budget",
        "must be a number ≥ 0 (the most accepted on the privacy column, e.g. 5 for 5%)",
      );
    }
    frontier.budget = f.budget;
  }

  const allowRaw = raw.allowList;
  if (allowRaw !== undefined && (typeof allowRaw !== "string" || allowRaw === ""))
    fail(
      source,
      "allowList",
      "must be the path of a file of phrases that are not identifiers (docs/scrub.md)",
    );
  const allowList =
    allowRaw === undefined ? undefined : isAbsolute(allowRaw) ? allowRaw : resolve(baseDir, allowRaw);

  return {
    source,
    log,
    ...(allowList !== undefined ? { allowList } : {}),
    format: format as LogFormat | "auto",
    classify,
    seeds,
    combinations,
    yardsticks: names as string[],
    options,
    jobs,
    frontier,
  };
}

/** The number of points of a params grid (the product of the list lengths), without expanding it. */
export function gridSize(params: Readonly<Record<string, unknown>>): number {
  let n = 1;
  for (const v of Object.values(params)) n *= Array.isArray(v) ? v.length : 1;
  return n;
}

/** Expand a params mapping whose values may be lists into every combination (a grid), in key order. */
export function grid(params: Readonly<Record<string, unknown>>): Record<string, unknown>[] {
  let points: Record<string, unknown>[] = [{}];
  for (const [k, v] of Object.entries(params)) {
    const values = Array.isArray(v) ? v : [v];
    points = points.flatMap((p) => values.map((x) => ({ ...p, [k]: x })));
  }
  return points;
}
