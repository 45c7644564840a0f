/**
 * `querymask cluster up|down|status|run|worker`: the distributed deployment on NATS JetStream and PostgreSQL.
 * `up` installs what is missing (as root) and starts both servers on loopback on the project's own ports with
 * their data under `.cache/cluster/`; `run` sends a log through ingest → classify → anonymize → profile with
 * worker processes and writes the released log; `worker` runs one worker (for a supervisor, or by hand).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { dirname, resolve } from "node:path";
import type { Command } from "commander";
import type { Bus } from "../../cluster/bus.ts";
import { checkConfig, writeConfig } from "../../cluster/config.ts";
import type { IngestResult } from "../../cluster/ingest.ts";
import {
  type ClusterConfig,
  clusterConfig,
  clusterDown,
  clusterStatus,
  clusterUp,
  natsUrl,
  pgUrl,
  serverArgs,
} from "../../cluster/servers.ts";
import { Supervisor } from "../../cluster/supervisor.ts";
import { writeFileAtomic } from "../../log/atomic.ts";
import { describeGuarantee } from "../../log/guarantee.ts";
import { openLog } from "../../log/read.ts";
import type { LogRecord } from "../../log/record.ts";
import { writeBatches } from "../../log/write.ts";
import { clusterMethod, clusterMethods, loadMethod } from "../../methods/registry.ts";
import { scrubCounts } from "../../pipeline/release.ts";
import { diagnosticsPath, disclose, disclosedProgress } from "../../pipeline/summary.ts";
import { ClickUsers, dropSingleUserClick } from "../../scrub/click-url.ts";
import { sortByTime } from "../../stream/time-order.ts";
import { NATS_PACKAGES, requirePeers } from "../missing-package.ts";
import { addParamFlags, givenParamsWithJson } from "../param-flags.ts";
import {
  addInputOptions,
  checkOutputs,
  DEFAULT_SEED,
  fileOutputs,
  type InputFlags,
  intArg,
  parseSeed,
  printTable,
  readOptions,
  reportRejects,
} from "../shared.ts";

interface ServerFlags {
  quiet?: boolean;
  dir: string;
  natsPort: number;
  natsMonitorPort: number;
  pgPort: number;
}

/**
 * The NATS and PostgreSQL clients are loaded by the commands that use them, not when the command is registered:
 * `cluster --help` and `cluster run --help` work without them installed.
 */
const bus_ = () => import("../../cluster/bus.ts");

function serverOptions(cmd: Command): Command {
  return cmd
    .option("--dir <dir>", "data directory of both servers", ".cache/cluster")
    .option("--nats-port <n>", "NATS client port (loopback)", intArg(1), 14222)
    .option("--nats-monitor-port <n>", "NATS monitoring port (loopback)", intArg(1), 18222)
    .option("--pg-port <n>", "PostgreSQL port (loopback)", intArg(1), 15433);
}

/** `-q`, for the subcommands that do not read a log (those take it with the input options). */
function quietOption(cmd: Command): Command {
  return cmd.option("-q, --quiet", "no informational lines on stderr");
}

/** Informational lines on stderr, unless quiet. */
const sayer = (f: { quiet?: boolean }) => (line: string) => {
  if (!f.quiet) process.stderr.write(`cluster: ${line}\n`);
};

function configOf(f: ServerFlags): ClusterConfig {
  return clusterConfig(f.dir, { natsPort: f.natsPort, natsMonitorPort: f.natsMonitorPort, pgPort: f.pgPort });
}

/** Spawn `querymask cluster worker …` as a child process of this CLI (the same runtime, tsx or compiled). */
export function spawnWorker(args: string[]): ChildProcess {
  const entry = process.argv[1];
  if (entry === undefined) throw new Error("cannot tell how this CLI was started");
  return spawn(process.execPath, [...process.execArgv, entry, "cluster", "worker", ...args], {
    stdio: ["ignore", "ignore", "inherit"],
  });
}

interface RunFlags extends ServerFlags, InputFlags {
  out: string;
  method: string;
  params?: string;
  seed: number;
  partitions: number;
  workers: number;
  batchUsers: number;
  classifiers: number;
  batchSize: number;
  profileDepth: number;
  json?: boolean;
  diagnostics?: boolean;
  [param: string]: unknown;
}

/** Flags of `cluster run` itself, which a method parameter's flag must not take. */
const RESERVED = new Set(
  "out method params seed partitions classifiers batch-size profile-depth json diagnostics dir nats-port nats-monitor-port pg-port format lenient rejects quiet help".split(
    " ",
  ),
);

