/**
 * A log not grouped by user, sorted by user on disk (src/pipeline/spill.ts) and read by user, releases what the
 * batch path releases on the log as given, byte for byte: threshold and graph (dp, km and mdav declare
 * `sortable: false` and load such a log), on generated logs whose users are interleaved (each user's events in order, whole), with a memory
 * budget small enough that both sorts spill several runs. A bad line is reported at the original file:line (exit 2
 * at the CLI) or set aside with lenient mode; the temporary files are gone after success and after failure.
 */
import assert from "node:assert/strict";
import { appendFileSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import fc from "fast-check";
import { groupEvents } from "../../src/log/events.ts";
import type { LogRecord, QueryLog } from "../../src/log/record.ts";
import { writeLog } from "../../src/log/write.ts";
import { loadMethod } from "../../src/methods/registry.ts";
import { releaseFiles } from "../../src/pipeline/release.ts";
import { generateLog } from "../../src/synth/generate.ts";
import { InputError } from "../../src/util/errors.ts";
import { silentProgress } from "../../src/util/progress.ts";
import { Rng } from "../../src/util/random.ts";
import { tempDir } from "../helpers/tmp.ts";

/** `log` with its users interleaved at random: each user's events in their order, each event's rows together. */
function interleaved(log: QueryLog, seed: number): QueryLog {
  const rng = Rng.fromSeed(seed);
  const byUser = new Map<string, LogRecord[][]>();
  for (const e of groupEvents(log.records)) {
    let list = byUser.get(e.user);
    if (!list) {
      list = [];
      byUser.set(e.user, list);
    }
    list.push(log.records.slice(e.first, e.first + e.rows));
  }
  const queues = [...byUser.values()];
  const records: LogRecord[] = [];
  while (queues.length > 0) {
    const i = Math.floor(rng.float() * queues.length);
    records.push(...queues[i]!.shift()!);
    if (queues[i]!.length === 0) queues.splice(i, 1);
  }
  return { ...log, records };
}

const METHODS: readonly [string, Record<string, unknown>][] = [
  ["threshold", { k: 2 }],
  ["graph", { k: 2 }],
];

async function release(
  name: string,
  raw: Record<string, unknown>,
  input: string,
  out: string,
  how: { batch?: boolean; sortByUser?: boolean; memory?: number; lenient?: boolean },
) {
  const method = await loadMethod(name);
  const said: string[] = [];
  const run = await releaseFiles({
    method,
    params: method.parse(raw),
    seed: 7,
    inputs: [input],
    read: { lenient: how.lenient ?? false },
    out,
    ...how,
    progress: silentProgress,
    say: (line) => said.push(line),
  });
  return { run, said };
}

/** What a run left in `dir` besides the files the test put there and the release. */
const leftovers = (dir: string, keep: readonly string[]) => readdirSync(dir).filter((f) => !keep.includes(f));

test("sorted by user on disk, the release is the batch path's on the interleaved log, byte for byte", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 10_000 }),
      fc.integer({ min: 20, max: 60 }),
      fc.integer({ min: 0, max: METHODS.length - 1 }),
      async (seed, users, m) => {
        const dir = tempDir();
        const log = interleaved(generateLog({ seed, users }), seed);
        const input = join(dir, "log.tsv");
        await writeLog(input, log);
        const [name, params] = METHODS[m]!;
        const batch = await release(name, params, input, join(dir, "batch.tsv"), { batch: true });
        // A budget of 20 KiB of records (the library takes fractions of a MiB): runs of ~100 rows, many spilled.
        const sorted = await release(name, params, input, join(dir, "sorted.tsv"), { memory: 0.02 });
        assert.ok(
          sorted.said.some((l) => /^merging \d+ sorted runs$/.test(l)),
          sorted.said.join("\n"),
        );
        assert.ok(sorted.said.some((l) => /not grouped by user; sorting it by user on disk$/.test(l)));
        assert.equal(sorted.run.mode, "by-user");
        assert.equal(batch.run.mode, "batch");
        assert.deepEqual(
          readFileSync(join(dir, "sorted.tsv")),
          readFileSync(join(dir, "batch.tsv")),
          `${name} ${JSON.stringify(params)}`,
        );
        assert.deepEqual(sorted.run.counts, batch.run.counts);
        assert.deepEqual(leftovers(dir, ["log.tsv", "batch.tsv", "sorted.tsv"]), []);
      },
    ),
    { numRuns: 12 },
  );
});

test("several sorted runs are merged, and --sort-by-user sorts a grouped log too", async () => {
  const dir = tempDir();
  const log = generateLog({ seed: 5, users: 300 });
  const input = join(dir, "log.tsv");
  await writeLog(input, interleaved(log, 5));
  const { said } = await release("threshold", { k: 2 }, input, join(dir, "a.tsv"), { memory: 1 });
  assert.ok(
    said.some((l) => /^merging \d+ sorted runs$/.test(l)),
    said.join("\n"),
  );
  const grouped = join(dir, "grouped.tsv");
  await writeLog(grouped, log);
  await release("threshold", { k: 2 }, grouped, join(dir, "b.tsv"), {});
  const forced = await release("threshold", { k: 2 }, grouped, join(dir, "c.tsv"), {
    sortByUser: true,
    memory: 1,
  });
  assert.ok(forced.said.some((l) => /sorted runs/.test(l)));
  assert.deepEqual(readFileSync(join(dir, "c.tsv")), readFileSync(join(dir, "b.tsv")));
});

test("a bad line is reported at its original file:line, nothing is written and no temporary file is left", async () => {
  const dir = tempDir();
  const input = join(dir, "log.tsv");
  const log = interleaved(generateLog({ seed: 9, users: 60 }), 9);
  await writeLog(input, log);
  // The header is line 1: the bad line is the log's rows + 2, after the sort has spilled runs.
  appendFileSync(input, "1234\tsome query\tnot a time\t\t\n");
  const bad = log.records.length + 2;
  for (const how of [{ memory: 1 }, { memory: 1, sortByUser: true }]) {
    await assert.rejects(
      release("threshold", { k: 2 }, input, join(dir, "out.tsv"), how),
      (e: unknown) => e instanceof InputError && e.message.startsWith(`${input}:${bad}:`),
    );
    assert.deepEqual(leftovers(dir, ["log.tsv"]), []);
  }
  // Lenient: set aside and counted; the release is the batch path's, lenient too.
  const a = await release("threshold", { k: 2 }, input, join(dir, "a.tsv"), { memory: 1, lenient: true });
  const b = await release("threshold", { k: 2 }, input, join(dir, "b.tsv"), { batch: true, lenient: true });
  assert.equal(a.run.rejected, 1);
  assert.equal(b.run.rejected, 1);
  assert.deepEqual(readFileSync(join(dir, "a.tsv")), readFileSync(join(dir, "b.tsv")));
  assert.deepEqual(leftovers(dir, ["log.tsv", "a.tsv", "b.tsv"]), []);
});
