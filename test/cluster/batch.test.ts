/**
 * `cluster run` of the batch methods on PostgreSQL: users sharded across worker processes, the shards' partial
 * aggregates summed in PostgreSQL, one coordinator deciding and writing. The release is `anonymize`'s byte for
 * byte; a worker killed with SIGKILL mid-run is restarted and skips the batches it applied, so the sums in
 * PostgreSQL are those of the whole log computed in one process (nothing lost, nothing counted twice).
 */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import pg from "pg";
import { adderOf } from "../../src/cluster/batch-shard.ts";
import { type ClusterConfig, freeLoopbackPort, pgUrl, serverArgs } from "../../src/cluster/servers.ts";
import { graph } from "../../src/methods/graph/index.ts";
import { tempDir } from "../helpers/tmp.ts";
import { childrenOf, exited, until } from "./procs.ts";
import { skip, testServers } from "./servers.ts";
import { assertSums, wholeLogSums } from "./whole-log.ts";

const CLI = join(import.meta.dirname, "../../src/cli/main.ts");
let dir: string;
let logPath: string;
let cluster: ClusterConfig;
const servers = testServers((c) => {
  cluster = c;
  dir = tempDir("querymask-batch-cluster-");
  logPath = join(dir, "log.tsv");
  const r = spawnSync(
    process.execPath,
    ["--import", "tsx", CLI, "generate", "--users", "600", "--seed", "12", "-q", "-o", logPath],
    {
      encoding: "utf8",
    },
  );
  assert.equal(r.status, 0, r.stderr);
});

function cli(args: readonly string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ["--import", "tsx", CLI, ...args], { encoding: "utf8" });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The single machine's release of `method` and its summary counts. */
function single(
  method: string,
  flags: readonly string[],
): { bytes: string; summary: Record<string, unknown> } {
  const out = join(dir, `single-${method}.tsv`);
  const r = cli(["anonymize", "--method", method, ...flags, logPath, "-o", out, "--json", "-q"]);
  assert.equal(r.status, 0, r.stderr);
  return { bytes: readFileSync(out, "utf8"), summary: JSON.parse(r.stdout) as Record<string, unknown> };
}

function runArgs(method: string, params: object, out: string, batchUsers: number): string[] {
  return [
    "--import",
    "tsx",
    CLI,
    "cluster",
    "run",
    ...serverArgs(servers()),
    "--method",
    method,
    "--params",
    JSON.stringify(params),
    "--workers",
    "2",
    "--batch-users",
    String(batchUsers),
    logPath,
    "-o",
    out,
    "--json",
    "-q",
  ];
}

/** The counts a run's summary shares with `anonymize`'s (the method's own and the scrubber's rows read). */
function sameCounts(run: Record<string, unknown>, one: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(one)) {
    if (["method", "params", "seed", "out", "seconds", "rejected", "guarantee"].includes(k)) continue;
    if (k in run) assert.deepEqual(run[k], v, k);
    else if (!k.startsWith("rows with") && !k.startsWith("clicks dropped"))
      assert.fail(`${k} missing from the run's summary`);
  }
}

test("cluster run of a batch method: a bad parameter exits 2 before any server is reached", async () => {
  // Ports nothing listens on: a run that reached for PostgreSQL would fail to connect (exit 1), not exit 2.
  const own = tempDir("querymask-batch-params-");
  const log = join(own, "log.tsv");
  writeFileSync(log, "AnonID\tQuery\tQueryTime\tItemRank\tClickURL\n1\tfoo\t2006-03-01 00:00:00\t\t\n");
  const ports = ["--nats-port", "--nats-monitor-port", "--pg-port"];
  const servers = [
    ["--dir", join(own, "servers")],
    ...(await Promise.all(ports.map(async (p) => [p, String(await freeLoopbackPort())]))),
  ].flat();
  for (const [method, flags, reason] of [
    ["threshold", ["--k", "1"], /threshold: parameter k: must be an integer ≥ 2, got 1/],
    ["graph", ["--variant", "4"], /graph: parameter variant: must be in \[1, 3\], got 4/],
    ["graph", ["--params", '{"k":-1}'], /graph: parameter k: must be an integer ≥ 0, got -1/],
  ] as const) {
    const out = join(own, "out.tsv");
    const r = cli(["cluster", "run", ...servers, "--method", method, ...flags, log, "-o", out, "-q"]);
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, reason);
    assert.doesNotMatch(r.stderr, /ECONNREFUSED|checking the input/);
    assert.equal(existsSync(out), false);
    assert.equal(existsSync(join(own, "servers")), false, "nothing made for the servers");
  }
});

