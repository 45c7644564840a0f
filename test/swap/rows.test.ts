/**
 * Swap on raw rows (the CLI's stream of a classified AOL log, src/methods/swap/rows.ts) releases the bytes the
 * record path releases for the same log, parameters and seed: the batch method's records printed by the writer.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import fc from "fast-check";
import type { LogRecord } from "../../src/log/record.ts";
import { RejectSink } from "../../src/log/rejects.ts";
import { createRowWriter } from "../../src/log/row-write.ts";
import { readRows } from "../../src/log/rows.ts";
import { writeLog } from "../../src/log/write.ts";
import { methodRng } from "../../src/methods/method.ts";
import { swap, swapRecords } from "../../src/methods/swap/index.ts";
import { SwapRowStage } from "../../src/methods/swap/rows.ts";
import { tempDir } from "../helpers/tmp.ts";
import { buildLog, eventSpec } from "./fixtures.ts";

const dir = tempDir();
let n = 0;

async function bothPaths(records: LogRecord[], raw: Record<string, unknown>, seed: number) {
  const params = swap.parse(raw);
  const input = join(dir, `in-${++n}.tsv`);
  await writeLog(input, { records, format: "aol", classified: true });
  const viaRecords = join(dir, `records-${n}.tsv`);
  const batch = swapRecords(records, params, methodRng(seed).derive("swap"));
  await writeLog(viaRecords, { records: batch.records, format: "aol", classified: true });
  const viaRows = join(dir, `rows-${n}.tsv`);
  const out = createRowWriter(viaRows, true);
  const stage = new SwapRowStage(params, methodRng(seed).derive("swap"), out);
  for await (const rows of readRows([input], false, new RejectSink(undefined))) stage.push(rows);
  stage.flush();
  await out.close();
  return { rows: readFileSync(viaRows, "utf8"), records: readFileSync(viaRecords, "utf8"), stage, batch };
}

test("swap on raw rows writes the record path's release byte for byte, with the same counts", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(eventSpec(6), { maxLength: 150 }),
      fc.constantFrom(2, 3, 5),
      fc.integer({ min: 1, max: 3 }),
      fc.constantFrom("release", "suppress"),
      fc.integer({ min: 1, max: 1000 }),
      async (specs, k, depth, end, seed) => {
        const r = await bothPaths(buildLog(specs), { k, depth, end }, seed);
        assert.equal(r.rows, r.records);
        assert.deepEqual(r.stage.counts(), r.batch.counts);
      },
    ),
    { numRuns: 60 },
  );
});

test("events held across the reader's blocks are released intact (a log of several 256 KiB blocks)", async () => {
  const specs = [];
  // 12,000 events of 1–3 rows: ~1.6 MB, so held rows outlive the buffer they were read into.
  for (let i = 0; i < 12_000; i++)
    specs.push({ user: (i * 7) % 11, cat: (i * 13) % 5, rows: 1 + (i % 3), gap: i % 4 });
  const r = await bothPaths(buildLog(specs), { k: 3, depth: 3 }, 9);
  assert.ok(r.rows.length > 1 << 20);
  assert.equal(r.rows, r.records);
});
