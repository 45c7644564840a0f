/**
 * The user-microaggregation baselines (and mdav when it loads the log, --batch) hold the whole log: every user's
 * profile is compared with others', and each cluster's synthetic log is drawn from every event of its categories. So a log either
 * fits in the heap or the run stops at once with the sizes (exit 2), instead of dying in V8 with a heap trace
 * after minutes: the check runs before the log is loaded (read by user, one counting pass that stops once the rows
 * outnumber what fits), while the batch path loads it ({@link Method.heldRows}), and again before the method
 * starts on a loaded log.
 */
import { getHeapStatistics, type HeapInfo } from "node:v8";
import type { LoadLimit } from "../../log/read.ts";
import type { LogRecord } from "../../log/record.ts";
import { HeapTooSmall, UsageError } from "../../util/errors.ts";
import type { Method, MethodContext, Release, UserPasses } from "../method.ts";

/** Heap per input row the method's own structures take (events, profiles, pool, release), measured. */
export const METHOD_BYTES_PER_ROW = 700;
/** Heap per row of the loaded log itself (records, interned texts), measured. */
export const LOADED_BYTES_PER_ROW = 400;

type HeapLimits = Pick<HeapInfo, "heap_size_limit" | "used_heap_size">;

/** How many rows (loaded already, or yet to load) fit in the heap free now, with a tenth kept in reserve. */
export function rowsThatFit(loaded: boolean, limits: HeapLimits = getHeapStatistics()): number {
  const free = limits.heap_size_limit - limits.used_heap_size;
  return Math.max(0, Math.floor((0.9 * free) / (METHOD_BYTES_PER_ROW + (loaded ? 0 : LOADED_BYTES_PER_ROW))));
}

/** Throws {@link HeapTooSmall} (exit 2) when `rows` rows (loaded already, or yet to load) cannot fit in the heap. */
export function checkHeap(
  method: string,
  rows: number,
  loaded: boolean,
  limits: HeapLimits = getHeapStatistics(),
  atLeast = false,
): void {
  const fit = rowsThatFit(loaded, limits);
  if (rows > fit) throw new HeapTooSmall(method, rows, atLeast, fit, limits.heap_size_limit);
}

/** {@link Method.heldRows} of these methods: the rows to load that fit now, and the refusal past them. */
export function heldRows(method: string, limits: HeapLimits = getHeapStatistics()): LoadLimit {
  const most = rowsThatFit(false, limits);
  return { most, refuse: (rows) => new HeapTooSmall(method, rows, true, most, limits.heap_size_limit) };
}

/**
 * Throws a UsageError (exit 2) when the log has users, but fewer than `k`: no cluster of k users can be formed, so
 * every user would be suppressed and nothing released. (The count stops at k: a small k costs a few records.)
 */
export function checkClusterK(method: string, k: number, records: readonly LogRecord[]): void {
  const users = new Set<string>();
  for (const r of records) {
    users.add(r.user);
    if (users.size >= k) return;
  }
  if (users.size === 0) return;
  throw new UsageError(
    `${method}: k = ${k.toLocaleString("en")} is more than the ${users.size.toLocaleString("en")} users of the ` +
      `log: no cluster of k users can be formed (k can be at most the number of users)`,
  );
}

/**
 * `anonymizeByUser` of a method that holds the whole log: one pass counts the rows, stopping with the check above
 * as soon as they outnumber what fits, then the records of a second pass go to the method's `anonymize`, which
 * writes nothing before it returns.
 */
export async function anonymizeWhenItFits<P>(
  method: Method<P>,
  log: UserPasses,
  params: P,
  ctx: MethodContext,
): Promise<Release> {
  const fit = rowsThatFit(false);
  let rows = 0;
  for await (const block of log.pass()) {
    rows += block.length;
    if (rows > fit) checkHeap(method.name, rows, false, undefined, true);
  }
  const records: LogRecord[] = [];
  for await (const block of log.pass()) for (const r of block) records.push(r);
  return method.anonymize({ records, format: log.format ?? "aol", classified: log.classified }, params, ctx);
}
