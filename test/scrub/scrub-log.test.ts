/**
 * Scrubbing a log stream: queries are replaced by their released text, emptied records are removed unless kept,
 * and the counts add up.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { LogRecord } from "../../src/log/record.ts";
import { emptyCounts, scrubRecords } from "../../src/scrub/scrub-log.ts";
import { createScrubber } from "../../src/scrub/scrubber.ts";

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
