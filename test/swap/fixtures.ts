/** Small generated logs for the swap tests: events in time order, 1–3 click rows each, unique query texts. */
import fc from "fast-check";
import type { LogRecord } from "../../src/log/record.ts";

export const CATEGORIES = ["Top/Arts", "Top/Sports/Soccer", "Top/Sports/Tennis", "Top/Health", ""];

export interface EventSpec {
  user: number;
  cat: number;
  rows: number;
  gap: number;
}

export const eventSpec = (users = 5): fc.Arbitrary<EventSpec> =>
  fc.record({
    user: fc.integer({ min: 0, max: users - 1 }),
    cat: fc.integer({ min: 0, max: CATEGORIES.length - 1 }),
    rows: fc.integer({ min: 1, max: 3 }),
    gap: fc.integer({ min: 0, max: 100 }),
  });

export function buildLog(specs: readonly EventSpec[]): LogRecord[] {
  const out: LogRecord[] = [];
  let time = 1_141_171_200;
  specs.forEach((s, i) => {
    time += s.gap + 1;
    for (let r = 0; r < s.rows; r++) {
      out.push({
        user: `u${s.user}`,
        query: `q${i}`,
        time,
        itemRank: r + 1,
        clickUrl: `http://site${r}.example`,
        category: CATEGORIES[s.cat]!,
      });
    }
  });
  return out;
}

export const logArb = (users = 5, max = 120): fc.Arbitrary<LogRecord[]> =>
  fc.array(eventSpec(users), { minLength: 0, maxLength: max }).map(buildLog);
