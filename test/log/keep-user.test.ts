/**
 * `ReadOptions.keepUser`: a reader that keeps some users gives exactly the records of the full read whose user it
 * keeps, with their lines, in every layout; in AOL and Excite the other users' lines are skipped unparsed (a bad
 * line of a skipped user is not reported, one of a kept user still is).
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { aolCodec } from "../../src/log/formats/aol.ts";
import { exciteCodec } from "../../src/log/formats/excite.ts";
import { ndjsonCodec } from "../../src/log/formats/ndjson.ts";
import { openLog } from "../../src/log/read.ts";
import type { LogFormat, LogRecord } from "../../src/log/record.ts";
import { InputError } from "../../src/util/errors.ts";
import { tempDir } from "../helpers/tmp.ts";

async function all(path: string, format: LogFormat, keepUser?: (u: string) => boolean): Promise<LogRecord[]> {
  const log = await openLog([path], { format, keepUser });
  const out: LogRecord[] = [];
  for await (const b of log.batches()) out.push(...b);
  return out;
}

const RECORDS: LogRecord[] = Array.from({ length: 60 }, (_, i) => ({
  user: `u${(i * 7) % 9}`,
  query: `query ${i % 5}`,
  time: Date.UTC(2006, 2, 1, 0, 0, i) / 1000,
}));
const keep = (u: string) => u === "u1" || u === "u4" || u === "u8";

for (const [format, codec, header] of [
  ["aol", aolCodec, "AnonID\tQuery\tQueryTime\tItemRank\tClickURL"],
  ["excite", exciteCodec, undefined],
  ["ndjson", ndjsonCodec, undefined],
] as const) {
  test(`keepUser (${format}): the kept users' records of the full read, with their lines`, async () => {
    const path = join(tempDir("querymask-keep-user-"), `log.${format}`);
    const lines = RECORDS.map((r) => codec.toLine(r, false));
    writeFileSync(path, `${[...(header ? [header] : []), ...lines].join("\n")}\n`);
    const full = await all(path, format);
    assert.equal(full.length, RECORDS.length);
    const kept = await all(path, format, keep);
    assert.ok(kept.length > 0 && kept.length < full.length);
    assert.deepEqual(
      kept,
      full.filter((r) => keep(r.user)),
    );
  });
}

test("keepUser (aol): other users' lines are not parsed; a kept user's bad line is still an error", async () => {
  const dir = tempDir("querymask-keep-user-");
  const path = join(dir, "log.tsv");
  const head = "AnonID\tQuery\tQueryTime\tItemRank\tClickURL";
  // Line 3 is bad (an unparsable time) and belongs to u2.
  writeFileSync(
    path,
    `${head}\nu1\ta\t2006-03-01 00:00:00\t\t\nu2\tb\tnot a time\t\t\nu3\tc\t2006-03-01 00:00:02\t\t\n`,
  );
  await assert.rejects(all(path, "aol"), (e: unknown) => e instanceof InputError && e.line === 3);
  const others = await all(path, "aol", (u) => u !== "u2");
  assert.deepEqual(
    others.map((r) => [r.user, r.source?.line]),
    [
      ["u1", 2],
      ["u3", 4],
    ],
  );
  await assert.rejects(
    all(path, "aol", (u) => u === "u2"),
    (e: unknown) => e instanceof InputError && e.line === 3,
  );
});
