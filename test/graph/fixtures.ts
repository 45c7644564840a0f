/** Small hand-made and generated logs for the graph, dp and threshold tests (no shared data). */
import fc from "fast-check";
import type { LogRecord, QueryLog } from "../../src/log/record.ts";

/** One query event: `clicks` URLs clicked (one row each), or one row without click. */
export function event(user: string, query: string, time: number, clicks: string[] = []): LogRecord[] {
  if (clicks.length === 0) return [{ user, query, time }];
  return clicks.map((clickUrl) => ({ user, query, time, clickUrl }));
}

export function log(...events: LogRecord[][]): QueryLog {
  return { records: events.flat(), format: "aol" };
}

/**
 * Paper 001, Fig. 7.2, as read from the paper's text: node labels and URL sets are listed in the same reading
 * order (q1 q6 q7 q8 q5 q4 q2 q3 / {u1,u2} {u1,u2} {u2} {u2} {u1,u2} {u5} {u4} {u2}) and paired by position.
 * Events are issued in the order q1..q8, one user per query, one click per URL.
 */
export const FIG_7_2: Record<string, string[]> = {
  q1: ["u1", "u2"],
  q2: ["u4"],
  q3: ["u2"],
  q4: ["u5"],
  q5: ["u1", "u2"],
  q6: ["u1", "u2"],
  q7: ["u2"],
  q8: ["u2"],
};

export function fig72Log(): QueryLog {
  return log(...Object.entries(FIG_7_2).map(([q, urls], i) => event(`user${i}`, q, 1000 + i, urls)));
}

/**
 * Random logs in AOL order (by user, then time): few users, queries and URLs so that queries share URLs and
 * users share queries.
 */
export function logArb(maxEvents = 60): fc.Arbitrary<LogRecord[]> {
  const ev = fc.record({
    user: fc.integer({ min: 0, max: 7 }),
    query: fc.integer({ min: 0, max: 14 }),
    urls: fc.uniqueArray(fc.integer({ min: 0, max: 9 }), { maxLength: 3 }),
    dt: fc.integer({ min: 0, max: 3 }),
  });
  return fc.array(ev, { maxLength: maxEvents }).map((evs) => {
    const sorted = [...evs].sort((a, b) => a.user - b.user);
    const recs: LogRecord[] = [];
    let time = 1_000_000;
    for (const e of sorted) {
      time += e.dt;
      recs.push(
        ...event(
          `u${e.user}`,
          `q${e.query}`,
          time,
          e.urls.map((u) => `http://www.site${u}.com`),
        ),
      );
    }
    return recs;
  });
}
