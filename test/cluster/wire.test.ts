/**
 * The batch wire format: whatever records a batch holds (optional fields present or not, shared or distinct users
 * and categories, clicks anywhere), decoding what was encoded gives them back exactly, without their source
 * position, with the batch's position fields. No servers needed.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { mergeShards } from "../../src/cluster/anonymize-worker.ts";
import { classifyShardOf } from "../../src/cluster/partition.ts";
import {
  decode,
  decodeCommit,
  decodeSegment,
  encode,
  encodeCommit,
  encodeSegments,
  type ReleasedBatch,
  type WireBatch,
} from "../../src/cluster/wire.ts";
import type { LogRecord } from "../../src/log/record.ts";

const text = fc.string({ maxLength: 12 });
const record: fc.Arbitrary<LogRecord> = fc.record(
  {
    user: fc.constantFrom("u1", "u2", "1234567", "é\tx"),
    query: text,
    time: fc.integer({ min: 0, max: 2 ** 40 }),
    itemRank: fc.integer({ min: 1, max: 500 }),
    clickUrl: text,
    category: fc.constantFrom("", "Top/Arts", "Top/Sports/Soccer"),
    unit: text,
    source: fc.record({ file: text, line: fc.nat() }),
  },
  { requiredKeys: ["user", "query", "time"] },
);

test("a batch decodes to the records that were encoded, without their source, with inSeq, partition and end", () => {
  fc.assert(
    fc.property(
      fc.array(record, { maxLength: 40 }),
      fc.nat(),
      fc.nat(64),
      fc.boolean(),
      (records, inSeq, p, end) => {
        const want = records.map(({ source: _, ...r }) => r);
        const w = decode<WireBatch>(encode({ inSeq, ...(end ? { end: true } : {}), records }));
        assert.deepEqual(w, { inSeq, ...(end ? { end: true } : {}), records: want });
        const r = decode<ReleasedBatch>(encode({ partition: p, inSeq, records }));
        assert.deepEqual(r, { partition: p, inSeq, records: want });
        assert.deepEqual(decode(encode({ records })), { records: want });
      },
    ),
  );
});

test("a batch larger than one chunk of text decodes whole: records, their indexes, the batch's fields", () => {
  fc.assert(
    fc.property(
      fc.array(record, { minLength: 1, maxLength: 30 }),
      fc.integer({ min: 1, max: 9 }),
      (seed, times) => {
        // ~3,000–27,000 rows with long texts: several chunks, the chunk boundaries anywhere.
        const records = Array.from({ length: 3_000 * times }, (_, i) => {
          const r = seed[i % seed.length]!;
          return { ...r, query: `${r.query} ${"x".repeat(i % 40)}` };
        });
        const ix = records.map((_, i) => 3 * i + 1);
        const message = encode({ inSeq: 5, end: true, shard: 1, ix, records });
        assert.ok(new DataView(message.buffer).getUint32(1) > 1, "encoded in several chunks");
        const want = records.map(({ source: _, ...r }) => r);
        assert.deepEqual(decode<WireBatch>(message), { inSeq: 5, end: true, shard: 1, ix, records: want });
      },
    ),
    { numRuns: 5 },
  );
});

test("the columnar form is smaller than one JSON object per record", () => {
  const records: LogRecord[] = Array.from({ length: 500 }, (_, i) => ({
    user: `u${i % 37}`,
    query: `query number ${i}`,
    time: 1_141_000_000 + i,
    category: ["Top/Arts", "Top/Sports", "Top/News"][i % 3]!,
    ...(i % 4 === 0 ? { itemRank: 1, clickUrl: "http://www.example.com" } : {}),
  }));
  const bytes = encode({ inSeq: 1, records }).length;
  assert.ok(bytes < JSON.stringify({ inSeq: 1, records }).length * 0.7, `${bytes} bytes`);
});

test("classify shards: ingest splits a batch by query hash; the shards' parts merge back into input order", () => {
  fc.assert(
    fc.property(
      fc.array(record, { maxLength: 60 }),
      fc.integer({ min: 1, max: 6 }),
      fc.boolean(),
      (records, shards, end) => {
        const want = records.map(({ source: _, ...r }) => r);
        const segments = encodeSegments(records, shards);
        assert.equal(segments.length, shards);
        // The commit names each segment by its sequence on the segment stream (0 = none) and carries the end.
        const seqs = segments.map((g, s) => (g === undefined ? 0 : 1000 + s));
        const commit = decodeCommit(encodeCommit({ ...(end ? { end: true } : {}), segments: seqs }), shards);
        assert.deepEqual(commit.segments, seqs);
        assert.equal(commit.end, end ? true : undefined);
        // What the classify workers of `shards` shards publish for this ingest batch and one partition.
        const parts: WireBatch[] = [];
        for (let s = 0; s < shards; s++) {
          const g = segments[s];
          // A shard without a segment publishes empty parts (with an empty index list, as the worker does).
          const part =
            g === undefined ? { ...(shards > 1 ? { ix: [] } : {}), records: [] } : decodeSegment(g);
          if (g === undefined) assert.ok(records.every((r) => classifyShardOf(r.query, shards) !== s));
          else assert.ok(part.records.length > 0, "no segment is published empty");
          for (const r of part.records) assert.equal(classifyShardOf(r.query, shards), s);
          if (shards === 1) assert.equal(part.ix, undefined, "one shard: indexes implied");
          parts.push(decode<WireBatch>(encode({ inSeq: 7, shard: s, ...part })));
        }
        // Arrival order between shards is arbitrary.
        assert.deepEqual(mergeShards(parts.reverse()), want);
      },
    ),
  );
});

test("a shard refuses a commit for another shard count, or a message that is not a commit", () => {
  const records: LogRecord[] = [{ user: "u", query: "q", time: 1 }];
  assert.throws(
    () => decodeCommit(encodeCommit({ segments: [1, 2, 3] }), 2),
    /split into 3 classify shards, the run has 2/,
  );
  assert.throws(() => decodeCommit(encode({ records }), 1), /not a batch commit/);
  assert.throws(() => decodeCommit(encodeCommit({ segments: [1] }).subarray(0, 8), 1), /commit of 8 bytes/);
});

test("a classified part without record indexes cannot be merged with another shard's", () => {
  const r: LogRecord = { user: "u", query: "q", time: 1 };
  assert.throws(
    () =>
      mergeShards([
        { inSeq: 3, shard: 0, records: [r] },
        { inSeq: 3, shard: 1, ix: [1], records: [r] },
      ]),
    /batch 3 from shard 0 carries no record indexes/,
  );
});
