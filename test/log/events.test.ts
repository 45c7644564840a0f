import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import fc from "fast-check";
import { groupEvents } from "../../src/log/events.ts";
import { loadLog } from "../../src/log/read.ts";
import type { LogRecord } from "../../src/log/record.ts";
import { RejectSink } from "../../src/log/rejects.ts";
import { readRows } from "../../src/log/rows.ts";
import { StatsAccumulator } from "../../src/log/stats.ts";
import { tempDir } from "../helpers/tmp.ts";

// A hand-made AOL snippet: a query with two clicks, a next-page request of it with one click, a query without
// click, and another user's query.
const SNIPPET = `AnonID\tQuery\tQueryTime\tItemRank\tClickURL
2708\trevenge tactics\t2006-03-01 07:33:28\t1\thttp://www.books4you.com
2708\trevenge tactics\t2006-03-01 07:33:28\t3\thttp://www.ekran.no
2708\trevenge tactics\t2006-03-01 07:35:02\t11\thttp://www.revengelady.com
2708\tvoice changer\t2006-03-01 18:42:01\t\t
2709\trevenge tactics\t2006-03-02 09:00:00\t2\thttp://www.books4you.com
`;

test("the events view groups click rows under their query event and spots next-page requests", async () => {
  const path = join(tempDir(), "snippet.tsv");
  writeFileSync(path, SNIPPET);
  const { records } = await loadLog([path]);
  const events = groupEvents(records);
  assert.deepEqual(
    events.map((e) => [e.user, e.query, e.first, e.rows, e.clicks, e.nextPage]),
    [
      ["2708", "revenge tactics", 0, 2, 2, false],
      ["2708", "revenge tactics", 2, 1, 1, true],
      ["2708", "voice changer", 3, 1, 0, false],
      ["2709", "revenge tactics", 4, 1, 1, false],
    ],
  );
  const acc = new StatsAccumulator();
  acc.push(records.slice(0, 2));
  acc.push(records.slice(2));
  const s = acc.result();
  assert.equal(s.queryEvents, 4);
  assert.equal(s.clickRows, 4);
  assert.equal(s.nextPageRequests, 1);
  assert.equal(s.distinctQueries, 2);
  assert.equal(s.users, 2);
  assert.deepEqual(s.queriesPerUser, { min: 1, median: 2, max: 3 });
});

test("events partition the rows, and streaming stats agree with the events view (property)", () => {
  const rec = fc.record({
    user: fc.constantFrom("a", "b"),
    query: fc.constantFrom("x", "y", ""),
    time: fc.integer({ min: 0, max: 3 }),
  });
  fc.assert(
    fc.property(fc.array(rec, { maxLength: 40 }), fc.nat(40), (raw, cut) => {
      const records: LogRecord[] = raw.map((r) => ({ ...r }));
      const events = groupEvents(records);
      let next = 0;
      for (const e of events) {
        assert.equal(e.first, next);
        next += e.rows;
      }
      assert.equal(next, records.length);
      const acc = new StatsAccumulator();
      acc.push(records.slice(0, cut));
      acc.push(records.slice(cut));
      const s = acc.result();
      assert.equal(s.queryEvents, events.length);
      assert.equal(s.nextPageRequests, events.filter((e) => e.nextPage).length);
    }),
  );
});

/** AOL lines from few users, queries and times (so rows repeat an event), some left to the codec (a `T` time, rank `007`). */
const aolLines = fc.array(
  fc
    .record({
      user: fc.constantFrom("1", "22", "é"),
      query: fc.constantFrom("ab", "ba", "", "a b", "é"),
      time: fc.constantFrom("2006-03-01 00:01:44", "2006-03-01 00:01:45", "2006-03-01T00:01:44"),
      click: fc.constantFrom("\t\t", "\t1\thttp://a.example", "\t007\thttp://a.example"),
    })
    .map((r) => `${r.user}\t${r.query}\t${r.time}${r.click}`),
  { minLength: 1, maxLength: 40 },
);

test("stats on an AOL log's raw rows are the stats of its records (property)", async () => {
  const dir = tempDir();
  let n = 0;
  await fc.assert(
    fc.asyncProperty(aolLines, async (lines) => {
      const path = join(dir, `log-${n++}.tsv`);
      writeFileSync(path, `AnonID\tQuery\tQueryTime\tItemRank\tClickURL\n${lines.join("\n")}\n`);
      const fromRecords = new StatsAccumulator();
      fromRecords.push((await loadLog([path])).records);
      const fromRows = new StatsAccumulator();
      for await (const rows of readRows([path], false, new RejectSink(undefined))) fromRows.pushRows(rows);
      assert.deepEqual(fromRows.result(), fromRecords.result());
    }),
    { numRuns: 200 },
  );
});
