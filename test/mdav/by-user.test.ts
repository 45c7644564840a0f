/**
 * mdav read one user at a time (src/methods/mdav/by-user.ts) releases what the batch path releases: the same
 * records in the same order, the same origins and counts, for both variants, with and without the knowledge
 * base, on logs with next-page rows (empty queries), users with no query at all, classified columns and rows of
 * unusual shapes.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import fc from "fast-check";
import type { LogRecord, QueryLog } from "../../src/log/record.ts";
import { mdavByUser } from "../../src/methods/mdav/by-user.ts";
import { mdav, semanticMicroaggregation } from "../../src/methods/mdav/index.ts";
import type { MethodContext } from "../../src/methods/method.ts";
import { generateLog } from "../../src/synth/generate.ts";
import { silentProgress } from "../../src/util/progress.ts";
import { Rng } from "../../src/util/random.ts";
import { tempDir } from "../helpers/tmp.ts";
import { keptSink, userPasses } from "../helpers/user-passes.ts";
import { paperContext, paperMapper, randomLog } from "./fixtures.ts";

/** `mdav` by user and in batch on `input` agree (see the module comment); returns the batch release. */
async function assertSame(input: QueryLog, raw: Record<string, unknown>, ctx: () => MethodContext) {
  const params = mdav.parse(raw);
  const batch = await mdav.anonymize(input, params, ctx()).catch((e: Error) => e);
  if (batch instanceof Error) {
    // Refused (fewer users than k): by user too, with the same message.
    await assert.rejects(mdav.anonymizeByUser!(userPasses(input, 5), params, ctx(), keptSink()), {
      message: batch.message,
    });
    return undefined;
  }
  const out = keptSink();
  const written = await mdav.anonymizeByUser!(userPasses(input, 5), params, ctx(), out);
  assert.equal(written.log, undefined, "written to the sink, not held");
  assert.deepStrictEqual(out.records, batch.log!.records);
  assert.deepStrictEqual(written.counts, batch.counts);
  assert.deepStrictEqual(written.guarantee, batch.guarantee);
  const held = await mdav.anonymizeByUser!(userPasses(input, 64), params, ctx());
  assert.deepStrictEqual(held.log, batch.log);
  assert.deepStrictEqual(held.origin, batch.origin);
  assert.deepStrictEqual(Object.keys(held.counts), Object.keys(batch.counts), "counts in the same order");
  return batch;
}

/** `log` with some rows' queries emptied (next-page requests), a few users' all of them, and odd shapes. */
function roughened(log: QueryLog, seed: number, classified: boolean): QueryLog {
  const rng = Rng.fromSeed(seed);
  const silent = new Set<string>();
  const records = log.records.map((r): LogRecord => {
    if (rng.float() < 0.03) silent.add(r.user);
    const x: LogRecord = { ...r };
    if (silent.has(r.user) || rng.float() < 0.1) x.query = "";
    if (classified) {
      x.category = rng.float() < 0.2 ? "" : `Top/C${r.query.length % 4}`;
      if (rng.float() < 0.7) x.unit = r.query.split(" ")[0]!;
    }
    // A key present but undefined, a rank that is no int32, a non-Latin-1 text.
    const odd = rng.float();
    if (odd < 0.02) x.itemRank = undefined;
    else if (odd < 0.03 && x.itemRank !== undefined) x.itemRank = 2.5;
    else if (odd < 0.04) x.query = `${x.query} ☃ ü`;
    return x;
  });
  return { ...log, records, classified };
}

const params = fc.record({
  k: fc.constantFrom(2, 3),
  variant: fc.constantFrom("exact", "blocked"),
  block: fc.constantFrom(6, 8, 13),
  workers: fc.constant(0),
});

test("mdav read by user releases the batch release (generated logs, both variants, the stand-in mapper)", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 1000 }),
      fc.integer({ min: 2, max: 40 }),
      params,
      fc.boolean(),
      fc.boolean(),
      async (seed, users, raw, rough, classified) => {
        const log = generateLog({ seed, users });
        const input = rough ? roughened(log, seed, classified) : log;
        const ctx = () => ({ rng: Rng.fromSeed(seed), progress: silentProgress });
        const r = await assertSame(input, raw, ctx);
        if (users >= 3) assert.ok(r!.counts.users! >= 1);
      },
    ),
    { numRuns: 30 },
  );
});

