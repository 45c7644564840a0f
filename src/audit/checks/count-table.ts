/**
 * A count table (dp) releases aggregates of the input only: every released query, and every released
 * (query, URL) pair, was logged in the input. (The noise and the per-user contribution bound are not checkable
 * from noisy counts; the table's layout is checked when it is read.)
 */
import { type AuditCheck, n, Violations } from "../check.ts";

export const countTable: AuditCheck = {
  name: "count table",
  promise: "every released query and query-URL pair was logged in the input",
  applies: (s) => s.table !== undefined,
  run(s, limit) {
    const queries = new Set<string>();
    const pairs = new Set<string>();
    for (const r of s.original.records) {
      queries.add(r.query);
      if (r.clickUrl) pairs.add(`${r.query}\u0000${r.clickUrl}`);
    }
    const v = new Violations(limit);
    for (const q of s.table!.queries) {
      if (!queries.has(q.query)) v.add(() => `query ${JSON.stringify(q.query)}: not in the input`);
      if (!(q.count >= 0)) v.add(() => `query ${JSON.stringify(q.query)}: count ${q.count}`);
    }
    for (const c of s.table!.clicks) {
      if (!pairs.has(`${c.query}\u0000${c.url}`)) {
        v.add(() => `click ${JSON.stringify(c.query)} → ${c.url}: not in the input`);
      }
    }
    return v.outcome(`${n(s.table!.queries.length)} queries, ${n(s.table!.clicks.length)} click pairs`);
  },
};
