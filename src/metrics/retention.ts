/**
 * Retention: % of the original query events and % of the original users that are still in the
 * release. A released user counts when its id is an original user id with at least one released record.
 * For a count-table release (dp), events = sum of released query counts, and users are n/a.
 */
import { eventsOf } from "./counting.ts";
import { percent, type Yardstick } from "./yardstick.ts";

export const retention: Yardstick = {
  name: "retention",
  kind: "utility",
  title: "Query events and users retained",
  source: "querymask's own",
  guidance:
    "How much of the log is still there. 100% events and 100% users means nothing was removed; a method that " +
    "adds synthetic queries can exceed 100% events. Low retention means analyses will see a thinner, possibly " +
    "biased log (e.g. rare queries and light users go first).",
  columns: () => [
    { key: "events", label: "% query events retained", unit: "%", better: "higher" },
    { key: "users", label: "% users retained", unit: "%", better: "higher" },
  ],
  measure({ original, release }) {
    const before = eventsOf(original.records).length;
    if (!release.log) {
      if (!release.table) return { events: null, users: null };
      const volume = release.table.queries.reduce((s, q) => s + Math.max(0, q.count), 0);
      return { events: percent(volume, before), users: null };
    }
    const after = eventsOf(release.log.records).length;
    const users = new Set(original.records.map((r) => r.user));
    const kept = new Set<string>();
    for (const r of release.log.records) if (users.has(r.user)) kept.add(r.user);
    return { events: percent(after, before), users: percent(kept.size, users.size) };
  },
};
