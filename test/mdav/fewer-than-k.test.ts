/**
 * k against what the log holds: a log with fewer users than k is refused with a message that names both (no
 * cluster of k users can be formed; it used to release nothing, exit 0), for every microaggregation method; a large
 * k alone is never refused for mdav's block size, whose default follows k (it used to name --block, a flag the
 * user had not given); a block the user gives below 2k still is.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import type { LogRecord } from "../../src/log/record.ts";
import { erola } from "../../src/methods/erola/index.ts";
import { mdav } from "../../src/methods/mdav/index.ts";
import { mdavParams } from "../../src/methods/mdav/meta.ts";
import { mdavStrings } from "../../src/methods/mdav-strings/index.ts";
import type { Method } from "../../src/methods/method.ts";
import { ParamError } from "../../src/methods/method.ts";
import { navarro } from "../../src/methods/navarro/index.ts";
import { UsageError } from "../../src/util/errors.ts";
import { silentProgress } from "../../src/util/progress.ts";
import { Rng } from "../../src/util/random.ts";
import { tempDir } from "../helpers/tmp.ts";

const records: LogRecord[] = [
  { user: "1", query: "cheap flights", time: 1_141_000_000 },
  { user: "2", query: "soccer scores", time: 1_141_000_060 },
  { user: "1", query: "weather boston", time: 1_141_000_120 },
];
const ctx = () => ({ rng: Rng.fromSeed(1), progress: silentProgress });

test("a log of fewer users than k is refused by every microaggregation method, naming k and the users", async () => {
  for (const m of [mdav, mdavStrings, erola, navarro] as Method[]) {
    await assert.rejects(
      m.anonymize({ records, format: "aol" }, m.parse({ k: 3 }), ctx()),
      (e: unknown) =>
        e instanceof UsageError &&
        e.message ===
          `${m.name}: k = 3 is more than the 2 users of the log: no cluster of k users can be formed (k can be at most the number of users)`,
      m.name,
    );
    // k equal to the users: one cluster of them all, released.
    const r = await m.anonymize({ records, format: "aol" }, m.parse({ k: 2 }), ctx());
    assert.ok(r.log!.records.length > 0, m.name);
    assert.deepEqual(r.guarantee, { model: "k-anonymity", k: 2 });
  }
});

test("mdav's default block follows k; a block given below 2k is refused", () => {
  assert.equal(mdavParams.parse({}).block, 1000);
  assert.equal(mdavParams.parse({ k: 100_000 }).block, 200_000);
  assert.equal(mdavParams.parse({ k: 100_000, block: 250_000 }).block, 250_000);
  assert.throws(
    () => mdavParams.parse({ k: 100_000, block: 1000 }),
    (e: unknown) =>
      e instanceof ParamError &&
      e.message === "mdav: parameter block: must be an integer ≥ 200000 (2k), got 1000",
  );
});

test("querymask anonymize --method mdav --k 100000 on a small log: one line naming the users, exit 2", () => {
  const dir = tempDir("querymask-mdav-k-");
  const log = join(dir, "log.tsv");
  writeFileSync(
    log,
    `AnonID\tQuery\tQueryTime\tItemRank\tClickURL\n${records.map((r) => `${r.user}\t${r.query}\t2006-03-01 07:33:28\t\t`).join("\n")}\n`,
  );
  const r = spawnSync(
    process.execPath,
    [
      "bin/querymask.js",
      "anonymize",
      "--method",
      "mdav",
      "--k",
      "100000",
      log,
      "-o",
      join(dir, "out.tsv"),
      "-q",
    ],
    { encoding: "utf8" },
  );
  assert.equal(r.status, 2, r.stderr);
  assert.equal(
    r.stderr,
    "querymask: mdav: k = 100,000 is more than the 2 users of the log: no cluster of k users can be formed (k can be at most the number of users)\n",
  );
});
