import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { gzipSync } from "node:zlib";
import { loadLog } from "../../src/log/read.ts";
import { InputError } from "../../src/util/errors.ts";
import { tempDir } from "../helpers/tmp.ts";

const dir = tempDir();
const HEADER = "AnonID\tQuery\tQueryTime\tItemRank\tClickURL\n";
const GOOD = "1\tsoccer\t2006-03-01 07:33:28\t\t\n";
const BOM = "\uFEFF";

test("a UTF-8 byte-order mark is accepted and stripped (header line, data line, gzip)", async () => {
  const withHeader = join(dir, "bom-header.tsv");
  writeFileSync(withHeader, BOM + HEADER + GOOD);
  const a = await loadLog([withHeader]);
  assert.equal(a.format, "aol");
  assert.equal(a.records.length, 1);

  const noHeader = join(dir, "bom-data.tsv");
  writeFileSync(noHeader, BOM + GOOD + GOOD);
  const b = await loadLog([noHeader]);
  assert.equal(b.records.length, 2);
  assert.equal(b.records[0]!.user, "1");

  const gz = join(dir, "bom.log.gz");
  writeFileSync(gz, gzipSync(`${BOM}2A9EABFB35F5B954\t970916105432\tzip code\n`));
  const c = await loadLog([gz]);
  assert.equal(c.format, "excite");
  assert.equal(c.records[0]!.user, "2A9EABFB35F5B954");
});

test("an empty file is called empty, in lenient mode too (not 'cannot tell the log format')", async () => {
  const empty = join(dir, "empty.tsv");
  writeFileSync(empty, "");
  for (const lenient of [false, true]) {
    await assert.rejects(loadLog([empty], { lenient }), (e: unknown) => {
      assert.ok(e instanceof InputError);
      assert.match(e.message, /empty\.tsv: empty file/);
      return true;
    });
  }
});

test("trailing blank lines end a file harmlessly; a blank line before a record is still bad", async () => {
  const trailing = join(dir, "trailing.tsv");
  writeFileSync(trailing, `${HEADER}${GOOD}${GOOD}\n\r\n`);
  const a = await loadLog([trailing]);
  assert.equal(a.records.length, 2);
  assert.equal(a.rejected, 0);

  const inside = join(dir, "inside.tsv");
  writeFileSync(inside, `${HEADER}${GOOD}\n\n${GOOD}\n`);
  await assert.rejects(loadLog([inside]), /inside\.tsv:3: empty line/);
  const lenient = await loadLog([inside], { lenient: true });
  assert.equal(lenient.records.length, 2);
  assert.equal(lenient.rejected, 2);
  assert.deepEqual(
    lenient.rejects.kept.map((r) => r.line),
    [3, 4],
  );
});
