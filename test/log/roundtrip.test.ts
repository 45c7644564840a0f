import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import fc from "fast-check";
import { aolCodec } from "../../src/log/formats/aol.ts";
import { exciteCodec } from "../../src/log/formats/excite.ts";
import { loadLog } from "../../src/log/read.ts";
import type { LogFormat, LogRecord } from "../../src/log/record.ts";
import { writeLog } from "../../src/log/write.ts";
import { tempDir } from "../helpers/tmp.ts";

const dir = tempDir();
let n = 0;

/** Text that a TSV field can carry: no tab, line break or NUL, no lone surrogates. */
const tsvText = fc.string({ unit: "grapheme", maxLength: 30 }).filter((s) => !/[\t\n\r\0]/.test(s));
const user = tsvText.filter((s) => s !== "");
const time = fc.integer({ min: 0, max: 3155759999 });

const aolRecord: fc.Arbitrary<LogRecord> = fc
  .record({
    user,
    query: tsvText,
    time,
    click: fc.option(
      fc.record({
        itemRank: fc.option(fc.nat(500), { nil: undefined }),
        clickUrl: tsvText.filter((s) => s !== ""),
      }),
      { nil: undefined },
    ),
  })
  .map(({ click, ...r }) =>
    click
      ? {
          ...r,
          ...(click.itemRank === undefined ? {} : { itemRank: click.itemRank }),
          clickUrl: click.clickUrl,
        }
      : r,
  );

const exciteRecord: fc.Arbitrary<LogRecord> = fc.record({ user, query: tsvText, time });

const anyText = fc.string({ unit: "grapheme", maxLength: 30 });
const ndjsonRecord: fc.Arbitrary<LogRecord> = fc
  .record({
    user: anyText.filter((s) => s !== ""),
    query: anyText,
    time,
    itemRank: fc.option(fc.nat(500), { nil: undefined }),
    clickUrl: fc.option(anyText, { nil: undefined }),
    category: fc.option(anyText, { nil: undefined }),
  })
  .map(
    (r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)) as unknown as LogRecord,
  );

/** fast-check builds null-prototype objects; compare as plain ones. */
function plain(records: LogRecord[]): LogRecord[] {
  return records.map((r) => ({ ...r }));
}

function strip(records: LogRecord[]): LogRecord[] {
  return records.map(({ source: _s, ...r }) => r);
}

async function roundTrip(format: LogFormat, records: LogRecord[], ext: string): Promise<LogRecord[]> {
  const path = join(dir, `rt-${n++}${ext}`);
  await writeLog(path, { records, format });
  const back = await loadLog([path], { format });
  return strip(back.records);
}

for (const [format, arb] of [
  ["aol", aolRecord],
  ["excite", exciteRecord],
  ["ndjson", ndjsonRecord],
] as const) {
  for (const ext of [".log", ".log.gz"]) {
    test(`any ${format} record survives write → read (${ext})`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(arb, { minLength: 1, maxLength: 20 }), async (records) => {
          assert.deepEqual(await roundTrip(format, records, ext), plain(records));
        }),
        { numRuns: 40 },
      );
    });
  }
}

test("a classified AOL log keeps its category and unit columns", async () => {
  const records: LogRecord[] = [
    {
      user: "1",
      query: "european soccer barcelona players",
      time: 1141200000,
      category: "Top/Sports/Soccer",
      unit: "european soccer",
    },
    {
      user: "1",
      query: "zzqx",
      time: 1141200060,
      clickUrl: "http://x.com",
      itemRank: 2,
      category: "",
      unit: "",
    },
  ];
  const path = join(dir, "classified.tsv");
  await writeLog(path, { records, format: "aol", classified: true });
  const back = await loadLog([path]);
  assert.equal(back.classified, true);
  assert.deepEqual(strip(back.records), records);
});

test("records keep their source file and line", async () => {
  const path = join(dir, "src.tsv");
  await writeLog(path, {
    records: [
      { user: "a", query: "q", time: 0 },
      { user: "b", query: "r", time: 1 },
    ],
    format: "aol",
  });
  const back = await loadLog([path]);
  assert.deepEqual(
    back.records.map((r) => r.source),
    [
      { file: path, line: 2 },
      { file: path, line: 3 },
    ],
  );
});

test("a record the layout cannot carry is refused, and no file is left behind", async () => {
  const path = join(dir, "refused.tsv");
  await assert.rejects(
    writeLog(path, { records: [{ user: "a", query: "has\ttab", time: 0 }], format: "aol" }),
    /tab/,
  );
  await assert.rejects(
    writeLog(path, { records: [{ user: "a", query: "q", time: 0, clickUrl: "u" }], format: "excite" }),
    /clicks/,
  );
  const { readdirSync } = await import("node:fs");
  assert.ok(!readdirSync(dir).some((f) => f.includes("refused")));
});

/** Field text with carriage returns among ordinary characters (tabs and line breaks cut fields and lines). */
const withCr = fc.string({ unit: fc.constantFrom("a", " ", "é", "\r"), maxLength: 6 });

test("what a TSV reader accepts, its writer writes back as it was read: a carriage return in a field is refused on reading", () => {
  const cases = [
    {
      codec: aolCodec,
      line: fc
        .tuple(
          withCr.filter((s) => s !== ""),
          withCr,
          fc.option(withCr, { nil: undefined }),
        )
        .map(([u, q, url]) => `${u}\t${q}\t2006-03-01 07:33:28\t${url ? "1" : ""}\t${url ?? ""}`),
    },
    {
      codec: exciteCodec,
      line: fc
        .tuple(
          withCr.filter((s) => s !== ""),
          withCr,
        )
        .map(([u, q]) => `${u}\t970916105432\t${q}`),
    },
  ];
  for (const { codec, line } of cases) {
    fc.assert(
      fc.property(line, (text) => {
        const rec = codec.parse(text, false);
        if (typeof rec === "string") {
          assert.match(rec, /carriage return \(CR\) inside a field/);
          assert.ok(text.includes("\r"));
          return;
        }
        assert.deepEqual({ ...(codec.parse(codec.toLine(rec, false), false) as LogRecord) }, { ...rec });
      }),
      { numRuns: 300 },
    );
  }
});

test("a log with a carriage return inside a query is refused at its line; a CRLF log is read", async () => {
  const head = "AnonID\tQuery\tQueryTime\tItemRank\tClickURL";
  const bare = join(dir, "bare-cr.tsv");
  writeFileSync(bare, `${head}\n1\tok\t2006-03-01 07:33:28\t\t\n2\tq\rx\t2006-03-01 07:33:29\t\t\n`);
  await assert.rejects(loadLog([bare], { format: "aol" }), (e: Error) => {
    assert.equal(
      e.message,
      `${bare}:3: carriage return (CR) inside a field: a TSV field cannot hold one (a line may end in CRLF)`,
    );
    return true;
  });
  const crlf = join(dir, "crlf.tsv");
  writeFileSync(crlf, `${head}\r\n1\tok\t2006-03-01 07:33:28\t\t\r\n`);
  assert.equal((await loadLog([crlf], { format: "aol" })).records[0]?.query, "ok");
});
