import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { eachCountRow, eachRow, toTable } from "../../src/knowledge/snapshot.ts";

const rowsOf = (table: string) => {
  const out: [string, string][] = [];
  eachRow(table, (k, v) => out.push([k, v]));
  return out;
};

test("eachRow reads back every row toTable wrote", () => {
  const table = toTable([
    ["soccer", 12],
    ["real estat", "3,4"],
    ["barcelona", "~7"],
  ]);
  assert.deepEqual(rowsOf(table), [
    ["soccer", "12"],
    ["real estat", "3,4"],
    ["barcelona", "~7"],
  ]);
  assert.deepEqual(rowsOf(""), []);
});

test("eachCountRow gives Number(value) for every value, digits or not", () => {
  const values = [
    "0",
    "7",
    "0012",
    "123456789012345",
    "1234567890123456789",
    "",
    " 5",
    "1e3",
    "2.5",
    "-4",
    "x",
  ];
  const table = toTable(values.map((v, i) => [`k${i}`, v] as const));
  const got: [string, number][] = [];
  eachCountRow(table, (k, v) => got.push([k, v]));
  assert.deepEqual(
    got,
    values.map((v, i) => [`k${i}`, Number(v)]),
  );
});

test("eachCountRow agrees with Number on random digit strings", () => {
  fc.assert(
    fc.property(fc.array(fc.stringMatching(/^[0-9]{0,20}$/), { minLength: 1, maxLength: 20 }), (values) => {
      const table = toTable(values.map((v, i) => [`w${i}`, v] as const));
      const got: number[] = [];
      eachCountRow(table, (_, v) => got.push(v));
      assert.deepEqual(
        got,
        values.map((v) => Number(v)),
      );
    }),
  );
});
