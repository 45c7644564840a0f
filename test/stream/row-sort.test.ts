/**
 * The raw-row external sort (src/stream/row-sort.ts) gives what the record path's stable sort by time gives: the
 * same records in the same order, for any run size and merge fan-in, with lines the fast reader leaves to the
 * codec and a second file without the classifier's columns; bad lines are reported as the reader reports them.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import fc from "fast-check";
import { loadLog } from "../../src/log/read.ts";
import type { LogRecord } from "../../src/log/record.ts";
import { RejectSink } from "../../src/log/rejects.ts";
import { sortRowsByTime } from "../../src/stream/row-sort.ts";
import { InputError } from "../../src/util/errors.ts";
import { tempDir } from "../helpers/tmp.ts";

const HEADER = "AnonID\tQuery\tQueryTime\tItemRank\tClickURL";

/**
 * A data line: its time one of a few seconds (so ties are many) of one of two years more than 2^31 seconds apart
 * (a run holding both is sorted by comparison, not by packed keys), some lines the codec's, some bad.
 */
const line = fc
  .record({
    user: fc.constantFrom("1", "22", "é"),
    query: fc.constantFrom("ab", "a b", "", "é字"),
    year: fc.constantFrom("2006", "2006", "2006", "1900"),
    second: fc.integer({ min: 0, max: 5 }),
    sep: fc.constantFrom(" ", " ", " ", "T"),
    click: fc.constantFrom("\t\t", "\t1\thttp://a.example", "\t007\tb.example"),
    cols: fc.constantFrom("\tTop/Arts\tart", "\t\t"),
    bad: fc.integer({ min: 0, max: 30 }),
  })
  .map(
    (r) => (classified: boolean) =>
      r.bad === 0
        ? `${r.user}\t${r.query}\tyesterday\t\t`
        : `${r.user}\t${r.query}\t${r.year}-03-01${r.sep}00:00:0${r.second}${r.click}${classified ? r.cols : ""}`,
  );

/** What is compared: a record without its source position. */
const plain = ({ source: _source, ...r }: LogRecord) => r;

test("sorted raw rows are the records stably sorted by time (property: run sizes, fan-in, layouts)", async () => {
  const dir = tempDir();
  let n = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(line, { minLength: 1, maxLength: 40 }),
      fc.array(line, { maxLength: 10 }),
      fc.boolean(),
      fc.integer({ min: 1, max: 50 }),
      fc.integer({ min: 2, max: 4 }),
      async (a, b, classified, runRows, fanIn) => {
        const files: string[] = [];
        for (const [lines, cols] of [
          [a, classified],
          [b, false],
        ] as const) {
          if (lines.length === 0) continue;
          const path = join(dir, `in-${n++}.tsv`);
          const head = cols ? `${HEADER}\tCategory\tUnit` : HEADER;
          writeFileSync(path, `${head}\n${lines.map((l) => l(cols)).join("\n")}\n`);
          files.push(path);
        }
        const expected = (await loadLog(files, { lenient: true })).records
          .map(plain)
          .sort((x, y) => x.time - y.time);
        const rejects = new RejectSink();
        const sorted = await sortRowsByTime(files, classified, true, rejects, undefined, {
          runRows,
          fanIn,
          tempDir: dir,
        });
        try {
          assert.equal(sorted.rows, expected.length);
          const got = (await loadLog([sorted.file])).records.map(plain);
          // The codec reads a classified file's empty columns as empty strings, an unclassified file's as absent.
          const norm = (r: Omit<LogRecord, "source">) =>
            classified
              ? { ...r, category: r.category ?? "", unit: r.unit ?? "" }
              : { ...r, category: undefined, unit: undefined };
          assert.deepEqual(got.map(norm), expected.map(norm));
          assert.equal(rejects.count, (await loadLog(files, { lenient: true })).rejected);
        } finally {
          await sorted.dispose();
        }
        assert.ok(!existsSync(sorted.file));
      },
    ),
    { numRuns: 150 },
  );
  assert.deepEqual(
    readdirSync(dir).filter((f) => f.startsWith(".querymask-sort-")),
    [],
  );
});

test("a bad line stops the sort at its file:line, and the temporary files are removed", async () => {
  const dir = tempDir();
  const path = join(dir, "bad.tsv");
  writeFileSync(path, `${HEADER}\n1\tq\t2006-03-01 00:00:02\t\t\n1\tq\tyesterday\t\t\n`);
  await assert.rejects(
    sortRowsByTime([path], false, false, new RejectSink(), undefined, { runRows: 1, tempDir: dir }),
    (e: unknown) => e instanceof InputError && /bad\.tsv/.test(String(e)) && e.line === 3,
  );
  assert.deepEqual(
    readdirSync(dir).filter((f) => f.startsWith(".querymask-sort-")),
    [],
  );
});
