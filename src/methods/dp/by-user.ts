/**
 * The contribution bound read one user at a time (`Method.anonymizeByUser`): the same per-user choice as
 * `boundQueries` / `boundPairs` over `histories`, fed from a log grouped by user, so the release holds one
 * user's rows, the bounded sets and the distinct queries, never the log. Query pairs take a second pass, for the
 * queries the first one released. korolova's limit (`EventLimiter`) is per user too: one pass.
 */
import { groupEvents, type QueryEvent } from "../../log/events.ts";
import type { LogRecord } from "../../log/record.ts";
import type { Progress } from "../../util/progress.ts";
import type { UserPasses } from "../method.ts";
import { type Bounded, Bounder, histories, type Prior, pairKeys, ranked } from "./contributions.ts";
import { EventLimiter, type LimitedCounts } from "./korolova.ts";

/** One user's non-empty query events, by time (undefined when they typed none). */
function historyOf(block: readonly LogRecord[]): QueryEvent[] | undefined {
  return histories(groupEvents(block))[0];
}

/** What `anonymize` reads off the whole log, from one pass by user. */
export interface FirstPass {
  readonly queries: Bounded;
  /** Users with at least one non-empty query. */
  readonly users: number;
  /** Distinct non-empty queries before the bound. */
  readonly distinct: number;
}

/** Each user's d most frequent queries (highest prior first, when there is one), as `boundQueries` chooses them. */
export async function boundQueriesByUser(
  log: UserPasses,
  d: number,
  prior: Prior | undefined,
  progress: Progress,
): Promise<FirstPass> {
  const b = new Bounder(d);
  const distinct = new Set<string>();
  let users = 0;
  for await (const block of log.pass()) {
    const list = historyOf(block);
    progress.tick(block.length);
    if (list === undefined) continue;
    users++;
    for (const e of list) distinct.add(e.query);
    b.add(
      ranked(
        list.map((e) => e.query),
        prior,
      ),
    );
  }
  return { queries: b, users, distinct: distinct.size };
}

/** Each user's d most frequent (query, URL) clicks whose query is in `released`, as `boundPairs` chooses them. */
export async function boundPairsByUser(
  log: UserPasses,
  released: ReadonlySet<string>,
  d: number,
  prior: Prior | undefined,
): Promise<Bounded> {
  const b = new Bounder(d);
  for await (const block of log.pass()) {
    const list = historyOf(block);
    if (list !== undefined) b.add(ranked(pairKeys(block, list, released), prior));
  }
  return b;
}

/** korolova's step 1 (`limitAndCount`) read by user, and the distinct non-empty queries before the limit. */
export async function limitByUser(
  log: UserPasses,
  d: number,
  progress: Progress,
): Promise<{ counts: LimitedCounts; distinct: number }> {
  const limiter = new EventLimiter(d);
  const distinct = new Set<string>();
  for await (const block of log.pass()) {
    const list = historyOf(block);
    progress.tick(block.length);
    if (list === undefined) continue;
    for (const e of list) distinct.add(e.query);
    limiter.add(block, list);
  }
  return { counts: limiter, distinct: distinct.size };
}
