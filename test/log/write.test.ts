import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import fc from "fast-check";
import { aolCodec } from "../../src/log/formats/aol.ts";
import { UnwritableRecord } from "../../src/log/formats/codec.ts";
import type { LogRecord } from "../../src/log/record.ts";
import { createLogWriter } from "../../src/log/write.ts";
import { UsageError } from "../../src/util/errors.ts";
import { tempDir } from "../helpers/tmp.ts";

const base: LogRecord = {
  user: "17",
  query: "soccer",
  time: 1_141_198_408,
  itemRank: 2,
  clickUrl: "http://fifa.com",
  category: "Top/Sports",
  unit: "soccer",
};

test("an AOL line names the field that holds a tab, line break or NUL, in every field it writes", () => {
  for (const field of ["user", "query", "clickUrl", "category", "unit"] as const) {
    for (const bad of ["a\tb", "a\nb", "a\rb", "a\0b"]) {
      assert.throws(
        () => aolCodec.toLine({ ...base, [field]: bad }, true),
        (e: unknown) => e instanceof UnwritableRecord && e.message.startsWith(`${field} contains a tab`),
        `${field} ${JSON.stringify(bad)}`,
      );
    }
  }
  // The category columns are not written for an unclassified log, so their content does not matter there.
  assert.equal(
    aolCodec.toLine({ ...base, category: "a\tb" }, false),
    "17\tsoccer\t2006-03-01 07:33:28\t2\thttp://fifa.com",
  );
});

test("any record without breaking characters reads back as written", () => {
  const text = fc.string({ maxLength: 12 }).filter((s) => !/[\t\n\r\0]/.test(s));
  fc.assert(
    fc.property(text, text, text, text, (query, url, category, unit) => {
      const rec: LogRecord = { ...base, query, category, unit };
      if (url !== "") rec.clickUrl = url;
      else delete rec.clickUrl;
      if (rec.clickUrl === undefined) delete rec.itemRank;
      assert.deepEqual(aolCodec.parse(aolCodec.toLine(rec, true), true), rec);
    }),
  );
});

test("the writer turns an unwritable record into a usage error that names the file and record", async () => {
  const out = join(tempDir(), "out.tsv");
  const w = createLogWriter(out, "aol", { classified: true });
  w.write(base);
  assert.throws(
    () => w.write({ ...base, query: "x\ty", source: { file: "in.tsv", line: 9 } }),
    (e: unknown) =>
      e instanceof UsageError && /record 2 \(from in\.tsv:9\).*query contains a tab/.test(e.message),
  );
  await w.abort();
});

test("the writer's file holds every record's line in order, however many lines it joins into one piece", async () => {
  // Lines go to the file in pieces of many lines: counts around a piece's size must neither lose nor repeat one.
  const dir = tempDir();
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: 0, max: 2500 }), fc.nat(40), async (n, extra) => {
      const out = join(dir, "out.tsv");
      const w = createLogWriter(out, "aol", { classified: true });
      const lines: string[] = [aolCodec.header(true)!];
      for (let i = 0; i < n; i++) {
        const rec: LogRecord = { ...base, user: String(i), query: "q".repeat(i % (extra + 1)) };
        lines.push(aolCodec.toLine(rec, true));
        const p = w.write(rec);
        if (p) await p;
      }
      await w.close();
      assert.equal(w.count, n);
      assert.equal(readFileSync(out, "utf8"), `${lines.join("\n")}\n`);
    }),
    { numRuns: 12 },
  );
});

test("an aborted writer leaves neither the target nor a temporary file, whatever it had joined", async () => {
  const dir = tempDir();
  const out = join(dir, "out.tsv");
  const w = createLogWriter(out, "aol");
  for (let i = 0; i < 3000; i++) w.write({ ...base, user: String(i) });
  await w.abort();
  assert.equal(existsSync(out), false);
  assert.deepEqual(readdirSync(dir), []);
});
