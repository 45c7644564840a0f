/**
 * "threshold": the frequency-threshold baseline. A query is released only if at least k distinct users issued
 * it; every event of any other query is dropped whole. Rare queries are the ones that identify people (names,
 * addresses), so this is the simplest defence and the yardstick the published methods should beat.
 */
import { groupEvents } from "../../log/events.ts";
import type { Progress } from "../../util/progress.ts";
import type { Method, Release, ReleaseSink, UserPasses } from "../method.ts";
import type { SummedRows } from "../sharded.ts";
import { dropQueries, dropQueriesByUser, mergeRemovalParts } from "./drop-queries.ts";
import { type ThresholdParams, thresholdDeclaration } from "./meta.ts";

/** Queries issued by fewer than `k` distinct users. */
export function rareQueries(users: Iterable<{ user: string; query: string }>, k: number): Set<string> {
  const byQuery = new Map<string, Set<string>>();
  for (const { user, query } of users) {
    let s = byQuery.get(query);
    if (!s) {
      s = new Set();
      byQuery.set(query, s);
    }
    if (s.size < k) s.add(user);
  }
  const rare = new Set<string>();
  for (const [query, s] of byQuery) if (s.size < k) rare.add(query);
  return rare;
}

/**
 * The queries of a log read by user that at least `k` users issued, and the number of distinct queries: one pass,
 * holding a count per distinct query (a user's block is one user, so each adds one to each query they typed).
 */
export async function commonQueriesByUser(
  log: UserPasses,
  k: number,
  progress?: Progress,
): Promise<{ common: Set<string>; distinct: number }> {
  const users = new Map<string, number>();
  for await (const block of log.pass()) {
    const typed = new Set<string>();
    for (const e of groupEvents(block)) typed.add(e.query);
    for (const q of typed) {
      const n = users.get(q);
      if (n === undefined) users.set(q, 1);
      else if (n < k) users.set(q, n + 1);
    }
    progress?.tick(block.length);
  }
  const common = new Set<string>();
  for (const [q, n] of users) if (n >= k) common.add(q);
  return { common, distinct: users.size };
}

/** Rows of threshold's partial aggregate: a query and the users (of the shard) who typed it. */
const QUERY_USERS = 0;

export const threshold: Method<ThresholdParams> = {
  ...thresholdDeclaration,
  parse: (raw) => thresholdDeclaration.params.parse(raw),
  async anonymize(input, params, ctx): Promise<Release> {
    ctx.progress.start("threshold: counting users per query");
    const events = groupEvents(input.records);
    const rare = rareQueries(events, params.k);
    ctx.progress.stop();
    return dropQueries(input, events, rare);
  },
  async anonymizeByUser(log, params, ctx, out): Promise<Release> {
    ctx.progress.start("threshold: counting users per query, one user at a time");
    const { common, distinct } = await commonQueriesByUser(log, params.k, ctx.progress);
    ctx.progress.stop();
    return writeCommon(log, common, distinct, ctx.progress, out);
  },
  sharded: {
    addUser(block, _order, table) {
      const typed = new Set<string>();
      for (const e of groupEvents(block)) typed.add(e.query);
      for (const q of typed) table.add(QUERY_USERS, q, "", 1, 0, 0);
    },
    parts: {
      async decide(sums, params): Promise<CommonQueries> {
        const { common, distinct } = await commonOfSums(sums, params.k);
        return { common: [...common], distinct };
      },
      write(decision, log, _params, out) {
        const d = decision as CommonQueries;
        const common = new Set(d.common);
        return dropQueriesByUser(
          log,
          (q) => common.has(q),
          { distinct: d.distinct, released: common.size },
          out,
        );
      },
      merge(decision, shards) {
        const d = decision as CommonQueries;
        return mergeRemovalParts(shards, { distinct: d.distinct, released: d.common.length });
      },
    },
    async release(sums, log, params, ctx, out) {
      const { common, distinct } = await commonOfSums(sums, params.k);
      return writeCommon(log, common, distinct, ctx.progress, out);
    },
  },
};

/** The decision the workers write their parts of the release from: the queries released, and how many there were. */
interface CommonQueries {
  readonly common: readonly string[];
  readonly distinct: number;
}

/** The queries at least `k` users typed, from the summed users per query. */
async function commonOfSums(sums: SummedRows, k: number): Promise<{ common: Set<string>; distinct: number }> {
  const common = new Set<string>();
  let distinct = 0;
  for await (const page of sums.rows(QUERY_USERS)) {
    distinct += page.length;
    for (const r of page) if (r.a >= k) common.add(r.key);
  }
  return { common, distinct };
}

/** The release of the queries in `common`, written from the log read by user. */
async function writeCommon(
  log: UserPasses,
  common: ReadonlySet<string>,
  distinct: number,
  progress: Progress,
  out: ReleaseSink | undefined,
): Promise<Release> {
  progress.start("threshold: writing the queries at least k users issued");
  try {
    return await dropQueriesByUser(
      log,
      (q) => common.has(q),
      { distinct, released: common.size },
      out,
      {},
      progress,
    );
  } finally {
    progress.stop();
  }
}
