/**
 * `querymask classify` on raw rows (an AOL log read and written without a record per row): the same bytes and
 * counts as the record path, for lines the fast reader takes and lines it leaves to the codec, clicks kept, dropped
 * as single-user or dropped because their host carries a scrubbed name, and an input already classified.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { Classifier } from "../../src/classify/classifier.ts";
import { ClassifyTally, classifyBatches, classifyRows } from "../../src/classify/classify-log.ts";
import { ClassifyThreads, classifyRowsOnThreads } from "../../src/classify/threads.ts";
import { openLog } from "../../src/log/read.ts";
import { RejectSink } from "../../src/log/rejects.ts";
import { createRowWriter } from "../../src/log/row-write.ts";
import { readRows } from "../../src/log/rows.ts";
import { writeBatches } from "../../src/log/write.ts";
import { ClickUsers } from "../../src/scrub/click-url.ts";

const HEADER = "AnonID\tQuery\tQueryTime\tItemRank\tClickURL";
const dir = mkdtempSync(join(tmpdir(), "querymask-classify-rows-"));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A log with every kind of line the two readers treat differently (`eol` between lines). */
function log(classified: boolean, eol: string): string {
  const extra = classified ? "\tTop/Arts\tstale unit" : "";
  const lines = [
    classified ? `${HEADER}\tCategory\tUnit` : HEADER,
    `1\teuropean soccer barcelona players\t2006-03-01 00:00:01\t1\thttp://www.shared-site.com${extra}`,
    `2\teuropean soccer barcelona players\t2006-03-01 00:00:02\t2\thttp://www.shared-site.com${extra}`,
    `2\tcheap flights\t2006-03-01 00:00:03\t\t${extra}`,
    `3\tcheap flights\t2006-03-01 00:00:04\t3\thttp://www.only-user-three.com${extra}`,
    `4\tjohn baker genealogy\t2006-03-01 00:00:05\t1\thttp://www.johnbaker.com${extra}`,
    `4\tjohn baker genealogy\t2006-03-01 00:00:05\t2\thttp://www.shared-site.com${extra}`,
    `5\tcafé crème recettes\t2006-03-01 00:00:06\t\t${extra}`,
    `5\t\t2006-03-01 00:00:07\t\t${extra}`,
    // Left to the codec: a `T` in the time, a rank with a leading zero.
    `6\tweather forecast\t2006-03-01T00:00:08\t\t${extra}`,
    `6\tweather forecast\t2006-03-01 00:00:09\t01\thttp://www.shared-site.com${extra}`,
    `7\tzorblax shoes\t2006-03-01 00:00:10\t4\thttp://www.zorblaxshoes.com${extra}`,
    `8\tzorblax shoes\t2006-03-01 00:00:11\t1\thttp://www.zorblaxshoes.com${extra}`,
  ];
  if (!classified) lines.push("9\tthree fields only\t2006-03-01 00:00:12");
  return `${lines.join(eol)}${eol}`;
}

describe("classify on raw rows", () => {
  let classifier: Classifier;
  let threads: ClassifyThreads;
  before(async () => {
    classifier = await Classifier.create({ cacheSize: 0 });
    threads = await ClassifyThreads.start(2, { scrub: "drop", mainUnit: "vote", model: true });
  });
  after(() => threads.close());

  for (const [classified, eol, onThreads] of [
    [false, "\n", false],
    [false, "\r\n", false],
    [true, "\n", false],
    [false, "\n", true],
    [true, "\r\n", true],
  ] as const)
    test(`${classified ? "a classified" : "an"} AOL log${eol === "\r\n" ? " with CRLF line ends" : ""}${onThreads ? " on 2 threads" : ""}: the record path's bytes and counts`, async () => {
      const input = join(dir, `in-${classified}-${eol.length}.tsv`);
      writeFileSync(input, log(classified, eol));
      const viaRecords = join(dir, "records.tsv");
      const viaRows = join(dir, "rows.tsv");
      const recordTally = new ClassifyTally();
      const recordClicks = await ClickUsers.of((await openLog([input], { lenient: true })).batches());
      await writeBatches(
        viaRecords,
        "aol",
        classifyBatches(classifier, (await openLog([input])).batches(), recordTally, recordClicks),
        { classified: true },
      );
      const rowTally = new ClassifyTally();
      const rowClicks = await ClickUsers.ofRows(readRows([input], true, new RejectSink()));
      const out = createRowWriter(viaRows, true);
      const blocks = readRows([input], false, new RejectSink(), undefined, out.readBuffer);
      if (onThreads)
        await classifyRowsOnThreads(threads, blocks, rowTally, out, { clicks: rowClicks, cacheSize: 0 });
      else await classifyRows(classifier, blocks, rowTally, rowClicks, out);
      await out.close();
      const expected = readFileSync(viaRecords, "utf8");
      assert.equal(readFileSync(viaRows, "utf8"), expected);
      assert.deepEqual(rowTally.counts, recordTally.counts);
      assert.equal(rowTally.clicksDropped, recordTally.clicksDropped);
      assert.equal(rowTally.singleUserClicksDropped, recordTally.singleUserClicksDropped);
      // The cases are there: a click dropped for the name, single-user clicks dropped, shared ones kept.
      assert.equal(rowTally.clicksDropped, 1);
      assert.ok(rowTally.singleUserClicksDropped >= 1);
      assert.match(expected, /shared-site/);
      assert.doesNotMatch(expected, /johnbaker|only-user-three|stale unit/);
    });

  test("a log of several blocks on threads, blocks sent ahead: the bytes and counts of one thread", async () => {
    // ~3 MB: the reader's blocks are 1 MiB, so blocks are copied and sent out while the next are read; the same
    // few queries recur in every block (and a query still out is borrowed, not asked again).
    const input = join(dir, "big.tsv");
    const queries = [
      "european soccer barcelona players",
      "cheap flights",
      "john baker genealogy",
      "zorblax shoes",
    ];
    const lines = [HEADER];
    for (let i = 0; i < 36_000; i++) {
      const s = String(i % 60).padStart(2, "0");
      const m = String(Math.floor(i / 60) % 60).padStart(2, "0");
      lines.push(
        `${i % 97}\t${queries[i % 4]} ${i % 13}\t2006-03-01 01:${m}:${s}\t${1 + (i % 9)}\thttp://www.site-${i % 50}.com`,
      );
    }
    writeFileSync(input, `${lines.join("\n")}\n`);
    const run = async (by: "one" | [number, number]) => {
      const path = join(dir, `big-${by}.tsv`);
      const tally = new ClassifyTally();
      const clicks = await ClickUsers.ofRows(readRows([input], true, new RejectSink()));
      const out = createRowWriter(path, true);
      const blocks = readRows([input], false, new RejectSink(), undefined, out.readBuffer);
      if (by === "one") await classifyRows(classifier, blocks, tally, clicks, out);
      else
        await classifyRowsOnThreads(threads, blocks, tally, out, { clicks, ahead: by[0], cacheSize: by[1] });
      await out.close();
      return { bytes: readFileSync(path), counts: tally.counts, dropped: tally.singleUserClicksDropped };
    };
    const one = await run("one");
    assert.ok(one.bytes.length > 2.5 * 2 ** 20);
    for (const by of [
      [2, 0],
      [1, 100],
      [3, 0],
    ] as [number, number][]) {
      const threaded = await run(by);
      assert.ok(threaded.bytes.equals(one.bytes), `ahead ${by[0]}, cache ${by[1]}`);
      assert.deepEqual(threaded.counts, one.counts);
      assert.equal(threaded.dropped, one.dropped);
    }
  });
});
