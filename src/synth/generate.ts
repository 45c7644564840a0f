/**
 * The seeded synthetic query-log generator: a lazy, constant-memory stream of {@link LogRecord}s in AOL row
 * order (by user, then time; a clicked query repeated once per click with the same time; next-page requests as
 * the same query later). Users are generated one at a time from their own forked Rng, so memory does not grow
 * with the number of users or rows, and the same seed gives the same records.
 *
 *   for (const rec of generateRecords({ seed: 1, users: 1000 })) …
 *
 * The shape of the log (activity, sessions, clicks, reformulations, topic mix, hours) comes from the
 * calibration (`calibration.json`, aggregate AOL statistics); see docs/generator.md.
 */
import type { LogRecord, QueryLog } from "../log/record.ts";
import { UsageError } from "../util/errors.ts";
import { Rng } from "../util/random.ts";
import type { Calibration } from "./calibration.ts";
import { Model } from "./model.ts";
import { FIRST_ROW, NEXT_PAGE, PII, REFORMULATION, REPEAT, UserSimulator } from "./user.ts";

export interface GenerateOptions {
  seed: number;
  /** Number of users (they come out in increasing id order). */
  users: number;
  /** Stop after this many rows (the last user may be cut short). */
  rows?: number;
  /** First day of the period, `YYYY-MM-DD` (default 2006-03-01). */
  start?: string;
  /** Length of the period in days (default 92). */
  days?: number;
  /** Share of query events that carry a fake personal identifier (default: calibrated, ~2%). */
  piiShare?: number;
  calibration?: Calibration;
  /** Set `record.category` to the true ODP path of each query. */
  withTruth?: boolean;
  /** "excite": no click rows, next-page requests as an empty query (the Excite layout). Default "aol". */
  style?: "aol" | "excite";
}

/** What a run produced, filled in as records are pulled from the stream. */
export interface GenerateStats {
  users: number;
  rows: number;
  /** Query events: new queries and next-page requests. */
  events: number;
  /** Rows that are clicks. */
  clicks: number;
  nextPage: number;
  /** Query events whose text carries a fake identifier. */
  pii: number;
  reformulations: number;
  repeats: number;
}

export function newStats(): GenerateStats {
  return { users: 0, rows: 0, events: 0, clicks: 0, nextPage: 0, pii: 0, reformulations: 0, repeats: 0 };
}

/** Check the options where they enter; the stream itself assumes they are sane. */
function checkOptions(opts: GenerateOptions): void {
  if (!Number.isSafeInteger(opts.seed)) throw new UsageError(`seed must be an integer, got ${opts.seed}`);
  if (!(Number.isSafeInteger(opts.users) && opts.users >= 1)) {
    throw new UsageError(`users must be a whole number ≥ 1, got ${opts.users}`);
  }
  if (opts.rows !== undefined && !(Number.isSafeInteger(opts.rows) && opts.rows >= 0)) {
    throw new UsageError(`rows must be a whole number ≥ 0, got ${opts.rows}`);
  }
  if (opts.withTruth && opts.style === "excite") {
    throw new UsageError("the Excite layout has no category column; --truth needs aol or ndjson");
  }
}

/**
 * User ids are numbers of equal width, increasing with gaps (like AOL's AnonIDs), so text order and numeric
 * order agree and the log is sorted by user either way.
 */
export function userIdBase(users: number): number {
  return 10 ** (Math.max(6, String(2 * users).length + 1) - 1);
}

/**
 * The records, lazily. Pass `stats` to watch counts as they are produced. Options are checked at the call,
 * not at the first record.
 */
export function generateRecords(
  opts: GenerateOptions,
  stats: GenerateStats = newStats(),
): Generator<LogRecord> {
  checkOptions(opts);
  const root = Rng.fromSeed(opts.seed);
  return stream(opts, new Model(opts, root), root, stats);
}

function* stream(opts: GenerateOptions, model: Model, root: Rng, stats: GenerateStats): Generator<LogRecord> {
  const maxRows = opts.rows ?? Number.POSITIVE_INFINITY;
  const base = userIdBase(opts.users);
  const sim = new UserSimulator(model, root);
  for (let u = 0; u < opts.users && stats.rows < maxRows; u++) {
    const rng = root.fork(u);
    const id = String(base + 2 * u + rng.int(2));
    sim.simulate(rng, id);
    if (sim.length === 0) continue;
    stats.users++;
    for (let i = 0; i < sim.length && stats.rows < maxRows; i++) {
      const rec = sim.records[i]!;
      const f = sim.flags[i]!;
      stats.rows++;
      if (rec.clickUrl !== undefined) stats.clicks++;
      if (f & FIRST_ROW) {
        stats.events++;
        if (f & NEXT_PAGE) stats.nextPage++;
        if (f & PII) stats.pii++;
        if (f & REFORMULATION) stats.reformulations++;
        if (f & REPEAT) stats.repeats++;
      }
      yield rec;
    }
  }
}

/**
 * The same records in arrays of up to `batchSize` (the shape `readBatches` yields), for feeding stream stages
 * and `writeBatches`: `writeBatches(out, "aol", toAsync(generateBatches(opts)))`.
 */
export function* generateBatches(
  opts: GenerateOptions,
  stats?: GenerateStats,
  batchSize = 8192,
): Generator<LogRecord[]> {
  let batch: LogRecord[] = [];
  for (const rec of generateRecords(opts, stats)) {
    batch.push(rec);
    if (batch.length === batchSize) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/** A whole synthetic log in memory (small runs, tests). */
export function generateLog(opts: GenerateOptions, stats?: GenerateStats): QueryLog {
  const records = [...generateRecords(opts, stats)];
  return { records, format: opts.style === "excite" ? "excite" : "aol", classified: opts.withTruth ?? false };
}

/** Users needed for about `rows` rows (for `--rows` without `--users`), with a margin for the heavy tail. */
export function usersForRows(rows: number, opts: Omit<GenerateOptions, "users" | "seed"> = {}): number {
  const model = new Model(opts, Rng.fromSeed(0));
  return Math.max(1, Math.ceil((rows / model.meanRowsPerUser()) * 1.25));
}
