/**
 * The swap's invariants (paper 000): every released event is an event of the input (same query and clicks),
 * none is released under its author where the input says who that was (a query text only one user issued),
 * and no user is released more events than they issued (each user enters one slot per event and receives one
 * event per slot; only suppression at the end of the stream leaves a slot unused). Where the input carries
 * categories, the same holds per user and top-level category, at any depth: events and slots never leave their
 * top-level bucket, so each user's top-level profile is kept (the paper's §4.5), less what was suppressed.
 */

import type { LogRecord } from "../../log/record.ts";
import { type AuditCheck, n, Violations } from "../check.ts";
import { type AuditEvent, bump, eventsOf, show, topLevel } from "../facts.ts";

export const swapInvariants: AuditCheck = {
  name: "swap invariants",
  promise: "released events come from the input, none under its author, per-user event counts never grow",
  applies: (s) => s.declared.model === "k-bucket" && s.released !== undefined,
  run(s, limit) {
    const v = new Violations(limit);
    const orig = s.original.records;
    const rel = s.released!.records;
    // Every released row is an input row (query, rank, URL), matched as a multiset.
    const pool = new Map<string, number>();
    for (const r of orig) bump(pool, rowKey(r));
    for (const r of rel) {
      const key = rowKey(r);
      const left = pool.get(key) ?? 0;
      if (left > 0) pool.set(key, left - 1);
      else v.add(() => `${show(r)}: not a row of the input (query, rank and URL)`);
    }
    // Never under its author, where the input names one author for the text.
    if (s.params.ownAuthor !== true) {
      const author = new Map<string, string | null>();
      for (const r of orig) {
        const a = author.get(r.query);
        if (a === undefined) author.set(r.query, r.user);
        else if (a !== null && a !== r.user) author.set(r.query, null);
      }
      for (const e of eventsOf(rel)) {
        if (author.get(e.query) === e.user) {
          v.add(() => `${show(rel[e.first]!)}: released under its only author`);
        }
      }
    }
    // Per-user event counts.
    const before = new Map<string, number>();
    const after = new Map<string, number>();
    for (const e of eventsOf(orig)) bump(before, e.user);
    for (const e of eventsOf(rel)) bump(after, e.user);
    let kept = 0;
    for (const [user, count] of after) {
      const had = before.get(user) ?? 0;
      if (count > had) v.add(() => `user ${user}: ${count} events released, issued ${had}`);
    }
    for (const [user, had] of before) if ((after.get(user) ?? 0) === had) kept++;
    const profiles = topLevelProfiles(orig, rel, v);
    return v.outcome(
      `${n(rel.length)} rows; per-user event counts equal for ${n(kept)} of ${n(before.size)} users${profiles}`,
    );
  },
};

/**
 * Per user and top-level category, released event counts never exceed the input's; checked only when every row
 * of both logs has a category (a release written in a layout without them has nothing to compare). Returns the
 * summary's clause.
 */
function topLevelProfiles(orig: readonly LogRecord[], rel: readonly LogRecord[], v: Violations): string {
  const uncategorized = (r: LogRecord) => r.category === undefined;
  if (orig.length === 0 || orig.some(uncategorized) || rel.some(uncategorized)) return "";
  const key = (records: readonly LogRecord[], e: AuditEvent) =>
    `${e.user}\u0000${topLevel(records[e.first]!.category ?? "")}`;
  const before = new Map<string, number>();
  const after = new Map<string, number>();
  for (const e of eventsOf(orig)) bump(before, key(orig, e));
  for (const e of eventsOf(rel)) bump(after, key(rel, e));
  for (const [k, count] of after) {
    const had = before.get(k) ?? 0;
    if (count > had) {
      const [user, top] = k.split("\u0000");
      v.add(() => `user ${user}: ${count} events released in ${JSON.stringify(top)}, issued ${had}`);
    }
  }
  let kept = 0;
  for (const [k, had] of before) if ((after.get(k) ?? 0) === had) kept++;
  return `; top-level profile counts equal for ${n(kept)} of ${n(before.size)} (user, category) pairs`;
}

function rowKey(r: { query: string; itemRank?: number; clickUrl?: string }): string {
  return `${r.query}\u0000${r.itemRank ?? ""}\u0000${r.clickUrl ?? ""}`;
}
