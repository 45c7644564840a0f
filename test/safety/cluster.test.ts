/**
 * `cluster run` ends, and ends cleanly: a bad parameter or a method without a stream stage exits 2 before any
 * worker starts (it used to print the error and hang); SIGTERM stops its workers before it goes (none is left
 * re-parented to init); a log not in time order is sorted as anonymize sorts it, and with one partition the release
 * is byte for byte `anonymize --method swap` with the same seed, as it is for a log in time order (which each reads
 * its own way: anonymize by copying raw rows, the cluster as records); --lenient counts what it set aside.
 */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { serverArgs as clusterServerArgs } from "../../src/cluster/servers.ts";
import { Rng } from "../../src/util/random.ts";
import { skip, testServers } from "../cluster/servers.ts";
import { tempDir } from "../helpers/tmp.ts";

const dir = tempDir("querymask-cluster-safety-");
const cluster = testServers();
const serverArgs = () => clusterServerArgs(cluster());
const cli = (...args: string[]) =>
  spawnSync(process.execPath, ["bin/querymask.js", ...args], { encoding: "utf8", timeout: 120_000 });

/**
 * A generated log (by user, so not in time order) with its rows shuffled once more, the same rows in time order,
 * and one bad line.
 */
function inputs(): { log: string; ordered: string; bad: string } {
  const log = join(dir, "log.tsv");
  const ordered = join(dir, "ordered.tsv");
  if (!existsSync(log)) {
    const g = cli("generate", "--users", "150", "--seed", "5", "-q", "-o", log);
    assert.equal(g.status, 0, g.stderr);
    const [head, ...rows] = readFileSync(log, "utf8").trimEnd().split("\n");
    const rng = Rng.fromSeed(3);
    for (let i = rows.length - 1; i > 0; i--) {
      const j = rng.int(i + 1);
      [rows[i], rows[j]] = [rows[j]!, rows[i]!];
    }
    writeFileSync(log, `${head}\n${rows.join("\n")}\n`);
    writeFileSync(join(dir, "bad.tsv"), `${head}\n${rows.slice(0, 300).join("\n")}\n7\tx\tnot a time\t\t\n`);
    // QueryTime is the third field, YYYY-MM-DD HH:MM:SS: its text sorts as its time.
    const time = (row: string) => row.split("\t")[2]!;
    const byTime = [...rows].sort((a, b) => (time(a) < time(b) ? -1 : time(a) > time(b) ? 1 : 0));
    writeFileSync(ordered, `${head}\n${byTime.join("\n")}\n`);
  }
  return { log, ordered, bad: join(dir, "bad.tsv") };
}

test("a bad parameter or a method without a stream stage: exit 2 at once, no worker started", {
  skip,
}, () => {
  const { log } = inputs();
  for (const args of [
    ["--params", '{"k":1}'],
    ["-m", "mdav"],
  ]) {
    const t0 = Date.now();
    const r = cli("cluster", "run", log, "-o", join(dir, "never.tsv"), "-q", ...args, ...serverArgs());
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /^querymask: .*(must be an integer ≥ 2|no streaming stage)/);
    assert.doesNotMatch(r.stderr, /\n\s+at |cluster: /);
    assert.ok(Date.now() - t0 < 30_000);
  }
  assert.equal(existsSync(join(dir, "never.tsv")), false);
});

test("out of time order, one partition: sorted on the way, and the release is anonymize's, byte for byte", {
  skip,
}, () => {
  const { log } = inputs();
  const viaCluster = join(dir, "cluster.tsv");
  const r = cli("cluster", "run", log, "-o", viaCluster, "--partitions", "1", "--seed", "7", ...serverArgs());
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /not in time order; sorting it by time/);
  const viaAnonymize = join(dir, "anonymize.tsv");
  const a = cli("anonymize", "--method", "swap", "--seed", "7", "-q", log, "-o", viaAnonymize);
  assert.equal(a.status, 0, a.stderr);
  const released = readFileSync(viaCluster, "utf8");
  assert.ok(released.split("\n").length > 5000);
  assert.equal(released, readFileSync(viaAnonymize, "utf8"));
});

test("in time order, one partition: the release is anonymize's, byte for byte", { skip }, () => {
  const { ordered } = inputs();
  const viaCluster = join(dir, "cluster-ordered.tsv");
  const r = cli(
    "cluster",
    "run",
    ordered,
    "-o",
    viaCluster,
    "--partitions",
    "1",
    "--seed",
    "7",
    ...serverArgs(),
  );
  assert.equal(r.status, 0, r.stderr);
  assert.doesNotMatch(r.stderr, /not in time order/);
  const viaAnonymize = join(dir, "anonymize-ordered.tsv");
  const a = cli("anonymize", "--method", "swap", "--seed", "7", ordered, "-o", viaAnonymize);
  assert.equal(a.status, 0, a.stderr);
  assert.doesNotMatch(a.stderr, /not in time order/);
  const released = readFileSync(viaCluster, "utf8");
  assert.ok(released.split("\n").length > 5000);
  assert.equal(released, readFileSync(viaAnonymize, "utf8"));
  // Another seed is another release: the comparison sees the random stream.
  const other = join(dir, "anonymize-ordered-8.tsv");
  assert.equal(cli("anonymize", "--method", "swap", "--seed", "8", "-q", ordered, "-o", other).status, 0);
  assert.notEqual(readFileSync(other, "utf8"), released);
});

test("--lenient prints how many lines it set aside", { skip }, () => {
  const { bad } = inputs();
  const r = cli("cluster", "run", bad, "-o", join(dir, "lenient.tsv"), "--lenient", "-q", ...serverArgs());
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /1 bad lines set aside in .*lenient\.tsv\.rejects\.PRIVATE\.tsv/);
});

/** The pids whose parent is `pid` (Linux /proc). */
function children(pid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid) out.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

test("SIGTERM to cluster run stops its workers before it exits", { skip, timeout: 120_000 }, async () => {
  const { log } = inputs();
  const run = spawn(
    process.execPath,
    ["bin/querymask.js", "cluster", "run", log, "-o", join(dir, "stopped.tsv"), "-q", ...serverArgs()],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  run.stderr!.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  const exited = new Promise<NodeJS.Signals | number | null>((r) => run.on("exit", (c, s) => r(s ?? c)));
  // bin/querymask.js → the CLI's node process (tsx runs in the same process) → the workers.
  let workers: number[] = [];
  for (let i = 0; i < 600 && workers.length < 3; i++) {
    await new Promise((r) => setTimeout(r, 100));
    workers = children(run.pid!);
  }
  assert.ok(workers.length >= 3, `workers started: ${workers.length}; ${stderr}`);
  run.kill("SIGTERM");
  assert.equal(await exited, 143, stderr);
  assert.match(stderr, /SIGTERM: stopping the workers/);
  assert.deepEqual(workers.filter(alive), [], "no worker outlives the run");
});
