import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import fc from "fast-check";
import { loadLog } from "../../src/log/read.ts";
import type { LogRecord } from "../../src/log/record.ts";
import { StringTable } from "../../src/log/strings.ts";
import { writeLog } from "../../src/log/write.ts";
import { tempDir } from "../helpers/tmp.ts";

const word = fc.constantFrom("zorblax", "q.x", "plimb", "Top/Arts", "Top/Arts/Music", "", "u1", "u2");
const record: fc.Arbitrary<LogRecord> = fc.record(
  {
    user: fc.constantFrom("u1", "u2", "u3"),
    query: word,
    time: fc.integer({ min: 0, max: 2e9 }),
    clickUrl: word,
    category: word,
    unit: word,
  },
  { requiredKeys: ["user", "query", "time"] },
);

/** The distinct texts of `records`' text fields. */
function texts(records: readonly LogRecord[]): Set<string> {
  const out = new Set<string>();
  for (const r of records)
    for (const t of [r.user, r.query, r.clickUrl, r.category, r.unit]) if (t !== undefined) out.add(t);
  return out;
}

test("a string table leaves each record as it was and holds each distinct text once", () => {
  fc.assert(
    fc.property(fc.array(record, { maxLength: 60 }), (records) => {
      const copies = records.map((r) => ({ ...r }));
      const table = new StringTable();
      const out = copies.map((r) => table.record(r));
      assert.deepEqual(
        out,
        records.map((r) => ({ ...r })),
      ); // fast-check's objects have no prototype
      assert.equal(table.size, texts(records).size);
    }),
  );
});

test("logs loaded with one table hold the texts they share once", async () => {
  const dir = tempDir();
  const records: LogRecord[] = [
    {
      user: "u1",
      query: "zorblax news",
      time: 1_000,
      clickUrl: "http://q.x",
      category: "Top/News",
      unit: "news",
    },
    {
      user: "u1",
      query: "zorblax news",
      time: 1_000,
      clickUrl: "http://r.x",
      category: "Top/News",
      unit: "news",
    },
    { user: "u2", query: "plimb", time: 2_000, category: "", unit: "" },
  ];
  const a = join(dir, "a.tsv");
  const b = join(dir, "b.tsv");
  await writeLog(a, { records, format: "aol", classified: true });
  await writeLog(b, { records: records.slice(1), format: "aol", classified: true });
  const strings = new StringTable();
  const first = await loadLog([a], { strings, keepSource: false });
  const held = strings.size;
  assert.equal(held, texts(records).size);
  const second = await loadLog([b], { strings, keepSource: false });
  assert.equal(strings.size, held, "the second log's texts are all the first's");
  assert.deepEqual(
    second.records.map((r) => ({ ...r })),
    first.records.slice(1).map((r) => ({ ...r })),
  );
});
