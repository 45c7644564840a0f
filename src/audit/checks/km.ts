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
    s.method === "km" &&
    s.released !== undefined &&
    typeof s.params.k === "number" &&
    typeof s.params.m === "number",
  run(s, limit) {
    return checkKmAnonymity(s.released!.records, s.params.k as number, s.params.m as number, limit);
  },
};

/** The (k,m) check on any records (also `querymask check-km`). */
export function checkKmAnonymity(
  records: readonly { user: string; query: string }[],
  k: number,
  m: number,
  limit: number,
): ReturnType<AuditCheck["run"]> {
  const histories = new Map<string, Set<string>>();
  for (const r of records) {
    for (const t of termsOf(r.query)) {
      let h = histories.get(r.user);
      if (!h) {
        h = new Set();
        histories.set(r.user, h);
      }
      h.add(t);
    }
  }
  // Support of every combination of 1…m terms, counted once per history.
  const support = new Map<string, string[]>();
  const sorted = [...histories].map(([u, h]) => [u, [...h].sort()] as const);
  for (const [user, terms] of sorted) {
    combinations(terms, m, (combo) => {
      const key = combo.join("\u0000");
      const holders = support.get(key);
      if (holders === undefined) support.set(key, [user]);
      else if (holders.length < k) holders.push(user);
    });
  }
  const v = new Violations(limit);
  for (const [key, holders] of support) {
    if (holders.length >= k) continue;
    v.add(
      () =>
        `{${key.split("\u0000").join(", ")}}: held by ${holders.length} user(s) (${holders.slice(0, 5).join(", ")})`,
    );
  }
  return v.outcome(
    `${n(histories.size)} histories, ${n(support.size)} combinations of ≤ ${m} terms, k = ${k}`,
  );
}

/** Call `visit` with every combination of 1…m items of `items` (sorted, so each set is visited once). */
function combinations(items: readonly string[], m: number, visit: (combo: string[]) => void): void {
  const combo: string[] = [];
  const rec = (start: number) => {
    for (let i = start; i < items.length; i++) {
      combo.push(items[i]!);
      visit(combo);
      if (combo.length < m) rec(i + 1);
      combo.pop();
    }
  };
  rec(0);
}
