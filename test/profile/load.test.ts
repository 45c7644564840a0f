import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { SqliteProfileStore } from "../../src/profile/sqlite-store.ts";
import { tempDir } from "../helpers/tmp.ts";

const HEADER = "AnonID\tQuery\tQueryTime\tItemRank\tClickURL\tCategory\tUnit\n";
const LOG =
  HEADER +
  "1\tstock quotes\t2006-03-01 07:00:00\t\t\tTop/Business/Investing\tstock\n" +
  "1\tnasdaq\t2006-03-01 07:05:00\t\t\tTop/Business/Investing\tnasdaq\n" +
  "2\tsoccer\t2006-03-01 08:00:00\t\t\tTop/Sports/Soccer\tsoccer\n";

const cli = (...args: string[]) =>
  spawnSync(process.execPath, ["bin/querymask.js", "profile", ...args], { encoding: "utf8" });

function businessOf(db: string): number | undefined {
  const store = new SqliteProfileStore(db);
  try {
    return store.profile("1").find((c) => c.category === "Top/Business")?.count;
  } finally {
    store.close();
  }
}

test("profile refuses to load a log the database already holds (any path), and --append counts it again", () => {
  const dir = tempDir();
  const log = join(dir, "released.tsv");
  writeFileSync(log, LOG);
  const db = join(dir, "p.sqlite");
  const first = cli(log, "--db", db);
  assert.equal(first.status, 0, first.stderr);
  // The reader counts the rows; the command used to tick them again (6 for 3 rows).
  assert.match(first.stderr, /profiling: 3 done/);
  assert.equal(businessOf(db), 2);

  const again = cli("-q", log, "--db", db);
  assert.equal(again.status, 2);
  assert.match(again.stderr, /already holds .*released\.tsv.*--append/);
  assert.equal(businessOf(db), 2);

  const copy = join(dir, "copy.tsv");
  copyFileSync(log, copy);
  assert.equal(cli("-q", copy, "--db", db).status, 2);
  assert.equal(cli("-q", log, log, "--db", join(dir, "fresh.sqlite")).status, 2);

  const appended = cli("-q", copy, "--db", db, "--append");
  assert.equal(appended.status, 0, appended.stderr);
  assert.equal(businessOf(db), 4);
});

test("a load that fails leaves the store as it was (counts, users and the load record)", async () => {
  const db = join(tempDir(), "p.sqlite");
  const store = new SqliteProfileStore(db);
  const input = { file: "a.tsv", bytes: 10, sha256: "aa" };
  await store.load([input], async () => {
    store.add([{ user: "u1", category: "Top/Arts", count: 3 }]);
  });
  const before = store.rows();
  await assert.rejects(
    store.load([{ file: "b.tsv", bytes: 10, sha256: "bb" }], async () => {
      store.add([{ user: "u1", category: "Top/Arts", count: 5 }]);
      store.add([{ user: "u2", category: "Top/Sports", count: 1 }]);
      await new Promise((r) => setTimeout(r, 1));
      throw new Error("killed");
    }),
    /killed/,
  );
  assert.deepEqual(store.rows(), before);
  assert.deepEqual(store.loads("bb"), []);
  assert.equal(store.loads("aa").length, 1);
  // Ids handed out in the rolled-back load are free again: a new user still gets a row.
  store.add([{ user: "u3", category: "Top/Health", count: 2 }]);
  assert.deepEqual(store.profile("u3")[0]?.count, 2);
  store.close();
});