export function register(program: Command): void {
  const cluster = program
    .command("cluster")
    .description(
      "run the pipeline distributed on NATS JetStream and PostgreSQL (loopback, the project's own ports)",
    )
    // Before any subcommand's action (not for its help): every missing client named at once, exit 2.
    .hook("preAction", async () => {
      await requirePeers([...NATS_PACKAGES, "pg"], "querymask cluster (NATS JetStream and PostgreSQL)");
    });

  quietOption(
    serverOptions(
      cluster
        .command("up")
        .description("install what is missing, then start NATS (JetStream) and PostgreSQL"),
    ),
  )
    .option("--no-install", "do not install missing packages")
    .action(async (f: ServerFlags & { install: boolean }) => {
      const states = await clusterUp(configOf(f), {
        install: f.install,
        log: sayer(f),
      });
      for (const s of states)
        process.stdout.write(
          `${s.name.padEnd(8)} running  ${s.url}  pid ${s.pid ?? "-"}  data ${s.dataDir}\n`,
        );
    });

  quietOption(serverOptions(cluster.command("down").description("stop both servers")))
    .option("--wipe", "delete their data too")
    .action(async (f: ServerFlags & { wipe?: boolean }) => {
      await clusterDown(configOf(f), { wipe: f.wipe ?? false });
      process.stdout.write("cluster: stopped\n");
    });

  quietOption(serverOptions(cluster.command("status").description("which server runs, where")))
    .option("--json", "print JSON")
    .action((f: ServerFlags & { json?: boolean }) => {
      const states = clusterStatus(configOf(f));
      if (f.json) process.stdout.write(`${JSON.stringify(states, null, 2)}\n`);
      else
        for (const s of states)
          process.stdout.write(
            `${s.name.padEnd(8)} ${s.running ? "running" : "stopped"}  ${s.url}  data ${s.dataDir}\n`,
          );
      if (!states.every((s) => s.running)) process.exitCode = 1;
    });

  const worker = cluster.command("worker").description("run one pipeline worker against the cluster");
  quietOption(
    serverOptions(
      worker
        .command("classify")
        .description("classify one shard of the ingest batches (the records whose query hashes to it)"),
    ),
  )
    .option("--shard <s>", "classify shard, 0 … the run's shards − 1", intArg(0), 0)
    .action(async (f: ServerFlags & { shard: number }) => {
      const { openBus } = await bus_();
      const { runClassifyWorker } = await import("../../cluster/classify-worker.ts");
      const bus = await openBus(natsUrl(configOf(f)), `classify-${f.shard}`);
      const stop = new AbortController();
      process.once("SIGTERM", () => stop.abort());
      process.once("SIGINT", () => stop.abort());
      try {
        await runClassifyWorker(bus, f.shard, { signal: stop.signal });
      } finally {
        await bus.close(); // also when the worker failed: an open connection would keep a dead worker's process alive
      }
    });
  quietOption(
    serverOptions(
      worker.command("anonymize").description("anonymize one partition (one worker per partition)"),
    ),
  )
    .requiredOption("--partition <p>", "partition number", intArg(0))
    .action(async (f: ServerFlags & { partition: number }) => {
      const { openBus } = await bus_();
      const { runAnonymizeWorker } = await import("../../cluster/anonymize-worker.ts");
      const bus = await openBus(natsUrl(configOf(f)), `anonymize-${f.partition}`);
      const stop = new AbortController();
      process.once("SIGTERM", () => stop.abort());
      try {
        await runAnonymizeWorker(bus, f.partition, { signal: stop.signal });
      } finally {
        await bus.close();
      }
    });
  quietOption(
    serverOptions(
      worker
        .command("batch")
        .description(
          "sum one shard of users' partial aggregates of a batch method into PostgreSQL (cluster run)",
        ),
    ),
  )
    .requiredOption("--config <file>", "the run's configuration (written by cluster run)")
    .requiredOption("--shard <s>", "users' shard, 0 … the run's workers − 1", intArg(0))
    .action(async (f: ServerFlags & { config: string; shard: number }) => {
      const { runBatchWorker } = await import("../../cluster/batch-run.ts");
      await runBatchWorker(pgUrl(configOf(f)), f.config, f.shard);
    });
  quietOption(
    serverOptions(
      worker.command("profile").description("write released profiles to PostgreSQL (idempotent)"),
    ),
  )
    .option("--until-end", "stop once every partition's end of stream is applied")
    .action(async (f: ServerFlags & { untilEnd?: boolean }) => {
      const c = configOf(f);
      const { openBus } = await bus_();
      const { runProfileWriter } = await import("../../cluster/profile-writer.ts");
      const { PgProfileStore } = await import("../../profile/pg-store.ts");
      const bus = await openBus(natsUrl(c), "profile");
      const store = await PgProfileStore.open(pgUrl(c));
      const stop = new AbortController();
      process.once("SIGTERM", () => stop.abort());
      try {
        await runProfileWriter(bus, store, { untilEnd: f.untilEnd ?? false, signal: stop.signal });
      } finally {
        await store.close();
        await bus.close();
      }
    });

  const run = addInputOptions(
    serverOptions(
      cluster
        .command("run")
        .description("send a log through the cluster (workers as child processes) and write the release")
        .argument("<log...>", "time-ordered input log(s)"),
    ),
  )
    .requiredOption("-o, --out <file>", "released log")
    .option(
      "-m, --method <name>",
      `method: ${clusterMethods.map((m) => `${m.name} (${m.shards ? "batch, over shards of users" : "streams"})`).join(", ")}`,
      clusterMethods.find((m) => !m.shards)?.name,
    )
    .option("--params <json>", "method parameters as JSON, e.g. '{\"k\":3}' (or as flags: --k 3)")
    .option("--seed <n>", "random seed", parseSeed, DEFAULT_SEED)
    .option("--partitions <n>", "anonymizer partitions (one worker each)", intArg(1), 2)
    .option("--workers <n>", "batch methods: shards of users (one worker each)", intArg(1), 2)
    .option(
      "--batch-users <n>",
      "batch methods: users per batch a worker sums into PostgreSQL",
      intArg(1),
      10_000,
    )
    .option("--classifiers <n>", "classify workers (one per shard of the query texts)", intArg(1), 1)
    .option("--batch-size <n>", "records per ingest batch", intArg(1), 1000)
    .option("--profile-depth <n>", "ODP depth of the PostgreSQL profiles", intArg(1), 1)
    .option("--json", "print the summary as JSON")
    .option(
      "--diagnostics",
      "batch methods: also write the run's exact figures (a DP method's summary omits them) to <out>.diagnostics.PRIVATE.json",
    );
  addParamFlags(run, clusterMethods, "method", "method", RESERVED);
  run.action(async (inputs: string[], f: RunFlags) => {
    const entry = clusterMethod(f.method);
    const params = givenParamsWithJson(entry, clusterMethods, f, f.params, "method");
    const c = configOf(f);
    if (entry.shards) {
      // Before any server or worker: bad parameters, or ones the cluster cannot run, are the run's whole outcome.
      const method = await loadMethod(f.method);
      method.sharded?.check?.(method.parse(params));
      const opts = readOptions(f, f.out);
      const privatePath = f.diagnostics ? diagnosticsPath(f.out) : undefined;
      await checkOutputs(inputs, [
        ...fileOutputs(f.out, opts.rejectsPath),
        privatePath === undefined ? undefined : { path: privatePath, role: "diagnostics file" },
      ]);
      await batchRun(
        inputs,
        f,
        params,
        c,
        { ...opts, progress: disclosedProgress(method, opts.progress) },
        privatePath,
      );
      return;
    }
    const config = {
      version: 2 as const,
      partitions: f.partitions,
      classifyShards: f.classifiers,
      method: f.method,
      params,
      seed: f.seed,
      profileDepth: f.profileDepth,
    };
    // Before any server or worker: a bad method or parameter is the run's whole outcome, and it exits.
    await checkConfig(config);
    const opts = readOptions(f, f.out);
    await checkOutputs(inputs, fileOutputs(f.out, opts.rejectsPath));
    const log = await openLog(inputs, opts);
    // One pass first (bad lines are the main pass's to report): is the log in time order — the stages need it;
    // one that is not is sorted on the way, as anonymize sorts it — and, classifying on the way, which clicks
    // only one user made (dropped, as `querymask classify` and `anonymize` do; the rule does not depend on the
    // classification, so it is applied before ingest).
    let inOrder = true;
    let lastTime = Number.NEGATIVE_INFINITY;
    async function* watched(batches: AsyncIterable<LogRecord[]>): AsyncGenerator<LogRecord[]> {
      for await (const batch of batches) {
        for (const r of batch) {
          if (r.time < lastTime) inOrder = false;
          lastTime = r.time;
        }
        yield batch;
      }
    }
    const first = (await openLog(inputs, { format: opts.format, lenient: true })).batches();
    let clickUsers: ClickUsers | undefined;
    if (log.classified) for await (const _ of watched(first));
    else clickUsers = await ClickUsers.of(watched(first));
    if (!inOrder && !f.quiet)
      process.stderr.write("querymask: the log is not in time order; sorting it by time on the way\n");
    let droppedClicks = 0;
    async function* input(): AsyncGenerator<LogRecord[]> {
      const read = inOrder ? log.batches() : sortByTime(log.batches(), { tempDir: dirname(resolve(f.out)) });
      for await (const batch of read) {
        if (clickUsers === undefined) yield batch;
        else
          yield batch.map((r) => {
            // Only records the classify workers will classify: a classified record went through `classify` already.
            const out = r.category === undefined ? dropSingleUserClick(r, clickUsers) : r;
            if (out !== r) droppedClicks++;
            return out;
          });
      }
    }
    const t0 = performance.now();
    const { openBus } = await bus_();
    const { resetStreams } = await import("../../cluster/topology.ts");
    const { ingest } = await import("../../cluster/ingest.ts");
    const { releasedRecords } = await import("../../cluster/export.ts");
    const { PgProfileStore } = await import("../../profile/pg-store.ts");
    const bus: Bus = await openBus(natsUrl(c), "run");
    try {
      await resetStreams(bus.jsm);
    } finally {
      await bus.close();
    }
    const fresh = await openBus(natsUrl(c), "run");
    let sup: Supervisor | undefined;
    // SIGTERM or SIGINT: stop the workers (they are this run's children) before going, so none is left behind.
    let stopping = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (stopping) return;
      stopping = true;
      void (async () => {
        process.stderr.write(`cluster: ${signal}: stopping the workers\n`);
        await sup?.stop();
        await fresh.close().catch(() => {});
        process.exit(signal === "SIGINT" ? 130 : 143);
      })();
    };
    process.on("SIGTERM", onSignal);
    process.on("SIGINT", onSignal);
    let ing: IngestResult;
    try {
      const store = await PgProfileStore.open(pgUrl(c));
      try {
        await store.clear();
      } finally {
        await store.close();
      }
      await writeConfig(fresh, config);
      const args = serverArgs(c);
      // Workers run under a supervisor: one that dies is started again and resumes where the stream says.
      const supervisor = new Supervisor({
        spawn: (a) => spawnWorker([...a, ...args]),
        log: (l) => process.stderr.write(`cluster: ${l}\n`),
      });
      sup = supervisor;
      for (let i = 0; i < f.classifiers; i++)
        void supervisor.start(`classify-${i}`, ["classify", "--shard", String(i)]);
      const finishing = [
        ...Array.from({ length: f.partitions }, (_, p) =>
          supervisor.start(`anonymize-${p}`, ["anonymize", "--partition", String(p)]),
        ),
        supervisor.start("profile", ["profile", "--until-end"]),
      ];
      opts.progress.start("cluster ingest");
      ing = await Promise.race([ingest(fresh, input(), { batchSize: f.batchSize }), supervisor.failure]);
      opts.progress.stop();
      await Promise.race([
        Promise.all([
          writeBatches(f.out, log.format, releasedRecords(fresh), { classified: log.classified }),
          ...finishing,
        ]),
        supervisor.failure,
      ]);
    } finally {
      opts.progress.stop();
      await sup?.stop();
      await fresh.close();
      await log.rejects.close();
      process.off("SIGTERM", onSignal);
      process.off("SIGINT", onSignal);
    }
    reportRejects(log.rejects.count, opts.rejectsPath);
    const seconds = (performance.now() - t0) / 1000;
    const summary = {
      method: f.method,
      partitions: f.partitions,
      classifiers: f.classifiers,
      records: ing.records,
      batches: ing.batches,
      "single-user clicks dropped": droppedClicks,
      "worker restarts": Object.values(sup.restarts()).reduce((a, n) => a + n, 0),
      out: f.out,
      seconds,
      "records/s": ing.records / seconds,
    };
    if (f.json) process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
    else printTable(Object.entries(summary).map(([k, v]) => [k, typeof v === "number" ? v : String(v)]));
  });
}