test("mdav read by user releases the batch release (a knowledge base that maps most queries)", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 1000 }),
      fc.integer({ min: 3, max: 60 }),
      params,
      async (seed, users, raw) => {
        const r = await assertSame(randomLog(users, seed), raw, () => paperContext(seed));
        // Most queries map, so the release is not empty: the comparison above compared rows.
        assert.ok(r!.log!.records.length > 0);
      },
    ),
    { numRuns: 30 },
  );
});

test("by user, the blocked variant in worker threads and the exact variant's fallback match the batch path", async () => {
  const input = randomLog(60, 3);
  const raw = { k: 3, variant: "exact", block: 20, workers: 2 } as const;
  const notes: string[][] = [[], []];
  const batch = await semanticMicroaggregation(
    input,
    raw,
    paperMapper(),
    Rng.fromSeed(4),
    undefined,
    undefined,
    (m) => notes[0]!.push(m),
    1024,
  );
  const byUser = await mdavByUser(
    userPasses(input, 3),
    raw,
    paperMapper(),
    Rng.fromSeed(4),
    undefined,
    undefined,
    (m) => notes[1]!.push(m),
    1024,
  );
  assert.equal(batch.counts["exact variant too large: blocked variant used"], 1);
  assert.deepStrictEqual(byUser.counts, batch.counts);
  assert.deepStrictEqual(byUser.log, batch.log);
  assert.deepStrictEqual(byUser.origin, batch.origin);
  assert.deepStrictEqual(notes[1], notes[0]);
  assert.equal(notes[0]!.length, 1);
});

test("by user, a log of fewer users than k is refused as the batch path refuses it", async () => {
  const input = randomLog(2, 1);
  const p = mdav.parse({ k: 3 });
  const ctx = () => ({ rng: Rng.fromSeed(1), progress: silentProgress });
  const batch = await mdav.anonymize(input, p, ctx()).then(
    () => "released",
    (e: Error) => e.message,
  );
  assert.match(batch, /k = 3 is more than the 2 users/);
  await assert.rejects(
    mdav.anonymizeByUser!(userPasses(input), p, ctx(), keptSink()),
    (e: Error) => e.message === batch,
  );
});

const CLI = "bin/querymask.js";

test("querymask anonymize --method mdav: the log read by user, byte for byte the --batch release", () => {
  const dir = tempDir("querymask-mdav-by-user-");
  const log = join(dir, "log.tsv");
  const gen = spawnSync(
    process.execPath,
    [CLI, "generate", "--users", "400", "--seed", "3", "-q", "-o", log],
    {
      encoding: "utf8",
    },
  );
  assert.equal(gen.status, 0, gen.stderr);
  const run = (out: string, batch: boolean) => {
    const args = [CLI, "anonymize", "--method", "mdav", "--k", "3", "--variant", "blocked", "--block", "50"];
    const r = spawnSync(
      process.execPath,
      [...args, ...(batch ? ["--batch"] : []), log, "-o", out, "--json"],
      {
        encoding: "utf8",
      },
    );
    assert.equal(r.status, 0, r.stderr);
    return r;
  };
  const byUser = run(join(dir, "by-user.tsv"), false);
  const batch = run(join(dir, "batch.tsv"), true);
  // The progress lines say which path ran.
  assert.match(byUser.stderr, /mdav: mapping the users' queries, one user at a time/);
  assert.doesNotMatch(batch.stderr, /one user at a time/);
  const a = readFileSync(join(dir, "by-user.tsv"));
  assert.ok(a.length > 1000, "something released");
  assert.ok(a.equals(readFileSync(join(dir, "batch.tsv"))), "the same bytes");
  // The summaries but their time and output path.
  const summary = (s: string) => {
    const { seconds: _s, out: _o, ...rest } = JSON.parse(s) as Record<string, unknown>;
    return rest;
  };
  assert.deepStrictEqual(summary(byUser.stdout), summary(batch.stdout));
  assert.equal(summary(byUser.stdout).users, 400);
});