test("cluster run --method threshold: two workers, the release is anonymize's byte for byte", {
  skip,
  timeout: 180_000,
}, async () => {
  const want = single("threshold", ["--k", "3"]);
  const out = join(dir, "cluster-threshold.tsv");
  const r = spawnSync(process.execPath, runArgs("threshold", { k: 3 }, out, 50), { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(readFileSync(out, "utf8"), want.bytes);
  const summary = JSON.parse(r.stdout) as Record<string, unknown>;
  assert.equal(summary["worker restarts"], 0);
  sameCounts(summary, want.summary);
  // The written release passes the audit: every released query was typed by ≥ k distinct users of the input.
  const audited = cli([
    "audit",
    "-q",
    "--method",
    "threshold",
    "--k",
    "3",
    "--original",
    logPath,
    "--released",
    out,
  ]);
  assert.equal(audited.status, 0, audited.stdout + audited.stderr);
  assert.match(audited.stdout, /≥ k users per query\s+ok/);
});

test("cluster run --method graph: a worker killed with -9 mid-run is restarted; nothing lost, nothing counted twice", {
  skip,
  timeout: 240_000,
}, async () => {
  const want = single("graph", []);
  const out = join(dir, "cluster-graph.tsv");
  const run = spawn(process.execPath, runArgs("graph", {}, out, 10), { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  run.stdout?.on("data", (d: Buffer) => {
    stdout += d.toString();
  });
  run.stderr?.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  const done = exited(run);
  const db = new pg.Client({ connectionString: pgUrl(cluster) });
  await db.connect();
  try {
    // Shard 0 has applied some of its batches and not finished.
    let worker: number[] = [];
    await until(
      async () => {
        worker = childrenOf(run.pid!, ["batch", "0"]);
        if (worker.length !== 1) return false;
        const applied = await db
          .query("SELECT count(*)::int AS n FROM qm_batch_applied WHERE shard = 0")
          .catch(() => ({ rows: [{ n: 0 }] }));
        const ended = await db
          .query("SELECT count(*)::int AS n FROM qm_batch_shard WHERE shard = 0")
          .catch(() => ({ rows: [{ n: 0 }] }));
        return applied.rows[0]!.n >= 2 && ended.rows[0]!.n === 0;
      },
      150_000,
      "shard 0 in the middle of its batches",
    );
    process.kill(worker[0]!, "SIGKILL");
    assert.equal(await done, 0, stderr);
    assert.match(stderr, /batch-0 \(pid \d+\) was killed by SIGKILL; restarting \(1\/5\)/);
    assert.equal(readFileSync(out, "utf8"), want.bytes, "the release is anonymize's");
    const summary = JSON.parse(stdout) as Record<string, unknown>;
    assert.equal(summary["worker restarts"], 1);
    sameCounts(summary, want.summary);
    // The sums in PostgreSQL are the whole log's partial aggregate, each row once.
    await assertSums(db, await wholeLogSums(logPath, adderOf(graph.sharded!, graph.parse({})), true));
  } finally {
    await db.end();
  }
});

test("cluster run --method threshold: a worker killed with -9 while writing its part of the release is restarted; the release is anonymize's", {
  skip,
  timeout: 240_000,
}, async () => {
  const want = single("threshold", ["--k", "3"]);
  const out = join(dir, "cluster-threshold-killed.tsv");
  const run = spawn(process.execPath, runArgs("threshold", { k: 3 }, out, 50), {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  run.stdout?.on("data", (d: Buffer) => {
    stdout += d.toString();
  });
  run.stderr?.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  const done = exited(run);
  // Shard 0's release-pass worker, once its part is open (a temporary file, not yet moved into place).
  const partOpen = () =>
    readdirSync(dir)
      .filter((d) => d.startsWith(".querymask-cluster-run-"))
      .some((d) => readdirSync(join(dir, d)).some((f) => f.startsWith(".release-0-0.part.")));
  let worker: number[] = [];
  await until(
    () => {
      worker = childrenOf(run.pid!, (a) => a.some((x) => x.endsWith("release-0.json")) && a.includes("0"));
      return worker.length === 1 && partOpen();
    },
    150_000,
    "shard 0 writing its part of the release",
  );
  process.kill(worker[0]!, "SIGKILL");
  assert.equal(await done, 0, stderr);
  assert.match(stderr, /batch-0-release \(pid \d+\) was killed by SIGKILL; restarting \(1\/5\)/);
  assert.equal(readFileSync(out, "utf8"), want.bytes);
  const summary = JSON.parse(stdout) as Record<string, unknown>;
  assert.equal(summary["worker restarts"], 1);
  sameCounts(summary, want.summary);
});
