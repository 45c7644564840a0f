/**
 * Scrubbing a log stream: queries are replaced by their released text, emptied records are removed unless kept,
 * and the counts add up.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import fc from "fast-check";
import { openLog } from "../../src/log/read.ts";
import type { LogRecord } from "../../src/log/record.ts";
import { RejectSink } from "../../src/log/rejects.ts";
import { createRowWriter } from "../../src/log/row-write.ts";
import { readRows } from "../../src/log/rows.ts";
import { writeBatches } from "../../src/log/write.ts";
import { ClickUsers } from "../../src/scrub/click-url.ts";
import { emptyCounts, scrubRecords, scrubRows } from "../../src/scrub/scrub-log.ts";
import { createScrubber } from "../../src/scrub/scrubber.ts";
import { tempDir } from "../helpers/tmp.ts";

async function* batches(...bs: LogRecord[][]): AsyncGenerator<LogRecord[]> {
  for (const b of bs) yield b;
}

const rec = (user: string, query: string, time: number): LogRecord => ({ user, query, time });

async function collect(gen: AsyncIterable<LogRecord[]>): Promise<LogRecord[]> {
  const out: LogRecord[] = [];
  for await (const b of gen) out.push(...b);
  return out;
}

describe("scrubRecords", () => {
  const input = [
    [rec("1", "cheap flights", 10), rec("1", "555-123-4567", 20)],
    [rec("2", "john baker genealogy", 30), rec("2", "john baker genealogy", 31), rec("3", "weather", 40)],
  ];

  it("drops identifiers, removes emptied records, and counts", async () => {
    const counts = emptyCounts();
    const out = await collect(scrubRecords(batches(...input), createScrubber(), counts));
    assert.deepEqual(
      out.map((r) => [r.user, r.query, r.time]),
      [
        ["1", "cheap flights", 10],
        ["2", "genealogy", 30],
        ["2", "genealogy", 31],
        ["3", "weather", 40],
      ],
    );
    assert.equal(counts.records, 5);
    assert.equal(counts.changed, 3);
    assert.equal(counts.removed, 1);
    assert.equal(counts.spans.phone, 1);
    assert.equal(counts.spans.person_name, 2);
  });

  it("keeps emptied records when asked, and tags in tag mode", async () => {
    const counts = emptyCounts();
    const scrubber = createScrubber({ mode: "tag" });
    const out = await collect(scrubRecords(batches(...input), scrubber, counts, { keepEmpty: true }));
    assert.equal(out.length, 5);
    assert.equal(out[1]!.query, "[PHONE]");
    assert.equal(counts.removed, 0);
  });

  it("does not modify the input records", async () => {
    const original = rec("9", "call 555-123-4567", 1);
    await collect(scrubRecords(batches([original]), createScrubber(), emptyCounts()));
    assert.equal(original.query, "call 555-123-4567");
  });
});

describe("scrubRows (an AOL log's raw rows)", () => {
  const dir = tempDir();
  let n = 0;
  const HEADER = "AnonID\tQuery\tQueryTime\tItemRank\tClickURL";
  /** Queries with and without identifiers (one emptied by scrubbing), click URLs of one user and of several. */
  const row = fc.record({
    user: fc.constantFrom("1", "2", "3"),
    query: fc.constantFrom(
      "cheap flights",
      "555-123-4567",
      "john baker genealogy",
      "weather",
      "zorblax q.x",
      "",
    ),
    time: fc.constantFrom("2006-03-01 00:00:01", "2006-03-01 00:00:02", "2006-03-01T00:00:03"),
    click: fc.constantFrom(
      "\t\t",
      "\t1\thttp://www.johnbaker.example",
      "\t2\thttp://shared.example",
      "\t007\ta.example",
    ),
    cols: fc.constantFrom("\tTop/Arts\tart", "\t\t"),
  });
  const file = (
    rows: { user: string; query: string; time: string; click: string; cols: string }[],
    classified: boolean,
  ) => {
    const path = join(dir, `rows-${n++}.tsv`);
    const head = classified ? `${HEADER}\tCategory\tUnit` : HEADER;
    const lines = rows.map((r) => `${r.user}\t${r.query}\t${r.time}${r.click}${classified ? r.cols : ""}`);
    writeFileSync(path, `${head}\n${lines.join("\n")}\n`);
    return path;
  };

  it("writes the record path's bytes and counts (property: layouts, a second file without the columns, options)", async () => {
    const scrubber = createScrubber();
    await fc.assert(
      fc.asyncProperty(
        fc.array(row, { minLength: 1, maxLength: 25 }),
        fc.array(row, { maxLength: 10 }),
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        async (a, b, classified, keepEmpty, singleUser) => {
          const files = [file(a, classified), ...(b.length > 0 ? [file(b, false)] : [])];
          const log = await openLog(files);
          const opts = (clicks: ClickUsers | undefined) => ({
            ...(keepEmpty ? { keepEmpty } : {}),
            ...(clicks ? { clicks } : {}),
          });
          const viaRecords = join(dir, `records-${n}.tsv`);
          const recordCounts = emptyCounts();
          const recordClicks = singleUser ? await ClickUsers.of((await openLog(files)).batches()) : undefined;
          await writeBatches(
            viaRecords,
            "aol",
            scrubRecords(log.batches(), scrubber, recordCounts, opts(recordClicks)),
            {
              classified: log.classified,
            },
          );
          const viaRows = join(dir, `rows-out-${n}.tsv`);
          const rowCounts = emptyCounts();
          const rowClicks = singleUser
            ? await ClickUsers.ofRows(readRows(files, true, new RejectSink()))
            : undefined;
          const out = createRowWriter(viaRows, log.classified);
          const blocks = readRows(files, false, new RejectSink(), undefined, out.readBuffer);
          await scrubRows(blocks, scrubber, rowCounts, out, log.classified, opts(rowClicks));
          await out.close();
          assert.equal(readFileSync(viaRows, "utf8"), readFileSync(viaRecords, "utf8"));
          assert.deepEqual(rowCounts, recordCounts);
        },
      ),
      { numRuns: 150 },
    );
  });
});
