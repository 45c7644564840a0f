/**
 * Raw rows (src/log/rows.ts, src/log/row-write.ts) against the record path: the same lines read, the same bytes
 * written, the same bad lines reported — for any AOL text, including the lines the fast path leaves to the codec.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import fc from "fast-check";
import { loadLog } from "../../src/log/read.ts";
import { RejectSink } from "../../src/log/rejects.ts";
import { sameBytes } from "../../src/log/row-block.ts";
import { createRowWriter } from "../../src/log/row-write.ts";
import { readRows } from "../../src/log/rows.ts";
import { writeLog } from "../../src/log/write.ts";
import { InputError } from "../../src/util/errors.ts";
import { tempDir } from "../helpers/tmp.ts";

const dir = tempDir();
let n = 0;

const HEADER = "AnonID\tQuery\tQueryTime\tItemRank\tClickURL";
const word = fc.stringMatching(/^[a-z0-9 .é字]{0,12}$/);

/** An AOL data line: mostly well-formed, sometimes in one of the forms the fast path leaves to the codec. */
const line = (classified: boolean): fc.Arbitrary<string> =>
  fc
    .record({
      user: fc.constantFrom("1", "22", "333", "", "u\r1", "ü7"),
      query: word,
      time: fc.constantFrom(
        "2006-03-01 00:01:44",
        "2006-03-01T00:01:44",
        "2006-02-30 00:00:00",
        "2006-03-01 07:33",
        "2006-05-31 23:59:59",
      ),
      rank: fc.constantFrom("", "1", "10", "007", "0", "x"),
      url: fc.constantFrom("", "http://a.example", "b.example"),
      cat: fc.constantFrom("Top/Arts", "Top/Sports/Soccer", "", "Top/Arts/Café"),
      unit: word,
      shape: fc.constantFrom("full", "full", "full", "full", "three", "extra", "cr", "blank"),
    })
    .map((r) => {
      if (r.shape === "blank") return "";
      if (r.shape === "three") return `${r.user}\t${r.query}\t${r.time}`;
      let l = `${r.user}\t${r.query}\t${r.time}\t${r.rank}\t${r.url}`;
      if (classified) l += `\t${r.cat}\t${r.unit}`;
      if (r.shape === "extra") l += "\tmore";
      if (r.shape === "cr") l += "\r";
      return l;
    });

const log = fc.boolean().chain((classified) =>
  fc.record({
    classified: fc.constant(classified),
    bom: fc.boolean(),
    lines: fc.array(line(classified), { minLength: 1, maxLength: 40 }),
  }),
);

function writeInput(l: { classified: boolean; bom: boolean; lines: string[] }): string {
  const path = join(dir, `in-${++n}.tsv`);
  const header = l.classified ? `${HEADER}\tCategory\tUnit` : HEADER;
  writeFileSync(path, `${l.bom ? "\uFEFF" : ""}${header}\n${l.lines.join("\n")}\n`);
  return path;
}

/** What reading `path` does by rows and by records: the rows' copy and the records' release, or the error. */
async function both(path: string, classified: boolean, lenient: boolean) {
  const viaRows = join(dir, `rows-${n}.tsv`);
  const viaRecords = join(dir, `records-${n}.tsv`);
  let rowsError: string | undefined;
  let recordsError: string | undefined;
  const rowRejects = new RejectSink(undefined);
  const w = createRowWriter(viaRows, classified);
  try {
    for await (const rows of readRows([path], lenient, rowRejects)) w.copyAll(rows);
    await w.close();
  } catch (e) {
    await w.abort();
    assert.ok(e instanceof InputError || (e as Error).name === "UsageError", String(e));
    rowsError = (e as Error).message;
  }
  let recordRejects = 0;
  try {
    const read = await loadLog([path], { lenient });
    recordRejects = read.rejected;
    await writeLog(viaRecords, read);
  } catch (e) {
    recordsError = (e as Error).message;
  }
  return { viaRows, viaRecords, rowsError, recordsError, rowRejects: rowRejects.count, recordRejects };
}

test("rows copied as read are the bytes the record writer prints, and the bad lines are the same", async () => {
  await fc.assert(
    fc.asyncProperty(log, fc.boolean(), async (l, lenient) => {
      const path = writeInput(l);
      const r = await both(path, l.classified, lenient);
      // The messages name the output file, which differs.
      assert.equal(r.rowsError?.replace(r.viaRows, "OUT"), r.recordsError?.replace(r.viaRecords, "OUT"));
      if (r.rowsError !== undefined) return;
      assert.equal(r.rowRejects, r.recordRejects);
      assert.equal(readFileSync(r.viaRows, "utf8"), readFileSync(r.viaRecords, "utf8"));
    }),
    { numRuns: 150 },
  );
});

