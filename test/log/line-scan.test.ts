import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import fc from "fast-check";
import {
  END,
  FIRST_HASH,
  LAST_OTHER,
  LineScanner,
  OTHERS,
  RECORD,
  SIXTH_HASH,
  START,
  TAB,
  TABS,
} from "../../src/log/line-scan.ts";

/** What the scanner must find, by a byte loop: each line's fields as its record holds them. */
function byteLoop(b: Uint8Array): number[][] {
  const hash = (from: number, to: number) => {
    let h = to - from;
    for (let i = from; i < to; i++) h = (Math.imul(h, 31) + b[i]!) | 0;
    return h;
  };
  const lines: number[][] = [];
  let start = 0;
  for (let i = 0; i <= b.length; i++) {
    if (i < b.length && b[i] !== 10) continue;
    const tabs: number[] = [];
    let others = 0;
    let other = -1;
    for (let j = start; j < i; j++) {
      if (b[j] === 9) tabs.push(j);
      else if (b[j]! <= 13) {
        others++;
        other = j;
      }
    }
    lines.push([
      start,
      i,
      tabs.length,
      others,
      other,
      ...tabs.slice(0, 8),
      tabs.length > 0 ? hash(start, tabs[0]!) : NaN,
      tabs.length >= 6 ? hash(tabs[4]! + 1, tabs[5]!) : NaN,
    ]);
    start = i + 1;
  }
  return lines;
}

/** The scanner's records of `b`, `perCall` lines per call, in the byte loop's shape. */
function scanned(scanner: LineScanner, b: Uint8Array): number[][] {
  scanner.load(b);
  const lines: number[][] = [];
  for (let pos = 0; pos <= b.length; pos = scanner.next) {
    const n = scanner.lines(pos);
    assert.ok(n > 0, "a call records at least one line");
    const r = scanner.records;
    for (let q = 0; q < n * RECORD; q += RECORD) {
      const tabs = r[q + TABS]!;
      lines.push([
        r[q + START]!,
        r[q + END]!,
        tabs,
        r[q + OTHERS]!,
        r[q + LAST_OTHER]!,
        ...r.subarray(q + TAB, q + TAB + Math.min(tabs, 8)),
        tabs > 0 ? r[q + FIRST_HASH]! : NaN,
        tabs >= 6 ? r[q + SIXTH_HASH]! : NaN,
      ]);
    }
  }
  return lines;
}

test("the scanner finds each line's tabs, other control bytes and field hashes as a byte loop does", () => {
  const byte = fc.oneof(
    fc.integer({ min: 0, max: 255 }),
    fc.constantFrom(9, 9, 10, 13, 0, 14, 0x80, 0x8d, 0x89, 0xff, 97),
  );
  // Small capacities and calls of one to a few lines, so that blocks end anywhere in a 16-byte window and
  // calls stop at every line.
  const scanners = [1, 2, 3, 7].map((perCall) => new LineScanner(300, perCall));
  fc.assert(
    fc.property(fc.array(byte, { maxLength: 300, size: "max" }), fc.nat(3), (bytes, s) => {
      const b = Uint8Array.from(bytes);
      assert.deepEqual(scanned(scanners[s]!, b), byteLoop(b));
    }),
    { numRuns: 3000 },
  );
});

test("a block's bytes are the scanner's own: what an earlier, longer block left behind them is not read", () => {
  const scanner = new LineScanner(64);
  scanner.load(new Uint8Array(64).fill(9));
  const b = new TextEncoder().encode("u\tq\nv");
  assert.deepEqual(scanned(scanner, b), byteLoop(b));
  assert.throws(() => scanner.load(new Uint8Array(65)), /65 bytes/);
});

test("the scanner's binary is what its WebAssembly text compiles to", () => {
  const r = spawnSync(process.execPath, ["scripts/wasm.mjs", "--check"], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
});
