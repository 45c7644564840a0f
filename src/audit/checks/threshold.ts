/** The frequency threshold: every released query was issued by at least k distinct released users. */
import { type AuditCheck, n, Violations } from "../check.ts";

export const thresholdUsers: AuditCheck = {
  name: "≥ k users per query",
  promise: "every released query is issued by ≥ k distinct users",
  applies: (s) =>
    s.declared.model === "k-users-per-query" && s.released !== undefined && typeof s.params.k === "number",
  run(s, limit) {
    const k = s.params.k as number;
    const users = new Map<string, Set<string>>();
    for (const r of s.released!.records) {
      let set = users.get(r.query);
      if (!set) {
        set = new Set();
        users.set(r.query, set);
      }
      set.add(r.user);
    }
    const v = new Violations(limit);
    for (const [query, set] of users) {
      if (set.size < k)
        v.add(() => `${JSON.stringify(query)}: ${set.size} user(s) (${[...set].slice(0, 5).join(", ")})`);
    }
    return v.outcome(`${n(users.size)} distinct queries, k = ${k}`);
  },
};
