/**
 * Swap on raw rows (the CLI's stream of a classified AOL log, src/methods/swap/rows.ts) releases the bytes the
 * record path releases for the same log, parameters and seed: the batch method's records printed by the writer.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import fc from "fast-check";
import { loadLog } from "../../src/log/read.ts";
import type { LogRecord } from "../../src/log/record.ts";
import { RejectSink } from "../../src/log/rejects.ts";
import { createRowWriter } from "../../src/log/row-write.ts";
import { readRows } from "../../src/log/rows.ts";
import { writeLog } from "../../src/log/write.ts";
import { methodRng } from "../../src/methods/method.ts";
import { swap, swapRecords } from "../../src/methods/swap/index.ts";
import { SwapRowStage } from "../../src/methods/swap/rows.ts";
import { SwapStage } from "../../src/methods/swap/stage.ts";
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

/** Released records as compared: what a written release holds. */
const shown = (rs: readonly LogRecord[]) =>
  rs.map((r) => [r.user, r.query, r.time, r.itemRank ?? null, r.clickUrl ?? null, r.category ?? ""]);

test("one stage contract: the raw-row stage's snapshot resumes as the record stage, and the record stage's as the raw-row stage", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(eventSpec(5), { maxLength: 120 }),
      fc.double({ min: 0, max: 1, noNaN: true }),
      fc.constantFrom(2, 3),
      fc.constantFrom("release", "suppress"),
      fc.integer({ min: 1, max: 1000 }),
      async (specs, cutAt, k, end, seed) => {
        const records = buildLog(specs);
        // A cut between two rows, inside an event or not: the snapshot carries the event being assembled.
        const cut = Math.floor(cutAt * records.length);
        const params = swap.parse({ k, end });
        const expected = shown(swapRecords(records, params, methodRng(seed).derive("swap")).records);
        const tag = ++n;
        const second = join(dir, `second-${tag}.tsv`);
        await writeLog(second, { records: records.slice(cut), format: "aol", classified: true });
        const first = join(dir, `first-${tag}.tsv`);
        await writeLog(first, { records: records.slice(0, cut), format: "aol", classified: true });
        const rng = () => methodRng(seed).derive("swap");
        const read = async (path: string) => (await loadLog([path], { keepSource: false })).records;

        // Raw rows first, then the record stage from the raw-row stage's snapshot (through JSON, as saved).
        const headPath = join(dir, `head-${tag}.tsv`);
        const head = createRowWriter(headPath, true);
        const rows = new SwapRowStage(params, rng(), head);
        for await (const b of readRows([first], false, new RejectSink(undefined))) rows.push(b);
        const saved = JSON.parse(JSON.stringify(rows.snapshot()));
        await head.close();
        const tail = new SwapStage(params, rng(), undefined, saved);
        const rest = [...tail.push(records.slice(cut)), ...tail.flush()];
        assert.deepEqual(shown([...(await read(headPath)), ...rest]), expected, "rows, then records");

        // The record stage first, then the raw-row stage from its snapshot.
        const lead = new SwapStage(params, rng());
        const released = lead.push(records.slice(0, cut));
        const resumedPath = join(dir, `resumed-${tag}.tsv`);
        const out = createRowWriter(resumedPath, true);
        const resumed = new SwapRowStage(params, rng(), out, JSON.parse(JSON.stringify(lead.snapshot())));
        for await (const b of readRows([second], false, new RejectSink(undefined))) resumed.push(b);
        resumed.flush();
        await out.close();
        assert.deepEqual(shown([...released, ...(await read(resumedPath))]), expected, "records, then rows");
      },
    ),
    { numRuns: 40 },
  );
});
