/**
 * The independent (k,m)-anonymity checker. It recounts everything from the records it is given — any log, from
 * any method — and shares nothing with the method but the definition of a term (terms.ts):
 *
 *   a log is (k,m)-anonymous if every combination of at most m distinct terms out of one user's history is
 *   contained in the histories of at least k users (the user's own included).
 *
 * A violation is such a combination held by 1 … k−1 users. Counting is depth-first by projection over the
 * histories, terms ordered by ascending support: a combination is extended only while it is held by ≥ k users
 * (a superset of a violation is not reported separately: it is fixed with it). The scan is complete, so "no
 * violation" is a proof, not a sample.
 */
import type { LogRecord } from "../../log/record.ts";
import { queryTerms } from "./terms.ts";

export interface KmViolation {
  /** The combination, terms sorted. */
  readonly terms: string[];
  /** Number of users holding it (1 … k−1). */
  readonly support: number;
  /** Those users. */
  readonly users: string[];
}

export interface KmCheck {
  readonly ok: boolean;
  readonly k: number;
  readonly m: number;
  /** Users with at least one term. */
  readonly users: number;
  readonly terms: number;
  /** All violations found (minimal in the sense above). */
  readonly violationCount: number;
  /** The first `limit` of them, smallest combinations first. */
  readonly violations: KmViolation[];
}

/** Check (k,m)-anonymity of `records`; list at most `limit` violations (default 20). */
export function checkKm(records: readonly LogRecord[], k: number, m: number, limit = 20): KmCheck {
  // Histories: user → distinct terms.
  const byUser = new Map<string, Set<string>>();
  for (const r of records) {
    const terms = queryTerms(r.query);
    if (terms.length === 0) continue;
    let set = byUser.get(r.user);
    if (!set) {
      set = new Set();
      byUser.set(r.user, set);
    }
    for (const t of terms) set.add(t);
  }
  const userNames = [...byUser.keys()];
  const support = new Map<string, number>();
  for (const set of byUser.values()) for (const t of set) support.set(t, (support.get(t) ?? 0) + 1);
  const names = [...support.keys()].sort((a, b) => support.get(a)! - support.get(b)! || (a < b ? -1 : 1));
  const id = new Map(names.map((t, i) => [t, i]));
  const hist: Int32Array[] = userNames.map((u) => Int32Array.from(byUser.get(u)!, (t) => id.get(t)!).sort());

  // The first `limit` violations of each size (so the smallest can be listed first), and the total.
  const found: { ids: number[]; users: number[] }[][] = Array.from({ length: m + 1 }, () => []);
  let count = 0;
  const slot = new Int32Array(names.length); // 1 + index in `touched` of a term, 0 when untouched

  /** Users `us` hold `prefix`; `from[i]` is where to look for extensions in `hist[us[i]]`. */
  const visit = (prefix: number[], us: number[], from: number[]): void => {
    const touched: number[] = [];
    const bucketUsers: number[][] = [];
    const bucketFrom: number[][] = [];
    for (let i = 0; i < us.length; i++) {
      const h = hist[us[i]!]!;
      for (let p = from[i]!; p < h.length; p++) {
        const t = h[p]!;
        let j = slot[t]! - 1;
        if (j < 0) {
          j = touched.length;
          slot[t] = j + 1;
          touched.push(t);
          bucketUsers.push([]);
          bucketFrom.push([]);
        }
        bucketUsers[j]!.push(us[i]!);
        bucketFrom[j]!.push(p + 1);
      }
    }
    for (const t of touched) slot[t] = 0;
    for (let j = 0; j < touched.length; j++) {
      const holders = bucketUsers[j]!;
      const next = [...prefix, touched[j]!];
      if (holders.length < k) {
        count++;
        const list = found[next.length]!;
        if (list.length < limit) list.push({ ids: next, users: holders });
      } else if (next.length < m) visit(next, holders, bucketFrom[j]!);
    }
  };
  visit(
    [],
    userNames.map((_, i) => i),
    userNames.map(() => 0),
  );

  const violations = found
    .flat()
    .slice(0, limit)
    .map((v) => ({
      terms: v.ids.map((i) => names[i]!).sort(),
      support: v.users.length,
      users: v.users.map((u) => userNames[u]!),
    }));
  return {
    ok: count === 0,
    k,
    m,
    users: userNames.length,
    terms: names.length,
    violationCount: count,
    violations,
  };
}
