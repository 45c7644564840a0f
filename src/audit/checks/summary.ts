/**
 * Row conservation of the method's summary: the counts it reports match the files — input rows and events,
 * released rows and events, and for a method that suppresses, input rows = released rows + suppressed rows.
 * Only the counts the summary carries are checked.
 */
import { type AuditCheck, n, Violations } from "../check.ts";
import { eventsOf } from "../facts.ts";

export const summaryCounts: AuditCheck = {
  name: "summary counts",
  promise: "the summary's row and event counts match the files; nothing vanishes",
  applies: (s) => s.summary !== undefined,
  run(s, limit) {
    const sum = s.summary!;
    const v = new Violations(limit);
    const num = (key: string): number | undefined =>
      typeof sum[key] === "number" ? (sum[key] as number) : undefined;
    const inRows = s.original.records.length;
    const distinct = (xs: Iterable<string>) => new Set(xs).size;
    const relRecords = s.released?.records;
    const facts: [string[], () => number][] = [
      [["records", "input rows"], () => inRows],
      [["events", "input events"], () => eventsOf(s.original.records).length],
    ];
    if (relRecords) {
      facts.push([["released", "released rows", "rows released"], () => relRecords.length]);
      facts.push([["released events", "events released"], () => eventsOf(relRecords).length]);
      facts.push([["queries released"], () => distinct(relRecords.map((r) => r.query))]);
      facts.push([["users released"], () => distinct(relRecords.map((r) => r.user))]);
      facts.push([["rows removed"], () => inRows - relRecords.length]);
    }
    if (s.table) {
      facts.push([["queries released"], () => s.table!.queries.length]);
      facts.push([["click pairs released"], () => s.table!.clicks.length]);
    }
    let compared = 0;
    for (const [keys, actual] of facts) {
      for (const key of keys) {
        const said = num(key);
        if (said === undefined) continue;
        compared++;
        const is = actual();
        if (said !== is) v.add(() => `${key}: the summary says ${n(said)}, the file holds ${n(is)}`);
      }
    }
    const suppressed = num("suppressed rows");
    const released = num("released rows");
    if (suppressed !== undefined && released !== undefined && (num("held events") ?? 0) === 0) {
      compared++;
      if (released + suppressed !== inRows) {
        v.add(
          () => `released rows ${n(released)} + suppressed rows ${n(suppressed)} ≠ input rows ${n(inRows)}`,
        );
      }
    }
    return v.outcome(`${compared} counts compared`);
  },
};
