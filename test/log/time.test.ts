import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import {
  formatAolTime,
  formatExciteTime,
  parseAolTime,
  parseAolTimeIn,
  parseExciteTime,
  writeAolTime,
} from "../../src/log/time.ts";

test("AOL times parse to UTC seconds", () => {
  assert.equal(parseAolTime("1970-01-01 00:00:00"), 0);
  assert.equal(parseAolTime("2006-03-01 07:33:28"), Date.UTC(2006, 2, 1, 7, 33, 28) / 1000);
  assert.equal(parseAolTime("2000-02-29 23:59:59"), Date.UTC(2000, 1, 29, 23, 59, 59) / 1000);
});

test("impossible AOL times are rejected", () => {
  for (const bad of [
    "2006-02-30 00:00:00",
    "2006-13-01 00:00:00",
    "2006-03-01 24:00:00",
    "2006-03-01",
    "2006/03/01 00:00:00",
    "2005-02-29 00:00:00",
    "abcd-03-01 00:00:00",
  ]) {
    assert.ok(Number.isNaN(parseAolTime(bad)), bad);
  }
});

test("Excite times: YY 70–99 are 19xx", () => {
  assert.equal(parseExciteTime("970916105432"), Date.UTC(1997, 8, 16, 10, 54, 32) / 1000);
  assert.equal(parseExciteTime("050101000000"), Date.UTC(2005, 0, 1) / 1000);
  assert.ok(Number.isNaN(parseExciteTime("97091610543")));
  assert.ok(Number.isNaN(parseExciteTime("971316105432")));
});

test("format and parse are inverse (property)", () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 253402300799 }), (t) => {
      assert.equal(parseAolTime(formatAolTime(t)), t);
    }),
  );
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 3155759999 }), (t) => {
      assert.equal(parseExciteTime(formatExciteTime(t)), t);
    }),
  );
});

test("formatting agrees with Date", () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 4102444800 }), (t) => {
      assert.equal(formatAolTime(t), new Date(t * 1000).toISOString().slice(0, 19).replace("T", " "));
    }),
  );
});

test("a time parsed where it stands in a line is the time parsed alone (property)", () => {
  const text = fc.oneof(
    fc.integer({ min: 0, max: 253402300799 }).map(formatAolTime),
    fc.string({ minLength: 17, maxLength: 21 }),
    fc.constantFrom("2006-02-30 00:00:00", "2006-03-01T07:33:28", "2006-03-01 07:33:2x"),
  );
  fc.assert(
    fc.property(fc.string(), text, fc.string(), (before, t, after) => {
      const got = parseAolTimeIn(`${before}${t}${after}`, before.length, before.length + t.length);
      assert.ok(Object.is(got, parseAolTime(t)), JSON.stringify(t));
    }),
  );
});

test("writeAolTime writes formatAolTime's text, for any time from year 0 to 9999, a fraction of a second too", () => {
  const second = fc.integer({ min: -62167219200, max: 253402300799 });
  fc.assert(
    fc.property(
      fc.oneof(
        second,
        fc.tuple(second, fc.constantFrom(0.5, 0.25, 0.999)).map(([s, f]) => s + f),
      ),
      (t) => {
        const buf = Buffer.alloc(64);
        const end = writeAolTime(t, buf, 3);
        assert.equal(buf.toString("latin1", 3, end), formatAolTime(t));
      },
    ),
  );
});
