/**
 * `cluster run --method dp` on PostgreSQL, worker processes and all: with seeded noise the count table is
 * `anonymize --method dp`'s byte for byte and the summary shows the same; with the default cryptographic noise
 * the guarantee printed is the single machine's and the summary holds no exact data-dependent figure (those go to
 * the `*.PRIVATE.*` diagnostics file); a worker killed with -9 in the middle of the click-pair pass is restarted
 * and nothing is lost or counted twice; a selection the cluster cannot run is refused before any server starts.
 */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import pg from "pg";
import { adderOf } from "../../src/cluster/batch-shard.ts";
import { type ClusterConfig, freeLoopbackPort, pgUrl, serverArgs } from "../../src/cluster/servers.ts";
import { readCountTable } from "../../src/log/count-table.ts";
import { dp } from "../../src/methods/dp/index.ts";
import { tempDir } from "../helpers/tmp.ts";
import { childrenOf, exited, until } from "./procs.ts";
import { skip, testServers } from "./servers.ts";
import { assertSums, wholeLogSums } from "./whole-log.ts";

const CLI = join(import.meta.dirname, "../../src/cli/main.ts");
/** Parameters under which the generated log releases queries and click pairs with every summed strategy. */
const PARAMS = { selection: "weighted-gaussian", epsilon: 20, delta: 1e-3, d: 2 };
const FLAGS = ["--selection", "weighted-gaussian", "--epsilon", "20", "--delta", "1e-3", "--d", "2"];
let dir: string;
let logPath: string;
let cluster: ClusterConfig;
const servers = testServers((c) => {
  cluster = c;
  dir = tempDir("querymask-dp-cluster-");
  logPath = join(dir, "log.tsv");
  const r = cli(["generate", "--users", "500", "--seed", "4", "-q", "-o", logPath]);
  assert.equal(r.status, 0, r.stderr);
});

function cli(args: readonly string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ["--import", "tsx", CLI, ...args], { encoding: "utf8" });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function single(flags: readonly string[]): { bytes: string; summary: Record<string, unknown> } {
  const out = join(dir, `single-${flags.join("-")}.tsv`);
  const r = cli(["anonymize", "--method", "dp", ...flags, logPath, "-o", out, "--json", "-q"]);
  assert.equal(r.status, 0, r.stderr);
  return { bytes: readFileSync(out, "utf8"), summary: JSON.parse(r.stdout) as Record<string, unknown> };
}

function runArgs(flags: readonly string[], out: string, batchUsers: number): string[] {
  return [
    ...["--import", "tsx", CLI, "cluster", "run", ...serverArgs(servers()), "--method", "dp", ...flags],
    ...["--workers", "2", "--batch-users", String(batchUsers), logPath, "-o", out, "--json", "-q"],
  ];
}

/** The summary without what differs by command (the output path, the worker count). */
function published(summary: Record<string, unknown>): Record<string, unknown> {
  const { out: _o, workers: _w, ...rest } = summary;
  return rest;
}

