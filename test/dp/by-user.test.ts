import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import type { LogRecord } from "../../src/log/record.ts";
import { NotGroupedByUser, userBlocks } from "../../src/log/user-blocks.ts";
import { dp } from "../../src/methods/dp/index.ts";
import { SELECTION_NAMES } from "../../src/methods/dp/selection/index.ts";
import type { UserPasses } from "../../src/methods/method.ts";
import { UsageError } from "../../src/util/errors.ts";
import { silentProgress } from "../../src/util/progress.ts";
import { Rng } from "../../src/util/random.ts";
import { logArb } from "../graph/fixtures.ts";
import { tempDir } from "../helpers/tmp.ts";

const ctx = (seed: number) => ({ rng: Rng.fromSeed(seed), progress: silentProgress });

async function* batchesOf(records: readonly LogRecord[], size: number): AsyncGenerator<LogRecord[]> {
  for (let i = 0; i < records.length; i += size) yield records.slice(i, i + size);
}

/** Passes over records held in memory, in batches of `size`, counting how many passes were asked for. */
function passes(records: readonly LogRecord[], size: number): UserPasses & { count: number } {
  return {
    count: 0,
    pass() {
      this.count++;
      return userBlocks(batchesOf(records, size));
    },
  };
}

/** Some queries emptied (an Excite next page, or a query the scrubber emptied and kept): they are no one's item. */
const withEmpty = (recs: LogRecord[]): LogRecord[] =>
  recs.map((r) => (r.query === "q13" ? { ...r, query: "" } : r));

test("user blocks: every record once, in order, one block per user; a user seen again is reported where", async () => {
  await fc.assert(
    fc.asyncProperty(logArb(80), fc.integer({ min: 1, max: 7 }), async (recs, size) => {
      const blocks: LogRecord[][] = [];
      for await (const b of userBlocks(batchesOf(recs, size))) blocks.push(b);
      assert.deepEqual(blocks.flat(), recs);
      for (const b of blocks) assert.ok(b.every((r) => r.user === b[0]!.user));
      const users = blocks.map((b) => b[0]!.user);
      assert.equal(new Set(users).size, users.length, "one block per user");
    }),
  );
  const mixed: LogRecord[] = [
    { user: "a", query: "x", time: 1 },
    { user: "b", query: "y", time: 2 },
    { user: "a", query: "z", time: 3, source: { file: "log.tsv", line: 4 } },
  ];
  await assert.rejects(
    async () => {
      for await (const _ of userBlocks(batchesOf(mixed, 2))) void _;
    },
    (e: unknown) => e instanceof NotGroupedByUser && e.where === "log.tsv:4",
  );
});

test("dp read one user at a time releases exactly what it releases from the whole log", async () => {
  let released = 0;
  let pairs = 0;
  await fc.assert(
    fc.asyncProperty(
      logArb(80).map(withEmpty),
      fc.constantFrom(...SELECTION_NAMES),
      fc.constantFrom(20, 200, 1000),
      fc.integer({ min: 1, max: 5 }),
      fc.boolean(),
      fc.integer({ min: 1, max: 9 }),
      async (recs, selection, epsilon, d, clicks, size) => {
        const params = dp.parse({ selection, epsilon, delta: 0.1, d, noise: "seeded", clicks });
        if (!recs.some((r) => r.query !== "")) {
          // No user to protect: both entries refuse it the same way (exit 2 on the command line).
          await assert.rejects(dp.anonymize({ records: recs, format: "aol" }, params, ctx(7)), UsageError);
          await assert.rejects(dp.anonymizeByUser!(passes(recs, size), params, ctx(7)), UsageError);
          return;
        }
        const whole = await dp.anonymize({ records: recs, format: "aol" }, params, ctx(7));
        const log = passes(recs, size);
        const byUser = await dp.anonymizeByUser!(log, params, ctx(7));
        assert.deepEqual(byUser, whole);
        const second = clicks && selection !== "korolova"; // korolova limits events and clicks in one pass
        assert.equal(log.count, second ? 2 : 1, "a second pass only for the click pairs");
        released += whole.table!.queries.length;
        pairs += whole.table!.clicks.length;
      },
    ),
    { numRuns: 200 },
  );
  assert.ok(released > 0 && pairs > 0, `the runs released something (${released} queries, ${pairs} pairs)`);
});

