/**
 * The contribution bound read one user at a time (`Method.anonymizeByUser`): the same per-user choice as
 * `boundQueries` / `boundPairs` over `histories`, fed from a log grouped by user, so the release holds one
 * user's rows, the bounded sets and the distinct queries, never the log. Query pairs take a second pass, for the
 * queries the first one released. korolova's limit (`EventLimiter`) is per user too: one pass.
 */
import { groupEvents, type QueryEvent } from "../../log/events.ts";
import type { LogRecord } from "../../log/record.ts";
import { NotGroupedByUser } from "../../log/user-blocks.ts";
import type { Progress } from "../../util/progress.ts";
import type { UserPasses } from "../method.ts";
import {
  type Bounded,
  Bounder,
  histories,
  type Prior,
  pairKeys,
  type QueryForm,
  ranked,
} from "./contributions.ts";
import { EventLimiter, type LimitedCounts } from "./korolova.ts";

/** One user's non-empty query events, by time (undefined when they typed none). */
function historyOf(block: readonly LogRecord[], form: QueryForm): QueryEvent[] | undefined {
  return histories(groupEvents(block), form)[0];
}

/**
 * Each pass's blocks, refused (NotGroupedByUser) when a block holds two users' rows or a user's block comes a
 * second time: a user counted twice would get twice the contribution bound, and the sensitivity every threshold
 * assumes. The method checks this itself rather than trust whoever grouped the log.
 */
async function* oneBlockPerUser(
  blocks: AsyncIterable<readonly LogRecord[]>,
): AsyncGenerator<readonly LogRecord[]> {
  const seen = new Set<string>();
  let n = 0;
  for await (const block of blocks) {
    n++;
    const first = block[0];
    if (first === undefined) continue;
    const where = (r: LogRecord) => (r.source ? `${r.source.file}:${r.source.line}` : `user block ${n}`);
    for (const r of block) if (r.user !== first.user) throw new NotGroupedByUser(where(r));
    if (seen.has(first.user)) throw new NotGroupedByUser(where(first));
    seen.add(first.user);
    yield block;
  }
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
  form?: QueryForm,
): Promise<FirstPass> {
  const b = new Bounder(d);
  const distinct = new Set<string>();
  let users = 0;
  for await (const block of oneBlockPerUser(log.pass())) {
    const list = historyOf(block, form);
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
  form?: QueryForm,
): Promise<Bounded> {
  const b = new Bounder(d);
  for await (const block of oneBlockPerUser(log.pass())) {
    const list = historyOf(block, form);
    if (list !== undefined) b.add(ranked(pairKeys(block, list, released), prior));
  }
  return b;
}

/** korolova's step 1 (`limitAndCount`) read by user, and the distinct non-empty queries before the limit. */
export async function limitByUser(
  log: UserPasses,
  d: number,
  progress: Progress,
  form?: QueryForm,
): Promise<{ counts: LimitedCounts; distinct: number }> {
  const limiter = new EventLimiter(d);
  const distinct = new Set<string>();
  for await (const block of oneBlockPerUser(log.pass())) {
    const list = historyOf(block, form);
    progress.tick(block.length);
    if (list === undefined) continue;
    for (const e of list) distinct.add(e.query);
    limiter.add(block, list);
  }
  return { counts: limiter, distinct: distinct.size };
}