test("a released row is its new user and time spliced into its bytes; a copied row survives its buffer", async () => {
  const path = join(dir, "release.tsv");
  // Three blocks of the reader's 256 KiB buffer: rows of the first are written after the buffer was reused.
  const lines: string[] = [];
  for (let i = 0; i < 9000; i++) {
    lines.push(
      `${i}\tq é ${i}\t2006-03-01 00:00:${String(i % 60).padStart(2, "0")}\t${i % 3 ? "" : 1}\t${i % 3 ? "" : "http://x.example"}`,
    );
  }
  writeFileSync(path, `${HEADER}\n${lines.join("\n")}\n`);
  const out = join(dir, "released.tsv");
  const w = createRowWriter(out, false);
  const kept: { bytes: Buffer; query: [number, number]; user: string; time: number }[] = [];
  for await (const rows of readRows([path], false, new RejectSink(undefined))) {
    // Keep every other row past its block (a copy of its bytes), as a swap bucket does.
    for (let i = 0; i < rows.n; i++) {
      const user = `u${rows.user[i]}`;
      const time = rows.time[i]! + 60;
      const start = rows.start[i]!;
      const query: [number, number] = [rows.tab1[i]! + 1, rows.tab2[i]!];
      if (rows.line[i]! % 2 === 0) {
        const bytes = Buffer.from(rows.bytes.subarray(start, rows.end[i]));
        kept.push({ bytes, query: [query[0] - start, query[1] - start], user, time });
      } else w.releaseLines(rows.bytes, start, rows.end[i]!, 1, query[0], query[1], user, time);
    }
  }
  for (const r of kept) w.releaseLines(r.bytes, 0, r.bytes.length, 1, r.query[0], r.query[1], r.user, r.time);
  await w.close();
  const got = readFileSync(out, "utf8").split("\n");
  assert.equal(got.pop(), "");
  assert.equal(got.length, 9001);
  const expect = (i: number) => {
    const f = lines[i]!.split("\t");
    const s = (i % 60) + 60;
    f[0] = `u${i}`;
    f[2] = `2006-03-01 00:${String(Math.floor(s / 60)).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
    return f.join("\t");
  };
  // Data line i is file line i + 2 (the header is line 1): odd i were written at once, even i kept to the end.
  const odd = lines.map((_, i) => i).filter((i) => i % 2 === 1);
  const even = lines.map((_, i) => i).filter((i) => i % 2 === 0);
  assert.deepEqual(got.slice(1), [...odd.map(expect), ...even.map(expect)]);
});

/** Lines whose queries differ in one byte or in length, some left to the codec (a `T` time, rank `007`, é). */
const nearLines = fc.array(
  fc
    .record({
      user: fc.constantFrom("1", "22", "7", "é"),
      query: fc.constantFrom("ab", "bb", "ba", "b", "", "abc", "é b", "xb"),
      time: fc.constantFrom("2006-03-01 00:01:44", "2006-03-01T00:01:44"),
      rank: fc.constantFrom("", "1", "007"),
      cat: fc.constantFrom("Top/Arts", "Top/Arts/Music", "Top/Sports", "", "Top/Arts/Café"),
    })
    .map(
      (r) => `${r.user}\t${r.query}\t${r.time}\t${r.rank}\t${r.rank ? "http://a.example" : ""}\t${r.cat}\t`,
    ),
  { minLength: 1, maxLength: 30 },
);

test("rows compare queries by their bytes as their texts compare; users and categories read as the records' fields", async () => {
  await fc.assert(
    fc.asyncProperty(nearLines, async (lines) => {
      const path = writeInput({ classified: true, bom: false, lines });
      const rows: { user: string; query: string; category: string | undefined; bytes?: Buffer }[] = [];
      for await (const block of readRows([path], false, new RejectSink(undefined))) {
        for (let i = 0; i < block.n; i++) {
          rows.push({
            user: block.user[i]!,
            query: block.query(i),
            category: block.category[i],
            // The query's bytes, for a row kept as bytes.
            ...(block.rec[i] === undefined
              ? { bytes: Buffer.from(block.bytes.subarray(block.tab1[i]! + 1, block.tab2[i])) }
              : {}),
          });
        }
      }
      const read = await loadLog([path], {});
      assert.equal(rows.length, read.records.length);
      rows.forEach((r, i) => {
        const rec = read.records[i]!;
        assert.equal(r.user, rec.user);
        assert.equal(r.query, rec.query);
        assert.equal(r.category, rec.category);
      });
      const bytes = rows.filter((r) => r.bytes !== undefined);
      for (const a of bytes)
        for (const b of bytes)
          assert.equal(
            sameBytes(a.bytes!, 0, a.bytes!.length, b.bytes!, 0, b.bytes!.length),
            a.query === b.query,
          );
    }),
    { numRuns: 100 },
  );
});
