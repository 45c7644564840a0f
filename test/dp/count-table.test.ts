import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import fc from "fast-check";
import {
  COUNT_TABLE_HEADER,
  formatCountTable,
  parseCountTable,
  readCountTable,
  writeCountTable,
} from "../../src/log/count-table.ts";
import type { CountTable } from "../../src/methods/method.ts";
import { InputError } from "../../src/util/errors.ts";
import { tempDir } from "../helpers/tmp.ts";

const text = fc.string({ unit: fc.constantFrom("a", "b", " ", "\t", "\n", "\r", "\\", "é", "t", "n") });
/** Finite doubles; −0 is written as "0", so it is left out. */
const count = fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => (x === 0 ? 0 : x));
const plain = { noNullPrototype: true };
const tableArb: fc.Arbitrary<CountTable> = fc.record(
  {
    queries: fc.array(fc.record({ query: text, count }, plain)),
    clicks: fc.array(fc.record({ query: text, url: text, count }, plain)),
  },
  plain,
);

test("format → parse is the identity, whatever the text holds", () => {
  fc.assert(
    fc.property(tableArb, (t) => {
      const back = parseCountTable(formatCountTable(t));
      assert.deepEqual(back, t);
    }),
  );
});

test("write → read round-trips, plain and gzip, and leaves no temporary file", async () => {
  const dir = tempDir();
  const t: CountTable = {
    queries: [{ query: "weather", count: 612.25 }],
    clicks: [{ query: "weather", url: "http://www.weather.com", count: 603.5 }],
  };
  for (const name of ["release.table", "release.table.gz"]) {
    const path = join(dir, name);
    await writeCountTable(path, t);
    assert.deepEqual(await readCountTable(path), t);
  }
  assert.ok(readFileSync(join(dir, "release.table"), "utf8").startsWith(`${COUNT_TABLE_HEADER}\n`));
});

test("bad input names the file and line", async () => {
  const dir = tempDir();
  const bad = (body: string, re: RegExp) => {
    const p = join(dir, "bad.table");
    writeFileSync(p, body);
    return assert.rejects(readCountTable(p), (e: unknown) => e instanceof InputError && re.test(e.message));
  };
  await bad("query\tq\t\t1\n", /bad\.table:1: not a count table/);
  await bad(`${COUNT_TABLE_HEADER}\nquery\tq\t\tmany\n`, /bad\.table:2: count is not a number/);
  await bad(`${COUNT_TABLE_HEADER}\nrow\tq\t\t1\n`, /bad\.table:2: kind must be/);
  await bad(`${COUNT_TABLE_HEADER}\nclick\tq\t1\n`, /bad\.table:2: expected 4/);
  await bad(`${COUNT_TABLE_HEADER}\nquery\tq\\x\t\t1\n`, /bad\.table:2: bad backslash escape/);
  await assert.rejects(readCountTable(join(dir, "missing.table")), InputError);
});
