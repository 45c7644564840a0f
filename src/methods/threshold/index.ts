/**
 * "threshold": the frequency-threshold baseline. A query is released only if at least k distinct users issued
 * it; every event of any other query is dropped whole. Rare queries are the ones that identify people (names,
 * addresses), so this is the simplest defence and the yardstick the published methods should beat.
 */
import { groupEvents } from "../../log/events.ts";
import type { Method, Release } from "../method.ts";
import { dropQueries } from "./drop-queries.ts";
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
};