const CLI = fileURLToPath(new URL("../../src/cli/main.ts", import.meta.url));
const cli = (args: string[]) =>
  spawnSync(process.execPath, ["--import", "tsx", CLI, ...args], { encoding: "utf8" });

test("querymask anonymize --method dp: a log grouped by user is read by user, one that is not is loaded whole; same release as --batch, and it passes the audit", () => {
  const dir = tempDir();
  const grouped = join(dir, "grouped.tsv");
  const g = cli(["generate", "--users", "400", "--seed", "3", "-o", grouped, "-q"]);
  assert.equal(g.status, 0, g.stderr);
  // The same rows, the first two users' interleaved: no longer grouped by user.
  const lines = readFileSync(grouped, "utf8").trimEnd().split("\n");
  const [header, ...rows] = lines;
  const first = rows.filter((r) => r.split("\t")[0] === rows[0]!.split("\t")[0]);
  const rest = rows.slice(first.length);
  const mixed = join(dir, "mixed.tsv");
  const [a, ...others] = first;
  writeFileSync(mixed, `${[header, a, rest[0], ...others, ...rest.slice(1)].join("\n")}\n`);
  const args = ["--method", "dp", "--noise", "seeded", "--seed", "5", "--epsilon", "20", "--json"];
  for (const [input, note] of [
    [grouped, false],
    [mixed, true],
  ] as const) {
    const out = join(dir, "by-user.tsv");
    const batch = join(dir, "batch.tsv");
    const r = cli(["anonymize", ...args, input, "-o", out]);
    assert.equal(r.status, 0, r.stderr);
    const b = cli(["anonymize", ...args, "--batch", input, "-o", batch]);
    assert.equal(b.status, 0, b.stderr);
    assert.equal(/is not grouped by user; loading it whole/.test(r.stderr), note, r.stderr);
    // A DP run's progress names its phases without counts (rows and users read are data-dependent).
    if (!note) assert.match(r.stderr, /one user at a time: done/);
    const body = readFileSync(out, "utf8");
    assert.ok(body.split("\n").length > 10, "something was released");
    assert.equal(body, readFileSync(batch, "utf8"));
    const summary = (s: string) => ({ ...JSON.parse(s), out: undefined, seconds: undefined });
    assert.deepEqual(summary(r.stdout), summary(b.stdout));
    const summaryFile = join(dir, "summary.json");
    writeFileSync(summaryFile, r.stdout);
    const audit = cli([
      "audit",
      "-q",
      "-m",
      "dp",
      "--original",
      input,
      "--released",
      out,
      "--summary",
      summaryFile,
    ]);
    assert.equal(audit.status, 0, audit.stdout + audit.stderr);
  }
});

test("the by-user entry refuses a user it is given twice, or two users in one block: it does not trust its caller", async () => {
  const a1: LogRecord[] = [{ user: "a", query: "x", time: 1 }];
  const b: LogRecord[] = [{ user: "b", query: "y", time: 2 }];
  const a2: LogRecord[] = [{ user: "a", query: "z", time: 3, source: { file: "log.tsv", line: 4 } }];
  // A caller with its own reader that does not check grouping: user a twice, which would double a's bound.
  const given = (blocks: LogRecord[][]): UserPasses => ({
    async *pass() {
      for (const block of blocks) yield block;
    },
  });
  for (const selection of SELECTION_NAMES) {
    const params = dp.parse({ selection, noise: "seeded" });
    await assert.rejects(
      dp.anonymizeByUser!(given([a1, b, a2]), params, ctx(1)),
      (e: unknown) => e instanceof NotGroupedByUser && e.where === "log.tsv:4",
      selection,
    );
    await assert.rejects(
      dp.anonymizeByUser!(given([[...a1, ...b]]), params, ctx(1)),
      NotGroupedByUser,
      selection,
    );
  }
});
