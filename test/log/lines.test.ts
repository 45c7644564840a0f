import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { gzipSync } from "node:zlib";
import fc from "fast-check";
import { MAX_LINE_BYTES, readLineBlocks } from "../../src/log/lines.ts";
import { tempDir } from "../helpers/tmp.ts";

/** Every line of `file` as readLineBlocks gives it (undefined = bad), and the bad lines' numbers. */
async function readAll(file: string): Promise<{ lines: (string | undefined)[]; bad: number[] }> {
  const lines: (string | undefined)[] = [];
  const bad: number[] = [];
  let next = 1;
  for await (const block of readLineBlocks(file, (n) => bad.push(n))) {
    // Blocks follow each other; a gap is only ever an over-long line skipped between them.
    assert.ok(block.firstLine >= next);
    next = block.firstLine + block.lines.length;
    lines.push(...block.lines);
  }
  return { lines, bad };
}

/** What a reader must give: the lines split at "\n" (a final "\r" dropped), over-long ones reported. */
function expected(text: string): { lines: (string | undefined)[]; bad: number[] } {
  const parts = text.split("\n");
  if (parts.at(-1) === "") parts.pop();
  const lines: (string | undefined)[] = [];
  const bad: number[] = [];
  parts.forEach((p, i) => {
    if (Buffer.byteLength(p) > MAX_LINE_BYTES) {
      bad.push(i + 1);
      return; // reported; an undefined entry, or no entry when skipped between blocks
    }
    lines.push(p.endsWith("\r") ? p.slice(0, -1) : p);
  });
  return { lines, bad };
}

test("lines are cut the same wherever the 256 KiB reads fall, plain and gzip, with multi-byte text", async () => {
  const dir = tempDir();
  await fc.assert(
    fc.asyncProperty(
      fc.array(
        fc.oneof(
          fc.string({ maxLength: 40 }).map((s) => s.replace(/[\n\0]/g, "")),
          fc.integer({ min: 1, max: 60_000 }).map((n) => "é".repeat(n)),
          fc.integer({ min: 1_000, max: 120_000 }).map((n) => "x".repeat(n)),
        ),
        { minLength: 1, maxLength: 30 },
      ),
      fc.boolean(),
      fc.boolean(),
      async (parts, crlf, gz) => {
        const text = parts.join(crlf ? "\r\n" : "\n");
        const file = join(dir, gz ? "log.tsv.gz" : "log.tsv");
        writeFileSync(file, gz ? gzipSync(text) : text);
        const got = await readAll(file);
        const want = expected(text);
        assert.deepEqual(
          got.lines.filter((l) => l !== undefined),
          want.lines,
        );
        assert.deepEqual(got.bad, want.bad);
      },
    ),
    { numRuns: 40, seed: 17 },
  );
});
