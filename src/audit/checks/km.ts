/**
 * (k,m)-anonymity (paper 003): a user's history is the set of terms of the user's queries; every combination of
 * at most m terms out of a history is held by at least k histories. Counted from the released file alone.
 */
import { type AuditCheck, n, Violations } from "../check.ts";
import { termsOf } from "../facts.ts";

export const kmAnonymity: AuditCheck = {
  name: "(k,m)-anonymity",
  promise: "every ≤ m terms of a user's history are held by ≥ k users",
  applies: (s) =>
    s.declared.model === "km-anonymity" &&
    s.released !== undefined &&
    typeof s.params.k === "number" &&
    typeof s.params.m === "number",
  run(s, limit) {
    return checkKmAnonymity(s.released!.records, s.params.k as number, s.params.m as number, limit);
  },
};

/**
 * The (k,m) check on any records (also `querymask check-km`). Terms are ranked by ascending support; a
 * combination is extended, depth first, only with terms of higher rank and only while it is held by ≥ k users,
 * counting each extension over the holders' histories (a projection). A violation is reported once, at its
 * smallest combination (every superset of it violates too), so the scan is complete with memory linear in the
 * user-term pairs: no table of all combinations, which the AOL subset's histories would not fit.
 */
export function checkKmAnonymity(
  records: readonly { user: string; query: string }[],
  k: number,
  m: number,
  limit: number,
): ReturnType<AuditCheck["run"]> {
  const termId = new Map<string, number>();
  const termOf: string[] = [];
  const histories = new Map<string, Set<number>>();
  for (const r of records) {
    for (const t of termsOf(r.query)) {
      let id = termId.get(t);
      if (id === undefined) {
        id = termOf.length;
        termId.set(t, id);
        termOf.push(t);
      }
      let h = histories.get(r.user);
      if (!h) {
        h = new Set();
        histories.set(r.user, h);
      }
      h.add(id);
    }
  }
  const users = [...histories.keys()];
  const support = new Int32Array(termOf.length);
  for (const h of histories.values()) for (const t of h) support[t]!++;
  const v = new Violations(limit);
  const report = (combo: readonly number[], holders: readonly number[]) => {
    v.add(() => {
      const terms = combo.map((r) => termOf[byRank[r]!]!).sort();
      const who = holders.slice(0, 5).map((u) => users[u]);
      return `{${terms.join(", ")}}: held by ${holders.length} user(s) (${who.join(", ")})`;
    });
  };
  // Single terms; only terms held by ≥ k users are ranked (a combination with a rarer term violates through it).
  const byRank = termOf
    .map((_, t) => t)
    .filter((t) => support[t]! >= k)
    .sort((a, b) => support[a]! - support[b]! || a - b);
  const rank = new Int32Array(termOf.length).fill(-1);
  byRank.forEach((t, r) => {
    rank[t] = r;
  });
  const ranked: Int32Array[] = [];
  const holdersOf: number[][] = byRank.map(() => []);
  const rare = new Map<number, number[]>();
  users.forEach((u, i) => {
    const rs: number[] = [];
    for (const t of histories.get(u)!) {
      if (rank[t]! >= 0) rs.push(rank[t]!);
      else {
        const list = rare.get(t);
        if (list) list.push(i);
        else rare.set(t, [i]);
      }
    }
    ranked.push(Int32Array.from(rs).sort());
    for (const r of rs) holdersOf[r]!.push(i);
  });
  for (const [t, holders] of rare) {
    v.add(
      () =>
        `{${termOf[t]}}: held by ${holders.length} user(s) (${holders
          .slice(0, 5)
          .map((i) => users[i])
          .join(", ")})`,
    );
  }
  let combinations = byRank.length + rare.size;
  const extend = (combo: number[], holders: readonly number[]) => {
    if (combo.length >= m) return;
    const last = combo[combo.length - 1]!;
    const next = new Map<number, number[]>();
    for (const u of holders) {
      const h = ranked[u]!;
      for (let j = upperBound(h, last); j < h.length; j++) {
        const r = h[j]!;
        const list = next.get(r);
        if (list) list.push(u);
        else next.set(r, [u]);
      }
    }
    combinations += next.size;
    for (const r of [...next.keys()].sort((a, b) => a - b)) {
      const hs = next.get(r)!;
      combo.push(r);
      if (hs.length < k) report(combo, hs);
      else extend(combo, hs);
      combo.pop();
    }
  };
  for (let r = 0; r < byRank.length; r++) extend([r], holdersOf[r]!);
  return v.outcome(
    `${n(histories.size)} histories, ${n(combinations)} combinations of ≤ ${m} terms held by ≥ k or minimal violations, k = ${k}`,
  );
}

/** Index of the first element of sorted `a` greater than `x`. */
function upperBound(a: Int32Array, x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
