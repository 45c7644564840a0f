/** Hand-made logs with known answers for the yardstick and runner tests. */

import { Taxonomy } from "../../src/knowledge/taxonomy.ts";
import type { LogRecord, QueryLog } from "../../src/log/record.ts";
import { NO_GUARANTEE, type Release } from "../../src/methods/method.ts";
import type { YardstickContext, YardstickOptions } from "../../src/metrics/yardstick.ts";
import { DEFAULT_OPTIONS } from "../../src/metrics/yardstick.ts";
import { Rng } from "../../src/util/random.ts";

/** One record: user, query, time, optional category and click. */
export function rec(
  user: string,
  query: string,
  time: number,
  category?: string,
  clickUrl?: string,
): LogRecord {
  const r: LogRecord = { user, query, time };
  if (category !== undefined) r.category = category;
  if (clickUrl !== undefined) r.clickUrl = clickUrl;
  return r;
}

/**
 * Four users with distinct query sets (each has at least 4 distinct queries, so m = 1..3 attacks apply), ODP
 * categories, and clicks on some queries.
 */
export function smallLog(): QueryLog {
  const records: LogRecord[] = [];
  const users: [string, string, string[]][] = [
    ["alice", "Top/Arts/Music", ["jazz records", "blue note", "miles davis", "coltrane", "weather"]],
    ["bob", "Top/Sports/Soccer", ["premier league", "arsenal", "offside rule", "world cup", "weather"]],
    ["carol", "Top/Science/Math", ["prime numbers", "riemann", "euler", "topology"]],
    ["dave", "Top/Arts/Movies", ["casablanca", "film noir", "oscars", "hitchcock", "weather"]],
  ];
  let t = 1000;
  for (const [user, cat, queries] of users) {
    for (const q of queries) {
      const c = q === "weather" ? "Top/Science/Earth_Sciences" : cat;
      records.push(rec(user, q, t, c, q.length % 2 === 0 ? `${q.replace(/ /g, "")}.com` : undefined));
      t += 60;
    }
  }
  return { records, format: "aol", classified: true };
}

export function identityRelease(log: QueryLog): Release {
  return {
    log: { ...log, records: log.records.map((r) => ({ ...r })) },
    origin: Int32Array.from(log.records.map((_, i) => i)),
    counts: {},
    guarantee: NO_GUARANTEE,
  };
}

export function emptyRelease(log: QueryLog): Release {
  return { log: { ...log, records: [] }, origin: new Int32Array(0), counts: {}, guarantee: NO_GUARANTEE };
}

export function context(options: Partial<YardstickOptions> = {}, seed = 7): YardstickContext {
  const tax = Taxonomy.bundled();
  return {
    rng: Rng.fromSeed(seed),
    options: { ...DEFAULT_OPTIONS, ...options },
    taxonomy: () => tax,
    categoryOf: (_q, own) => own ?? "",
  };
}
