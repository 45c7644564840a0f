/**
 * `cluster run --method km` on PostgreSQL: the workers add their users' histories, the coordinator runs the greedy
 * and the rescans as later passes, the workers write the release. The release is `anonymize`'s byte for byte, with
 * the same counts; a worker killed with SIGKILL in the first pass, in a rescan or while writing its part is started
 * again and skips what it applied, so nothing is lost or counted twice (the record and event tallies are summed
 * from the first pass: a batch applied twice would show in them).
 */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import pg from "pg";
import { type ClusterConfig, pgUrl, serverArgs } from "../../src/cluster/servers.ts";
import { tempDir } from "../helpers/tmp.ts";
import { childrenOf, exited, until } from "./procs.ts";
import { skip, testServers } from "./servers.ts";

const CLI = join(import.meta.dirname, "../../src/cli/main.ts");
const FLAGS = ["--k", "5", "--m", "2"];
let dir: string;
let logPath: string;
let cluster: ClusterConfig;
let want: { bytes: string; summary: Record<string, unknown> };

function cli(args: readonly string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ["--import", "tsx", CLI, ...args], { encoding: "utf8" });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const servers = testServers((c) => {
  cluster = c;
  dir = tempDir("querymask-km-cluster-");
  logPath = join(dir, "log.tsv");
  const g = cli(["generate", "--users", "600", "--seed", "12", "-q", "-o", logPath]);
  assert.equal(g.status, 0, g.stderr);
  const out = join(dir, "single.tsv");
  const r = cli(["anonymize", "--method", "km", ...FLAGS, logPath, "-o", out, "--json", "-q"]);
  assert.equal(r.status, 0, r.stderr);
  want = { bytes: readFileSync(out, "utf8"), summary: JSON.parse(r.stdout) as Record<string, unknown> };
});

function runArgs(out: string): string[] {
  return [
    "--import",
    "tsx",
    CLI,
    "cluster",
    "run",
    ...serverArgs(servers()),
    "--method",
    "km",
    ...FLAGS,
    "--workers",
    "2",
    "--batch-users",
    "5",
    logPath,
    "-o",
    out,
    "--json",
    "-q",
  ];
}

/** The counts a run's summary shares with `anonymize`'s (the method's own and the scrubber's). */
function sameCounts(run: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(want.summary)) {
    if (["method", "params", "seed", "out", "seconds", "rejected", "guarantee"].includes(k)) continue;
    if (k in run) assert.deepEqual(run[k], v, k);
    else if (!k.startsWith("rows with") && !k.startsWith("clicks dropped"))
      assert.fail(`${k} missing from the run's summary`);
  }
}

test("cluster run --method km: two workers, the release is anonymize's byte for byte", {
  skip,
  timeout: 240_000,
}, async () => {
  const out = join(dir, "cluster.tsv");
  const r = spawnSync(process.execPath, runArgs(out), { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(readFileSync(out, "utf8"), want.bytes);
  const summary = JSON.parse(r.stdout) as Record<string, unknown>;
  assert.equal(summary["worker restarts"], 0);
  sameCounts(summary);
  // The greedy suppressed terms and the first rescan ran as a pass of its own.
  assert.ok((summary["terms suppressed"] as number) > 0);
  assert.ok((summary.passes as number) >= 2, `passes ${summary.passes}`);
});

/** A run in the background, its output kept. */
function background(out: string) {
  const run = spawn(process.execPath, runArgs(out), { stdio: ["ignore", "pipe", "pipe"] });
  const io = { stdout: "", stderr: "" };
  run.stdout?.on("data", (d: Buffer) => {
    io.stdout += d.toString();
  });
  run.stderr?.on("data", (d: Buffer) => {
    io.stderr += d.toString();
  });
  return { run, io, done: exited(run) };
}

/** Kill shard 0's worker of the pass whose config ends with `config` once it applied some batches of it. */
async function killMidPass(db: pg.Client, ppid: number, config: string): Promise<void> {
  let worker: number[] = [];
  await until(
    async () => {
      worker = childrenOf(ppid, (a) => a.some((x) => x.endsWith(config)) && a.includes("0"));
      if (worker.length !== 1) return false;
      const n = async (sql: string) =>
        (await db.query(sql).catch(() => ({ rows: [{ n: 0 }] }))).rows[0]!.n as number;
      const applied = await n("SELECT count(*)::int AS n FROM qm_batch_applied WHERE shard = 0");
      const ended = await n("SELECT count(*)::int AS n FROM qm_batch_shard WHERE shard = 0");
      return applied >= 2 && ended === 0;
    },
    150_000,
    `shard 0 in the middle of the batches of ${config}`,
  );
  process.kill(worker[0]!, "SIGKILL");
}

test("cluster run --method km: a worker killed with -9 in the first pass and one in a rescan are restarted; the release is anonymize's", {
  skip,
  timeout: 300_000,
}, async () => {
  const out = join(dir, "cluster-killed.tsv");
  const { run, io, done } = background(out);
  const db = new pg.Client({ connectionString: pgUrl(cluster) });
  await db.connect();
  try {
    await killMidPass(db, run.pid!, "pass-0.json");
    await killMidPass(db, run.pid!, "pass-1-shard0.json");
    assert.equal(await done, 0, io.stderr);
    assert.match(io.stderr, /batch-0 \(pid \d+\) was killed by SIGKILL; restarting \(1\/5\)/);
    assert.match(io.stderr, /batch-0-pass2 \(pid \d+\) was killed by SIGKILL; restarting \(1\/5\)/);
    assert.equal(readFileSync(out, "utf8"), want.bytes, "the release is anonymize's");
    const summary = JSON.parse(io.stdout) as Record<string, unknown>;
    assert.equal(summary["worker restarts"], 2);
    sameCounts(summary);
  } finally {
    await db.end();
  }
});

test("cluster run --method km: a worker killed with -9 while writing its part of the release is restarted; the release is anonymize's", {
  skip,
  timeout: 240_000,
}, async () => {
  const out = join(dir, "cluster-killed-release.tsv");
  const { run, io, done } = background(out);
  // Shard 0's release worker (its own cut of the decision), once its part is open and not yet moved into place.
  const partOpen = () =>
    readdirSync(dir)
      .filter((d) => d.startsWith(".querymask-cluster-run-"))
      .some((d) => readdirSync(join(dir, d)).some((f) => f.startsWith(".release-0-0.part.")));
  let worker: number[] = [];
  await until(
    () => {
      worker = childrenOf(
        run.pid!,
        (a) => a.some((x) => x.endsWith("release-0-shard0.json")) && a.includes("0"),
      );
      return worker.length === 1 && partOpen();
    },
    150_000,
    "shard 0 writing its part of the release",
  );
  process.kill(worker[0]!, "SIGKILL");
  assert.equal(await done, 0, io.stderr);
  assert.match(io.stderr, /batch-0-release \(pid \d+\) was killed by SIGKILL; restarting \(1\/5\)/);
  assert.equal(readFileSync(out, "utf8"), want.bytes);
  const summary = JSON.parse(io.stdout) as Record<string, unknown>;
  assert.equal(summary["worker restarts"], 1);
  sameCounts(summary);
});
