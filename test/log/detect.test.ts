import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { gzipSync } from "node:zlib";
import { detectFormat } from "../../src/log/formats/index.ts";
import { loadLog } from "../../src/log/read.ts";
import { tempDir } from "../helpers/tmp.ts";

test("formats are detected from the first line or the file name", () => {
  assert.equal(detectFormat("x.tsv", "AnonID\tQuery\tQueryTime\tItemRank\tClickURL"), "aol");
  assert.equal(detectFormat("x.tsv", "142\trentdirect com\t2006-03-01 07:17:12\t\t"), "aol");
  assert.equal(detectFormat("x.tsv", "142\trentdirect com\t2006-03-01 07:17:12"), "aol");
  assert.equal(detectFormat("x.log", "2A9EABFB35F5B954\t970916105432\t+zip code"), "excite");
  assert.equal(detectFormat("x.log", '{"user":"1","query":"a","time":0}'), "ndjson");
  assert.equal(detectFormat("x.jsonl.gz", undefined), "ndjson");
  assert.equal(detectFormat("x.txt", "just some words"), undefined);
});

test("auto-detection reads gzip, the bundled Excite sample, and an override wins", async () => {
  const dir = tempDir();
  const gz = join(dir, "a.tsv.gz");
  writeFileSync(
    gz,
    gzipSync("AnonID\tQuery\tQueryTime\tItemRank\tClickURL\n7\tq\t2006-03-01 00:00:00\t1\thttp://a.com\n"),
  );
  const a = await loadLog([gz]);
  assert.equal(a.format, "aol");
  assert.deepEqual(
    { ...a.records[0], source: undefined },
    { user: "7", query: "q", time: 1141171200, itemRank: 1, clickUrl: "http://a.com", source: undefined },
  );
  const ex = await loadLog(["data/excite/excite-small.log"]);
  assert.equal(ex.format, "excite");
  assert.equal(ex.records.length, 4501);
  await assert.rejects(loadLog([gz], { format: "excite" }), /expected 3 tab-separated fields/);
});

test("several files and a glob are read in order", async () => {
  const dir = tempDir();
  for (const i of [1, 2, 3]) {
    writeFileSync(
      join(dir, `part-${i}.tsv`),
      `AnonID\tQuery\tQueryTime\tItemRank\tClickURL\n${i}\tq${i}\t2006-03-0${i} 00:00:00\t\t\n`,
    );
  }
  const log = await loadLog([join(dir, "part-*.tsv")]);
  assert.deepEqual(
    log.records.map((r) => r.user),
    ["1", "2", "3"],
  );
  await assert.rejects(loadLog([join(dir, "nothing-*.tsv")]), /no file matches/);
});