/**
 * `cluster run` of a batch method: the coordinator (src/cluster/batch-run.ts), then the method's summary, split by
 * its disclosure as `anonymize` splits it: for a DP method the public summary holds its parameters, guarantee and
 * publishable counts only; the run's exact figures (batches, restarts, scrubbing, rejected lines, seconds, each
 * process's peak RSS and CPU) go to the `--diagnostics` file.
 */
async function batchRun(
  inputs: string[],
  f: RunFlags,
  params: Record<string, unknown>,
  c: ClusterConfig,
  opts: ReturnType<typeof readOptions>,
  privatePath: string | undefined,
): Promise<void> {
  const t0 = performance.now();
  const method = await loadMethod(f.method);
  const { runBatchCluster } = await import("../../cluster/batch-run.ts");
  const run = await runBatchCluster({
    pgUrl: pgUrl(c),
    inputs,
    out: f.out,
    method: f.method,
    params,
    seed: f.seed,
    shards: f.workers,
    batchUsers: f.batchUsers,
    read: opts,
    spawnWorker: (a) => spawnWorker([...a, ...serverArgs(c)]),
    log: (l) => process.stderr.write(`cluster: ${l}\n`),
  });
  const seconds = (performance.now() - t0) / 1000;
  const mib = (kib: number) => Math.round(kib / 102.4) / 10;
  const perProcess: Record<string, number> = {};
  run.usage.workers.forEach((pass, p) => {
    pass.forEach((u, s) => {
      const who =
        p >= run.passes
          ? `worker ${s} release`
          : `worker ${s}${run.passes + run.releasePasses > 1 ? ` pass ${p + 1}` : ""}`;
      perProcess[`${who} peak RSS (MiB)`] = mib(u.rssKiB);
      perProcess[`${who} CPU (s)`] = u.cpuMs / 1000;
      perProcess[`${who} wall (s)`] = u.wallMs / 1000;
      perProcess[`${who} rows sent`] = u.rowsSent;
      perProcess[`${who} bytes sent`] = u.bytesSent;
    });
  });
  perProcess["coordinator peak RSS (MiB)"] = mib(run.usage.coordinator.rssKiB);
  perProcess["coordinator CPU (s)"] = run.usage.coordinator.cpuMs / 1000;
  const shown = disclose(method, {
    counts: run.release.counts,
    diagnostics: run.release.diagnostics,
    prepared: {
      batches: run.batches,
      passes: run.passes,
      "worker restarts": run.restarts,
      ...(run.scrub ? scrubCounts(run.scrub) : {}),
      "seconds (check)": run.seconds.check,
      "seconds (workers)": run.seconds.workers,
      "seconds (summing)": run.seconds.summing,
      "seconds (release)": run.seconds.release,
      "pass config bytes": run.configBytes,
      ...(run.releasePasses > 0
        ? {
            "release passes": run.releasePasses,
            "seconds (release: workers' parts)": run.seconds.releaseWorkers,
            "seconds (release: merge)": run.seconds.merge,
          }
        : {}),
      ...perProcess,
    },
    notes: run.release.notes,
    rejected: run.rejected,
    seconds,
  });
  if (shown.rejected !== undefined) reportRejects(shown.rejected, opts.rejectsPath);
  else if (opts.rejectsPath !== undefined && !f.quiet) {
    process.stderr.write(
      `querymask: bad lines, if any, are set aside in ${opts.rejectsPath} (raw input rows: keep it private)\n`,
    );
  }
  for (const note of shown.notes) process.stderr.write(`querymask: ${note}\n`);
  if (privatePath !== undefined) {
    await writeFileAtomic(privatePath, `${JSON.stringify(shown.diagnostics, null, 2)}\n`);
    process.stderr.write(
      `querymask: exact figures written to ${privatePath} — they are not private: never publish them\n`,
    );
  }
  const summary = {
    method: f.method,
    params: method.parse(params),
    seed: f.seed,
    workers: f.workers,
    out: f.out,
    guarantee: run.release.guarantee,
    ...shown.counts,
    ...(shown.rejected !== undefined ? { rejected: shown.rejected } : {}),
    ...(shown.seconds !== undefined ? { seconds: shown.seconds } : {}),
  };
  if (f.json) process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  else
    printTable(
      Object.entries(summary).map(([k, v]) => [
        k,
        k === "guarantee"
          ? describeGuarantee(run.release.guarantee)
          : typeof v === "number"
            ? v
            : JSON.stringify(v),
      ]),
    );
}