test("cluster run --method dp (seeded noise): anonymize's count table byte for byte, and its summary", {
  skip,
  timeout: 240_000,
}, () => {
  const flags = [...FLAGS, "--noise", "seeded"];
  const want = single(flags);
  assert.match(want.bytes, /^click\t/m, "the table has click pairs to compare");
  const out = join(dir, "cluster-seeded.tsv");
  const r = spawnSync(process.execPath, [...runArgs(flags, out, 40), "--diagnostics"], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(readFileSync(out, "utf8"), want.bytes);
  assert.deepEqual(published(JSON.parse(r.stdout)), published(want.summary));
  const diagnostics = JSON.parse(readFileSync(`${out}.diagnostics.PRIVATE.json`, "utf8")) as Record<
    string,
    number
  >;
  assert.equal(diagnostics.passes, 2, "queries, then the click pairs of the released ones");
  assert.equal(diagnostics["worker restarts"], 0);
  assert.match(r.stderr, /exact figures written to .*diagnostics\.PRIVATE\.json/);
});

/** The default selection (targeted, in rounds) at parameters under which the generated log releases something. */
const DEFAULT_FLAGS = ["--epsilon", "20", "--delta", "1e-3", "--d", "2", "--noise", "seeded"];

test("cluster run --method dp, default selection (targeted, seeded noise): anonymize's table and summary, in 7 passes", {
  skip,
  timeout: 240_000,
}, () => {
  const want = single(DEFAULT_FLAGS);
  assert.match(want.bytes, /^query\t/m, "the table has queries to compare");
  const out = join(dir, "cluster-targeted.tsv");
  const r = spawnSync(process.execPath, [...runArgs(DEFAULT_FLAGS, out, 40), "--diagnostics"], {
    encoding: "utf8",
  });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(readFileSync(out, "utf8"), want.bytes);
  assert.deepEqual(published(JSON.parse(r.stdout)), published(want.summary));
  const diagnostics = JSON.parse(readFileSync(`${out}.diagnostics.PRIVATE.json`, "utf8")) as Record<
    string,
    number
  >;
  assert.equal(
    diagnostics.passes,
    7,
    "three rounds of queries, their counts with the pairs' first round, two more",
  );
});

test("cluster run --method dp (crypto noise): the guarantee is the single machine's; no exact figure is shown", {
  skip,
  timeout: 240_000,
}, async () => {
  const want = single(FLAGS);
  const out = join(dir, "cluster-crypto.tsv");
  const r = spawnSync(process.execPath, runArgs(FLAGS, out, 40), { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  const summary = JSON.parse(r.stdout) as Record<string, unknown>;
  assert.deepEqual(summary.guarantee, want.summary.guarantee);
  assert.match(JSON.stringify(summary.guarantee), /"epsilon":20/);
  // The same keys as anonymize's summary (plus the worker count), and every data-dependent one read off the table.
  assert.deepEqual(Object.keys(published(summary)).sort(), Object.keys(published(want.summary)).sort());
  const table = await readCountTable(out);
  assert.equal(summary["queries released"], table.queries.length);
  assert.equal(summary["click pairs released"], table.clicks.length);
  for (const k of Object.keys(summary)) {
    assert.doesNotMatch(k, /batch|restart|seconds|rejected|RSS|CPU|rows|users|scrub/i, k);
  }
  assert.doesNotMatch(r.stderr, /\d+ (rows|users|batches)/);
  // The written table and its summary pass the audit, as anonymize's release does.
  const claim = join(dir, "cluster-crypto.summary.json");
  writeFileSync(claim, r.stdout);
  const audited = cli([
    "audit",
    "-q",
    "--method",
    "dp",
    ...FLAGS,
    "--original",
    logPath,
    "--released",
    out,
    "--summary",
    claim,
  ]);
  assert.equal(audited.status, 0, audited.stdout + audited.stderr);
  assert.match(audited.stdout, /claimed guarantee\s+ok/);
});

test("cluster run --method dp: a selection the cluster cannot run exits 2 before any server", async () => {
  const own = tempDir("querymask-dp-refused-");
  const ports = ["--nats-port", "--nats-monitor-port", "--pg-port"];
  const nothing = [
    ["--dir", join(own, "servers")],
    ...(await Promise.all(ports.map(async (p) => [p, String(await freeLoopbackPort())]))),
  ].flat();
  for (const flags of [
    ["--selection", "greedy"],
    ["--selection", "korolova"],
  ]) {
    const out = join(own, "out.tsv");
    const r = cli(["cluster", "run", ...nothing, "--method", "dp", ...flags, logPath, "-o", out, "-q"]);
    assert.equal(r.status, 2, r.stderr);
    assert.match(
      r.stderr,
      /does not run on the cluster .*; the cluster runs dp with --selection .*\btargeted\b/,
    );
    assert.doesNotMatch(r.stderr, /^\S+:\d+:/m, "a usage error, not a file:line one");
    assert.equal(existsSync(out), false);
    assert.equal(existsSync(join(own, "servers")), false, "nothing made for the servers");
  }
  // A log not grouped by user is said at file:line before any worker starts (the workers read it by user).
  const split = join(own, "split.tsv");
  writeFileSync(
    split,
    "AnonID\tQuery\tQueryTime\tItemRank\tClickURL\n1\tfoo\t2006-03-01 00:00:00\t\t\n2\tbar\t2006-03-01 00:01:00\t\t\n1\tbaz\t2006-03-01 00:02:00\t\t\n",
  );
  const out = join(own, "split-out.tsv");
  const r = cli(["cluster", "run", ...nothing, "--method", "dp", ...FLAGS, split, "-o", out, "-q"]);
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, /split\.tsv:4: .*not grouped by user; cluster run reads a log by user/);
  assert.doesNotMatch(r.stderr, /ECONNREFUSED/);
  assert.equal(existsSync(out), false);
});

/** The run's live worker of `shard` in pass `pass` (1-based), by its command line. */
function workerOf(ppid: number, shard: number, pass: number): number | undefined {
  return childrenOf(ppid, (args) => {
    const at = args.indexOf("--shard");
    return args[at + 1] === String(shard) && args.some((a) => a.endsWith(`pass-${pass - 1}.json`));
  })[0];
}

/**
 * Run the cluster with shard 0's worker of pass `pass` killed with -9 mid-pass; the release must be anonymize's and
 * the restart counted once; `after` checks the run's sums in PostgreSQL.
 */
async function killedMidPass(
  flags: readonly string[],
  pass: number,
  name: string,
  after?: (db: pg.Client, out: string) => Promise<void>,
): Promise<void> {
  const want = single(flags);
  const out = join(dir, `${name}.tsv`);
  const run = spawn(process.execPath, [...runArgs(flags, out, 1), "--diagnostics"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  run.stderr?.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  run.stdout?.resume();
  const done = exited(run);
  const db = new pg.Client({ connectionString: pgUrl(cluster) });
  await db.connect();
  const holder = new pg.Client({ connectionString: pgUrl(cluster) });
  await holder.connect();
  try {
    // Hold shard 0 in the middle of the pass: an uncommitted row of one of its coming batches makes the worker's
    // insert of that batch wait, so it is killed mid-pass whatever the machine's speed.
    let worker: number | undefined;
    await until(
      () => {
        worker = workerOf(run.pid!, 0, pass);
        return worker !== undefined;
      },
      200_000,
      `pass ${pass}'s worker of shard 0`,
    );
    let held = -1;
    await until(
      async () => {
        const applied = await db.query<{ n: number }>(
          "SELECT coalesce(max(batch), -1)::int AS n FROM qm_batch_applied WHERE shard = 0",
        );
        const next = applied.rows[0]!.n + 3;
        await holder.query("BEGIN");
        try {
          await holder.query("INSERT INTO qm_batch_applied (shard, batch) VALUES (0, $1)", [next]);
          held = next;
          return true;
        } catch {
          await holder.query("ROLLBACK"); // the worker got there first: try a later batch
          return false;
        }
      },
      60_000,
      "a batch of shard 0 still to come",
    );
    await until(
      async () =>
        (
          await db.query<{ n: number }>(
            "SELECT coalesce(max(batch), -1)::int AS n FROM qm_batch_applied WHERE shard = 0",
          )
        ).rows[0]!.n ===
        held - 1,
      60_000,
      "shard 0 waiting at the held batch",
    );
    process.kill(worker!, "SIGKILL");
    await holder.query("ROLLBACK");
    assert.equal(await done, 0, stderr);
    assert.match(
      stderr,
      new RegExp(`batch-0-pass${pass} \\(pid \\d+\\) was killed by SIGKILL; restarting \\(1/5\\)`),
    );
    assert.equal(readFileSync(out, "utf8"), want.bytes, "the release is anonymize's");
    const diagnostics = JSON.parse(readFileSync(`${out}.diagnostics.PRIVATE.json`, "utf8")) as Record<
      string,
      number
    >;
    assert.equal(diagnostics["worker restarts"], 1);
    await after?.(db, out);
  } finally {
    await holder.end();
    await db.end();
  }
}

test("cluster run --method dp: a worker killed with -9 in the middle of the click-pair pass; nothing lost or counted twice", {
  skip,
  timeout: 300_000,
}, async () => {
  await killedMidPass([...FLAGS, "--noise", "seeded"], 2, "cluster-killed", async (db, out) => {
    // PostgreSQL's sums of pass 2 are the whole log's click-pair contributions computed in one process, each once.
    const table = await readCountTable(out);
    const released = table.queries.map((q) => q.query);
    const add = adderOf(dp.sharded!, dp.parse({ ...PARAMS, noise: "seeded" }), { released });
    await assertSums(db, await wholeLogSums(logPath, add, false));
  });
});

test("cluster run --method dp, default selection: a worker killed with -9 in a round read from its kept candidates", {
  skip,
  timeout: 300_000,
}, async () => {
  await killedMidPass(DEFAULT_FLAGS, 3, "cluster-killed-targeted");
});
