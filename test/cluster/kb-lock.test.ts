/**
 * The knowledge-base build lock: processes started at once run their loads one after another (never two at a
 * time), and a lock left by a process that died is taken over. Real processes, a stand-in load; no servers.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { isFresh, tryLock, withBuildLock } from "../../src/cluster/kb-lock.ts";
import { tempDir } from "../helpers/tmp.ts";

const LOCK = join(import.meta.dirname, "../../src/cluster/kb-lock.ts");

/** Start 3 processes at once, each loading under the lock of `snapshot`; the loads' "in"/"out" trace. */
async function tracedLoads(dir: string, snapshot: string): Promise<string[]> {
  const trace = join(dir, "trace");
  writeFileSync(trace, "");
  // Each process writes "<pid> in", waits, then "<pid> out" under the lock.
  const script = `
    import { appendFileSync } from "node:fs";
    const { withBuildLock } = await import(${JSON.stringify(LOCK)});
    await withBuildLock(async () => {
      appendFileSync(${JSON.stringify(trace)}, process.pid + " in\\n");
      await new Promise((r) => setTimeout(r, 600));
      appendFileSync(${JSON.stringify(trace)}, process.pid + " out\\n");
    }, ${JSON.stringify(snapshot)}, 20);
  `;
  const runs = Array.from({ length: 3 }, () =>
    spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { stdio: "inherit" }),
  );
  const codes = await Promise.all(runs.map((c) => new Promise((res) => c.once("exit", res))));
  assert.deepEqual(codes, [0, 0, 0]);
  return readFileSync(trace, "utf8").trim().split("\n");
}

function assertOneAtATime(lines: string[]): void {
  assert.equal(lines.length, 6);
  for (let i = 0; i < lines.length; i += 2) {
    const [pid, what] = lines[i]!.split(" ");
    assert.equal(what, "in");
    assert.equal(lines[i + 1], `${pid} out`, `a load started inside another: ${lines.join(" | ")}`);
  }
}

test("loads under the build lock never overlap across processes (snapshot missing)", async () => {
  const dir = tempDir("querymask-kb-lock-");
  assertOneAtATime(await tracedLoads(dir, join(dir, "kb", "knowledge-base.json")));
});

test("a stale snapshot takes the lock too: it is rebuilt once, not by every worker at once", async () => {
  const dir = tempDir("querymask-kb-lock-");
  const snapshot = join(dir, "knowledge-base.json");
  // Exists, but of another layout version: stale (as after a change to the knowledge base's inputs).
  writeFileSync(snapshot, JSON.stringify({ version: -1, fingerprint: "old" }));
  assert.equal(isFresh(snapshot), false);
  assertOneAtATime(await tracedLoads(dir, snapshot));
});

test("only a fresh snapshot is loaded without the lock", async () => {
  const dir = tempDir("querymask-kb-lock-");
  const snapshot = join(dir, "knowledge-base.json");
  writeFileSync(snapshot, "{}");
  writeFileSync(`${snapshot}.lock`, String(process.pid)); // held by a live process (this one)
  // Fresh: loads at once, past the held lock.
  assert.equal(
    await withBuildLock(
      async () => 1,
      snapshot,
      10,
      () => true,
    ),
    1,
  );
  // Not fresh: waits for the lock.
  const waiting = withBuildLock(
    async () => 2,
    snapshot,
    10,
    () => false,
  );
  const first = await Promise.race([waiting, new Promise((r) => setTimeout(() => r("waited"), 200))]);
  assert.equal(first, "waited");
  rmSync(`${snapshot}.lock`);
  assert.equal(await waiting, 2);
});

test("a lock whose holder died is taken over; the lock is gone after the load", async () => {
  const dir = tempDir("querymask-kb-lock-");
  const snapshot = join(dir, "knowledge-base.json");
  const dead = spawn(process.execPath, ["-e", "0"]);
  await new Promise((res) => dead.once("exit", res));
  writeFileSync(`${snapshot}.lock`, String(dead.pid));
  assert.equal(await withBuildLock(async () => 42, snapshot, 10), 42);
  assert.throws(() => readFileSync(`${snapshot}.lock`), /ENOENT/);
});

test("taking over a dead holder's lock never removes the lock another process took meanwhile", async () => {
  const dir = tempDir("querymask-kb-lock-");
  const lock = join(dir, "knowledge-base.json.lock");
  const dead = spawn(process.execPath, ["-e", "0"]);
  await new Promise((res) => dead.once("exit", res));
  writeFileSync(lock, String(dead.pid));
  // This process saw the dead holder; before it acts, another process takes over and locks (a live pid: ours).
  const other = process.pid;
  const took = tryLock(lock, () => {
    rmSync(lock);
    writeFileSync(lock, String(other));
  });
  assert.equal(took, false);
  assert.equal(readFileSync(lock, "utf8"), String(other), "the other process's lock is still there");
  assert.throws(() => readFileSync(`${lock}.takeover`), /ENOENT/);
  // Without the interleaving, the dead holder's lock is removed and the next try takes it.
  writeFileSync(lock, String(dead.pid));
  assert.equal(tryLock(lock), false);
  assert.throws(() => readFileSync(lock), /ENOENT/);
  assert.equal(tryLock(lock), true);
  assert.equal(readFileSync(lock, "utf8"), String(process.pid));
});
