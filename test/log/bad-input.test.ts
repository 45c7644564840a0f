import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { gzipSync } from "node:zlib";
import { loadLog } from "../../src/log/read.ts";
import { InputError } from "../../src/util/errors.ts";
import { tempDir } from "../helpers/tmp.ts";

const dir = tempDir();
const HEADER = "AnonID\tQuery\tQueryTime\tItemRank\tClickURL\n";
const GOOD = "1\tsoccer\t2006-03-01 07:33:28\t\t\n";

/** A log whose line 3 (after the header and a good line) is bad, followed by another good line. */
function logWith(name: string, bad: Buffer | string): string {
  const path = join(dir, name);
  writeFileSync(
    path,
    Buffer.concat([Buffer.from(HEADER + GOOD), Buffer.from(bad), Buffer.from(`\n${GOOD}`)]),
  );
  return path;
}

const cases: [string, Buffer | string, RegExp][] = [
  [
    "wrong field count",
    "1\tsoccer\t2006-03-01 07:33:28\t\t\textra",
    /expected 5 \(or 3\) tab-separated fields, found 6/,
  ],
  ["unparsable time", "1\tsoccer\t2006-03-01 7:33", /unparsable QueryTime/],
  [
    "invalid UTF-8",
    Buffer.from([0x31, 0x09, 0xc3, 0x28, 0x09, ...Buffer.from("2006-03-01 07:33:28\t\t")]),
    /invalid UTF-8/,
  ],
  ["NUL byte", "1\tsocc\0er\t2006-03-01 07:33:28\t\t", /NUL byte/],
  ["absurdly long line", `1\t${"x".repeat(70_000)}\t2006-03-01 07:33:28\t\t`, /longer than 65536 bytes/],
  [
    "bad ItemRank",
    "1\tsoccer\t2006-03-01 07:33:28\tfirst\thttp://a.com",
    /ItemRank "first" is not a whole number/,
  ],
];

for (const [name, bad, reason] of cases) {
  test(`strict: ${name} stops with file:line: reason`, async () => {
    const path = logWith(`${name.replaceAll(" ", "-")}.tsv`, bad);
    await assert.rejects(loadLog([path], { format: "aol" }), (e: unknown) => {
      assert.ok(e instanceof InputError);
      assert.equal(e.file, path);
      assert.equal(e.line, 3);
      assert.match(e.message, new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:3: `));
      assert.match(e.message, reason);
      return true;
    });
  });

  test(`lenient: ${name} is set aside, counted, and the rest is read`, async () => {
    const path = logWith(`lenient-${name.replaceAll(" ", "-")}.tsv`, bad);
    const rejectsPath = `${path}.rejects.tsv`;
    const log = await loadLog([path], { format: "aol", lenient: true, rejectsPath });
    assert.equal(log.records.length, 2);
    assert.equal(log.rejected, 1);
    const rows = readFileSync(rejectsPath, "utf8").trimEnd().split("\n");
    assert.equal(rows.length, 2);
    const [file, line, why] = rows[1]!.split("\t");
    assert.equal(file, path);
    assert.equal(line, "3");
    assert.match(why!, reason);
  });
}

test("a long line inside a large gzip file is caught and reading goes on", async () => {
  const path = join(dir, "long.tsv.gz");
  const long = `1\t${"y".repeat(3_000_000)}\t2006-03-01 07:33:28\t\t\n`;
  const body = `${HEADER}${GOOD.repeat(50_000)}${long}${GOOD}`;
  writeFileSync(path, gzipSync(body));
  const log = await loadLog([path], { lenient: true });
  assert.equal(log.records.length, 50_001);
  assert.equal(log.rejected, 1);
  assert.equal(log.rejects.kept[0]!.line, 50_002);
});

test("missing file, directory and empty file are named", async () => {
  const empty = join(dir, "empty.tsv");
  writeFileSync(empty, "");
  const sub = join(dir, "adir");
  mkdirSync(sub);
  await assert.rejects(loadLog([join(dir, "nope.tsv")]), /nope\.tsv: no such file/);
  await assert.rejects(loadLog([sub]), /adir: is a directory, expected a log file/);
  await assert.rejects(loadLog([empty]), /empty\.tsv: empty file/);
});

test("lenient: an empty file among others is counted, a missing one still stops", async () => {
  const empty = join(dir, "empty2.tsv");
  writeFileSync(empty, "");
  const good = logWith("good.tsv", GOOD.trimEnd());
  const log = await loadLog([empty, good], { lenient: true });
  assert.equal(log.records.length, 3);
  assert.equal(log.rejected, 1);
  await assert.rejects(loadLog([join(dir, "missing.tsv"), good], { lenient: true }), /no such file/);
});

test("a truncated gzip file is an input error", async () => {
  const path = join(dir, "trunc.tsv.gz");
  const gz = gzipSync(HEADER + GOOD.repeat(10_000));
  writeFileSync(path, gz.subarray(0, gz.length - 100));
  await assert.rejects(loadLog([path]), (e: unknown) => e instanceof InputError && /gzip/.test(e.reason));
});

test("the CLI exits 2 with file:line: reason in strict mode and 0 in lenient mode", () => {
  const path = logWith("cli.tsv", "1\tsoccer\tyesterday\t\t");
  const run = (...args: string[]) =>
    spawnSync(process.execPath, ["bin/querymask.js", "stats", path, ...args], { encoding: "utf8" });
  const strict = run();
  assert.equal(strict.status, 2);
  assert.match(strict.stderr, /cli\.tsv:3: unparsable QueryTime "yesterday"/);
  const lenient = run("--lenient", "--rejects", join(dir, "cli.rejects.tsv"), "--json");
  assert.equal(lenient.status, 0);
  const stats = JSON.parse(lenient.stdout);
  assert.equal(stats.rows, 2);
  assert.equal(stats.rejected, 1);
  assert.match(lenient.stderr, /1 bad lines set aside/);
});
