/**
 * kill -9 in the middle of a run: the output is absent or the previous complete file, the next run leaves no
 * temp file behind, and a profile database is unchanged or complete. Logs are generated (`querymask generate`),
 * large enough that each run is killed while it is writing (anonymize, classify: once its temp file has bytes;
 * profile: once it has had the log open for reading for a while — Linux's /proc tells).
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { readdirSync, readFileSync, readlinkSync, statSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { test } from "node:test";
import { fingerprint } from "../../src/profile/fingerprint.ts";
import { SqliteProfileStore } from "../../src/profile/sqlite-store.ts";
import { tempDir } from "../helpers/tmp.ts";

const dir = tempDir();
const big = join(dir, "big.tsv");
const small = join(dir, "small.tsv");
/** A small classified log (so that profiling it needs no classifier). */
const PREVIOUS =
  "AnonID\tQuery\tQueryTime\tItemRank\tClickURL\tCategory\tUnit\n" +
  "9\tprevious release\t2006-03-01 00:00:00\t\t\tTop/News\trelease\n";

const cli = (...args: string[]) =>
  spawnSync(process.execPath, ["bin/querymask.js", ...args], { encoding: "utf8" });

test.before(() => {
  const g = cli("generate", "--rows", "150000", "--seed", "11", "-q", "-o", big);
  assert.equal(g.status, 0, g.stderr);
  writeFileSync(small, PREVIOUS);
});

function temps(out: string): string[] {
  return readdirSync(dir).filter((n) => n.startsWith(`.${basename(out)}.`) && n.endsWith(".tmp"));
}

/** Start a run, wait until `ready(pid)` holds, kill -9 it; fails if the run ended on its own first. */
async function killWhen(args: string[], ready: (pid: number) => boolean): Promise<void> {
  const child: ChildProcess = spawn(process.execPath, ["bin/querymask.js", ...args], { stdio: "ignore" });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.on("exit", (code, signal) => resolve(signal ?? code)),
  );
  let done = false;
  void exited.then(() => {
    done = true;
  });
  while (!done && !ready(child.pid!)) await new Promise((r) => setTimeout(r, 10));
  assert.equal(done, false, `the run ended before it could be killed: ${args.join(" ")}`);
  process.kill(child.pid!, "SIGKILL");
  assert.equal(await exited, "SIGKILL");
}

/**
 * True once the run has a temp file with bytes in it beside `out`. A temp file may go between the listing and the
 * look at its size: `anonymize --method swap` on an unclassified log opens its writer, finds the log needs
 * classifying first, and aborts that writer (its temp file removed) before it opens the next.
 */
const writing = (out: string) => (pid: number) =>
  temps(out).some(
    (n) => n.includes(`.${pid}.`) && (statSync(join(dir, n), { throwIfNoEntry: false })?.size ?? 0) > 0,
  );

for (const command of ["anonymize", "classify"] as const) {
  test(`${command} killed mid-write leaves the previous output, and the next run removes its temp file`, async () => {
    const out = join(dir, `${command}.tsv`);
    writeFileSync(out, PREVIOUS);
    const args = command === "anonymize" ? ["anonymize", "--method", "swap"] : ["classify"];
    await killWhen([...args, "-q", big, "-o", out], writing(out));
    assert.equal(readFileSync(out, "utf8"), PREVIOUS);
    assert.equal(temps(out).length, 1, "kill -9 cannot clean up: the temp file is still there");
    const next = cli("anonymize", "--method", "identity", "-q", small, "-o", out);
    assert.equal(next.status, 0, next.stderr);
    assert.deepEqual(temps(out), []);
    assert.equal(readFileSync(out, "utf8"), PREVIOUS);
  });
}

test("anonymize --method swap killed while it classifies leaves raw rows in its folder; the next run removes it", async () => {
  const out = join(dir, "swap-folders.tsv");
  // The folders swap fills beside its output (the classified copy, the sorted runs): they hold the log's rows.
  const folders = () => readdirSync(dir).filter((n) => /^\.querymask-(classify|sort)-\d+-/.test(n));
  const filled = (pid: number) =>
    folders().some(
      (n) =>
        n.includes(`-${pid}-`) &&
        readdirSync(join(dir, n), { withFileTypes: true }).some(
          (f) => f.isFile() && (statSync(join(dir, n, f.name), { throwIfNoEntry: false })?.size ?? 0) > 0,
        ),
    );
  await killWhen(["anonymize", "--method", "swap", "-q", big, "-o", out], (pid) => {
    try {
      return filled(pid);
    } catch {
      return false; // a folder removed between the listing and the look inside it
    }
  });
  assert.ok(folders().length > 0, "kill -9 cannot clean up: the folder is still there");
  const next = cli("anonymize", "--method", "identity", "-q", small, "-o", out);
  assert.equal(next.status, 0, next.stderr);
  assert.deepEqual(folders(), [], "the next run beside it removed the dead run's folder");
});

test("profile killed mid-load leaves the database as it was, with no record of the log", async () => {
  const db = join(dir, "profiles.sqlite");
  const first = cli("profile", "-q", small, "--db", db);
  assert.equal(first.status, 0, first.stderr);
  const rows = (): unknown[] => {
    const s = new SqliteProfileStore(db);
    try {
      return s.rows();
    } finally {
      s.close();
    }
  };
  const before = rows();
  assert.equal(before.length, 1);
  // Mid-load: the run has the log open (hashing or reading it) and has been at it for a moment; a faster machine
  // or classifier must not let it finish first.
  let openedAt = 0;
  await killWhen(["profile", "-q", big, "--db", db], (pid) => {
    if (openedAt === 0 && openFiles(pid).filter((f) => f === big).length > 0) openedAt = Date.now();
    return openedAt > 0 && Date.now() - openedAt > 200;
  });
  const store = new SqliteProfileStore(db);
  try {
    assert.deepEqual(store.rows(), before);
    // Not recorded as loaded: running the same command again loads it (once) instead of refusing.
    assert.deepEqual(store.loads((await fingerprint(big)).sha256), []);
  } finally {
    store.close();
  }
});

function openFiles(pid: number): string[] {
  try {
    return readdirSync(`/proc/${pid}/fd`).map((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        return "";
      }
    });
  } catch {
    return [];
  }
}
