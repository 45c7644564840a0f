/**
 * Classification on worker threads (`querymask classify --threads n`): the records, their order and the counts are
 * those of one classifier, whatever the group size, the look-ahead and the answers kept — including a query that a
 * later group meets while an earlier group is still classifying it.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { Classifier } from "../../src/classify/classifier.ts";
import { ClassifyTally, classifyBatches } from "../../src/classify/classify-log.ts";
import { ClassifyThreads, classifyBatchesOnThreads } from "../../src/classify/threads.ts";
import { openLog } from "../../src/log/read.ts";
import type { LogRecord } from "../../src/log/record.ts";
import { ClickUsers } from "../../src/scrub/click-url.ts";

const EXCITE = fileURLToPath(new URL("../../data/excite/excite-small.log", import.meta.url));

async function collect(batches: AsyncIterable<LogRecord[]>): Promise<LogRecord[]> {
  const out: LogRecord[] = [];
  for await (const b of batches) out.push(...b);
  return out;
}

describe("classification on worker threads", () => {
  let threads: ClassifyThreads;
  let serial: { records: LogRecord[]; counts: Record<string, number> };
  let clicks: ClickUsers;
  before(async () => {
    threads = await ClassifyThreads.start(2, { scrub: "drop", mainUnit: "vote", model: true });
    clicks = await ClickUsers.of((await openLog([EXCITE])).batches());
    const tally = new ClassifyTally();
    const classifier = await Classifier.create({ cacheSize: 100 });
    const records = await collect(
      classifyBatches(classifier, (await openLog([EXCITE])).batches(), tally, clicks),
    );
    serial = { records, counts: tally.counts };
  });
  after(() => threads.close());

  for (const [groupRecords, ahead, cacheSize] of [
    [8192, 2, 100_000],
    [37, 3, 0],
    [64, 1, 10],
    [500, 0, 1000],
  ] as const)
    test(`groups of ${groupRecords}, ${ahead} ahead, ${cacheSize} answers kept: the serial release`, async () => {
      const tally = new ClassifyTally();
      const records = await collect(
        classifyBatchesOnThreads(threads, (await openLog([EXCITE])).batches(), tally, {
          clicks,
          cacheSize,
          groupRecords,
          ahead,
        }),
      );
      assert.equal(records.length, 4501);
      assert.deepEqual(records, serial.records);
      assert.deepEqual(tally.counts, serial.counts);
    });

  test("a query asked of the threads is asked once while it is out", async () => {
    // The same query in every record: with groups of 10, three out at once and no answers kept, only the first
    // group asks; the others take its answer.
    let asked = 0;
    const counting = {
      classify: (qs: readonly string[]) => {
        asked += qs.length;
        return threads.classify(qs);
      },
    } as unknown as ClassifyThreads;
    const records: LogRecord[] = Array.from({ length: 100 }, (_, i) => ({
      user: `u${i % 7}`,
      query: "european soccer barcelona players",
      time: 1_141_171_200 + i,
    }));
    async function* one() {
      yield records;
    }
    const tally = new ClassifyTally();
    const out = await collect(
      classifyBatchesOnThreads(counting, one(), tally, { cacheSize: 0, groupRecords: 10, ahead: 3 }),
    );
    assert.equal(out.length, 100);
    assert.ok(out.every((r) => r.category?.startsWith("Top/Sports")));
    assert.equal(tally.counts.Sports, 100);
    assert.ok(asked <= 3, `asked ${asked} times`);
  });
});
