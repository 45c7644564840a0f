/**
 * k-anonymity of user logs (the microaggregation methods of paper 004): every released user's log is identical
 * to the logs of at least k − 1 other released users.
 */
import type { LogRecord } from "../../log/record.ts";
import { type AuditCheck, n, Violations } from "../check.ts";

export const kAnonymity: AuditCheck = {
  name: "k-anonymity",
  promise: "every released user log is shared by ≥ k users",
  applies: (s) =>
    s.declared.model === "k-anonymity" && s.released !== undefined && typeof s.params.k === "number",
  run(s, limit) {
    return checkKAnonymity(s.released!.records, s.params.k as number, limit);
  },
};

/** k-anonymity of user logs on any records: users whose released log fewer than k users share. */
export function checkKAnonymity(
  records: readonly LogRecord[],
  k: number,
  limit: number,
): ReturnType<AuditCheck["run"]> {
  const rows = new Map<string, string[]>();
  for (const r of records) {
    let list = rows.get(r.user);
    if (!list) {
      list = [];
      rows.set(r.user, list);
    }
    list.push(rowKey(r));
  }
  const groups = new Map<string, string[]>();
  for (const [user, list] of rows) {
    const key = list.sort().join("\u0001");
    const g = groups.get(key);
    if (g) g.push(user);
    else groups.set(key, [user]);
  }
  const v = new Violations(limit);
  for (const users of groups.values()) {
    if (users.length >= k) continue;
    for (const u of users) {
      v.add(
        () => `user ${u}: released log shared by ${users.length} user(s) (${users.slice(0, 5).join(", ")})`,
      );
    }
  }
  return v.outcome(`${n(rows.size)} users in ${n(groups.size)} distinct logs, k = ${k}`);
}

function rowKey(r: LogRecord): string {
  return `${r.time}\u0000${r.query}\u0000${r.itemRank ?? ""}\u0000${r.clickUrl ?? ""}`;
}
