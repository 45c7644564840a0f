/**
 * Record linkage RL of paper 004 (§5.1, Eq. 10), the disclosure risk of a user-level release.
 *
 * The attacker compares each released user log u^A with every original user log and links it to the original
 * log(s) G with the most queries in common (distinct query strings shared). P(u^A) = 1/|G| when the true user
 * is in G, else 0; RL = Σ P / m × 100 over the m original users. A released log sharing no query with any
 * original log links to nothing (P = 0), and so does a user absent from the release. Released users are matched
 * to their true originals by user id (the user-level methods keep ids).
 */
import type { QueryLog } from "../log/record.ts";

export interface RecordLinkageResult {
  /** RL, in percent of the original users. */
  readonly rl: number;
  /** Σ P(u^A): the expected number of users linked to themselves. */
  readonly linked: number;
  /** m: original users (with at least one non-empty query). */
  readonly users: number;
}

/** Distinct non-empty query strings of each user, in order of first appearance of users. */
function userQueries(log: QueryLog): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const r of log.records) {
    if (r.query === "") continue;
    let s = out.get(r.user);
    if (!s) {
      s = new Set();
      out.set(r.user, s);
    }
    s.add(r.query);
  }
  return out;
}

export function recordLinkage(original: QueryLog, released: QueryLog): RecordLinkageResult {
  const orig = userQueries(original);
  const users = [...orig.keys()];
  const postings = new Map<string, number[]>();
  users.forEach((u, i) => {
    for (const q of orig.get(u)!) {
      const p = postings.get(q);
      if (p) p.push(i);
      else postings.set(q, [i]);
    }
  });
  const index = new Map(users.map((u, i) => [u, i]));
  const counts = new Int32Array(users.length);
  const touched: number[] = [];
  /** Best-matching original users of a released log, cached by log (k users share each log). */
  const cache = new Map<string, number[]>();
  const best = (queries: Set<string>): number[] => {
    const key = [...queries].sort().join("\n");
    const hit = cache.get(key);
    if (hit) return hit;
    let max = 0;
    for (const q of queries) {
      for (const i of postings.get(q) ?? []) {
        if (counts[i] === 0) touched.push(i);
        const c = ++counts[i]!;
        if (c > max) max = c;
      }
    }
    const g = max === 0 ? [] : touched.filter((i) => counts[i] === max);
    for (const i of touched) counts[i] = 0;
    touched.length = 0;
    cache.set(key, g);
    return g;
  };
  let linked = 0;
  for (const [user, queries] of userQueries(released)) {
    const truth = index.get(user);
    if (truth === undefined) continue;
    const g = best(queries);
    if (g.includes(truth)) linked += 1 / g.length;
  }
  return { rl: users.length === 0 ? 0 : (100 * linked) / users.length, linked, users: users.length };
}
