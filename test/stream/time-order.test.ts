import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { test } from "node:test";
import fc from "fast-check";
import type { LogRecord } from "../../src/log/record.ts";
import { checkTimeOrder, NotInTimeOrder, sortByTime } from "../../src/stream/time-order.ts";
import { tempDir } from "../helpers/tmp.ts";

async function* batchesOf(records: readonly LogRecord[], size: number): AsyncGenerator<LogRecord[]> {
  for (let i = 0; i < records.length; i += size) yield records.slice(i, i + size);
}

async function collect(it: AsyncIterable<LogRecord[]>): Promise<LogRecord[]> {
  const out: LogRecord[] = [];
  for await (const b of it) out.push(...b);
  return out;
}

const recordArb = fc.record(
  {
    user: fc.constantFrom("u1", "u2", "u3"),
    query: fc.string({ maxLength: 6 }),
    time: fc.integer({ min: 0, max: 20 }),
    itemRank: fc.integer({ min: 1, max: 10 }),
    clickUrl: fc.constantFrom("http://a.example", 'b\tc \\ \u00e9"', ""),
    category: fc.constantFrom("Top/Arts", ""),
    unit: fc.string({ maxLength: 4 }),
  },
  { requiredKeys: ["user", "query", "time"] },
);

test("sortByTime is a stable sort by time, in memory, from runs on disk, or through several merge passes", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(recordArb, { maxLength: 200 }),
      fc.integer({ min: 1, max: 50 }),
      fc.integer({ min: 1, max: 120 }),
      fc.integer({ min: 2, max: 5 }),
      async (input, batch, runRecords, fanIn) => {
        const records = input.map((r, i) => ({ ...r, source: { file: "in.tsv", line: i + 2 } }));
        const dir = tempDir();
        let runs = -1;
        const sorted = await collect(
          sortByTime(batchesOf(records, batch), {
            runRecords,
            batchSize: 7,
            tempDir: dir,
            fanIn,
            onRuns: (n) => (runs = n),
          }),
        );
        const expected = records
          .map((r, i) => [r, i] as const)
          .sort((a, b) => a[0].time - b[0].time || a[1] - b[1])
          .map(([r]) => r);
        assert.deepEqual(sorted, expected);
        assert.equal(runs, records.length > runRecords ? Math.ceil(records.length / runRecords) : 0);
        assert.deepEqual(readdirSync(dir), [], "the run files are removed");
      },
    ),
    { numRuns: 150 },
  );
});

test("checkTimeOrder passes a log in time order through and stops at the first record out of order", async () => {
  const rec = (time: number, line: number): LogRecord => ({
    user: "u",
    query: "q",
    time,
    source: { file: "log.tsv", line },
  });
  const ordered = [rec(1, 2), rec(1, 3), rec(5, 4), rec(9, 5)];
  assert.deepEqual(await collect(checkTimeOrder(batchesOf(ordered, 2))), ordered);
  const unordered = [rec(1, 2), rec(5, 3), rec(9, 4), rec(4, 5), rec(10, 6)];
  await assert.rejects(
    collect(checkTimeOrder(batchesOf(unordered, 2))),
    (e: unknown) =>
      e instanceof NotInTimeOrder && e.where === "log.tsv:5" && e.previous === 9 && e.time === 4,
  );
});
