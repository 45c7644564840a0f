/**
 * `querymask cluster run` for a batch method (one with `Method.sharded`: threshold, graph, dp, km): users are sharded
 * across worker processes by a stable hash of the user id. The coordinator checks the input and, in the same pass,
 * counts the cross-user evidence the scrubber needs (the clicks only one user made, each name's users), which it
 * hands to the workers in a file; each worker reads the log skipping other shards' lines unparsed, scrubs and adds
 * only its own users' records to partial aggregates, batch by batch, and PostgreSQL keeps each batch's parts once
 * (src/cluster/batch-store.ts) and sums them in one statement when every shard is done. The coordinator then reads
 * the sums, applies the method's decision once and writes the release from one more pass, atomically. A worker killed mid-run is started again by the supervisor and skips the batches it applied, so
 * nothing is lost or counted twice; the release is the single machine's (`anonymize`) for the same log.
 */
import type { ChildProcess } from "node:child_process";
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { temporaryDirectory } from "../log/atomic.ts";
import { writeCountTable } from "../log/count-table.ts";
import { openLog, type ReadOptions } from "../log/read.ts";
import type { LogFormat, LogRecord } from "../log/record.ts";
import { NotGroupedByUser, userBlocks } from "../log/user-blocks.ts";
import { createLogWriter, type LogWriter } from "../log/write.ts";
import { methodRng, NO_GUARANTEE, type Release, type ReleaseSink } from "../methods/method.ts";
import { loadMethod } from "../methods/registry.ts";
import { forShard, isByUser, type PartialTable } from "../methods/sharded.ts";
import { ClickUsers } from "../scrub/click-url.ts";
import { NameUsers } from "../scrub/name-users.ts";
import { emptyCounts, type ScrubCounts, scrubsInput } from "../scrub/scrub-log.ts";
import { type CrossUserEvidence, scrubbedPasses } from "../stream/user-passes.ts";
import { UsageError } from "../util/errors.ts";
import type { Progress } from "../util/progress.ts";
import { mergeParts, PartWriter, partPaths } from "./batch-parts.ts";
import { decodeKept, encodeKept, passAdderOf, shardKept, shardPartials } from "./batch-shard.ts";
import { BatchStore, type ShardDone, type WorkerUsage } from "./batch-store.ts";
import { userShardOf } from "./partition.ts";
import { Supervisor } from "./supervisor.ts";

/** What every worker of a run is told (a JSON file the coordinator writes). */
export interface BatchRunConfig {
  readonly inputs: readonly string[];
  readonly format: LogFormat;
  readonly method: string;
  readonly params: Record<string, unknown>;
  readonly seed: number;
  readonly shards: number;
  readonly batchUsers: number;
  /** The coordinator's cross-user evidence (`CrossUserFile`), when the method's scrubbing uses it. */
  readonly evidence?: string;
  /** The pass (0 first) and, for a later one, the coordinator's input to it (`ShardedRelease.later`). */
  readonly pass: number;
  readonly input?: unknown;
  /**
   * A pass that reads no log: the pass whose kept users it works from (`KeptAdder`; each worker's file
   * `keptPath(dir, keptFrom, shard)`, written at the end of that pass).
   */
  readonly keptFrom?: number;
  /** The release pass (`ShardedRelease.parts`): the coordinator's decision; each worker writes its part. */
  readonly decision?: unknown;
}

/** The cross-user evidence as the coordinator ships it: the single-user click URLs and each name's users. */
interface CrossUserFile {
  readonly clicks: readonly string[];
  readonly names: readonly (readonly [string, number])[];
}

function readEvidence(path: string): CrossUserEvidence {
  const f = JSON.parse(readFileSync(path, "utf8")) as CrossUserFile;
  return { clicks: ClickUsers.fromLines(f.clicks), names: NameUsers.fromJSON(f.names) };
}

/** What a worker's release pass reports: its part's counts and its users' scrub counts. */
interface PartResult {
  readonly counts: Record<string, number>;
  readonly scrub: ScrubCounts | undefined;
}

/** The sum of shards' scrub counts. */
function addScrub(into: ScrubCounts, c: ScrubCounts): void {
  into.records += c.records;
  into.changed += c.changed;
  into.removed += c.removed;
  into.clicksDropped += c.clicksDropped;
  into.singleUserClicksDropped += c.singleUserClicksDropped;
  into.allowed += c.allowed;
  for (const [t, n] of Object.entries(c.spans)) into.spans[t as keyof ScrubCounts["spans"]] += n;
}

/** A record's position in the whole log: its file's index among the inputs, then its line. */
function orderOf(files: readonly string[]): (r: LogRecord) => number {
  const index = new Map(files.map((f, i) => [f, i]));
  return (r) => (r.source ? index.get(r.source.file)! * 2 ** 32 + r.source.line : 0);
}

/** What shard `shard`'s worker kept of its users in pass `pass` (a pass that read the log), beside the configs. */
const keptPath = (dir: string, pass: number, shard: number): string =>
  join(dir, `kept-${pass}-${shard}.json`);

/** One worker: shard `shard`'s partial aggregates into PostgreSQL, skipping its batches applied before. */
export async function runBatchWorker(pgUrl: string, configPath: string, shard: number): Promise<void> {
  const config = JSON.parse(readFileSync(configPath, "utf8")) as BatchRunConfig;
  const method = await loadMethod(config.method);
  if (!method.sharded) throw new UsageError(`method ${config.method} does not run over shards of users`);
  const params = method.parse(config.params);
  const store = await BatchStore.open(pgUrl);
  // What this process sent (a restarted worker counts only its own batches).
  const sent = { rows: 0, bytes: 0 };
  const apply = async (batch: number, table: PartialTable) => {
    const rows = table.rows();
    await store.apply(shard, batch, rows);
    sent.rows += rows.length;
    for (const r of rows) sent.bytes += Buffer.byteLength(r.key) + Buffer.byteLength(r.key2) + 2 + 8 * 3;
  };
  const finish = async (done: { batches: number; users: number }) => {
    const used = process.resourceUsage();
    await store.finish(shard, done.batches, done.users, {
      rssKiB: used.maxRSS,
      cpuMs: (used.userCPUTime + used.systemCPUTime) / 1000,
      wallMs: performance.now(),
      rowsSent: sent.rows,
      bytesSent: sent.bytes,
    });
  };
  try {
    const applied = await store.applied(shard);
    const run = { shard, shards: config.shards, batchUsers: config.batchUsers };
    const add = passAdderOf(method.sharded, params, config.input);
    if (config.keptFrom !== undefined) {
      // A pass over what an earlier pass kept of this shard's users: no log to read.
      if (typeof add === "function")
        throw new Error(`pass ${config.pass} reads the log, yet was told not to`);
      const kept = decodeKept(readFileSync(keptPath(dirname(configPath), config.keptFrom, shard), "utf8"));
      await finish(await shardKept(kept, add, run, apply, (batch) => applied.has(batch)));
      return;
    }
    const keepUser = (user: string) => userShardOf(user, config.shards) === shard;
    const open = (inputs: readonly string[], opts: ReadOptions) => openLog(inputs, { ...opts, keepUser });
    const first = await open(config.inputs, { format: config.format, lenient: true });
    const scrub = scrubsInput(method.input.text, first)
      ? {
          counts: emptyCounts(),
          singleUserClicks: method.input.crossUser,
          evidence: config.evidence === undefined ? undefined : readEvidence(config.evidence),
        }
      : undefined;
    const passes = await scrubbedPasses(first, config.inputs, scrub, undefined, keepUser, open);
    if (config.decision !== undefined) {
      const parts = method.sharded.parts;
      if (!parts) throw new Error(`method ${config.method} has no release by parts`);
      const sink = new PartWriter(
        partPaths(dirname(configPath), config.pass, shard),
        first.format,
        first.classified,
        orderOf(first.files),
      );
      let release: Release;
      try {
        release = await parts.write(config.decision, passes, params, sink);
        await sink.close();
      } catch (e) {
        await sink.abort();
        throw e;
      }
      const used = process.resourceUsage();
      const result: PartResult = { counts: release.counts, scrub: scrub?.counts };
      await store.finish(
        shard,
        0,
        0,
        {
          rssKiB: used.maxRSS,
          cpuMs: (used.userCPUTime + used.systemCPUTime) / 1000,
          wallMs: performance.now(),
          rowsSent: 0,
          bytesSent: 0,
        },
        JSON.stringify(result),
      );
      return;
    }
    if (typeof add !== "function") throw new Error(`pass ${config.pass} reads no log, yet was told to`);
    const keep = new Map<number, readonly string[]>();
    const done = await shardPartials(
      passes,
      add,
      run,
      orderOf(first.files),
      apply,
      (batch) => applied.has(batch),
      undefined,
      keep,
    );
    // Kept before the shard says it is done, so a later pass never finds it missing; atomically, for a restart.
    const path = keptPath(dirname(configPath), config.pass, shard);
    writeFileSync(`${path}.tmp`, encodeKept({ users: done.users, kept: keep }));
    renameSync(`${path}.tmp`, path);
    await finish(done);
  } finally {
    await store.close();
  }
}

export interface BatchRunOptions {
  readonly pgUrl: string;
  readonly inputs: readonly string[];
  readonly out: string;
  readonly method: string;
  readonly params: Record<string, unknown>;
  readonly seed: number;
  readonly shards: number;
  readonly batchUsers: number;
  readonly read: ReadOptions & { progress: Progress };
  /** Start one worker process with these `cluster worker` arguments. */
  readonly spawnWorker: (args: readonly string[]) => ChildProcess;
  /** A line for the person running it (restarts). */
  readonly log: (line: string) => void;
}

export interface BatchRunResult {
  readonly release: Release;
  readonly scrub: ScrubCounts | undefined;
  readonly rejected: number;
  readonly batches: number;
  readonly restarts: number;
  /** Worker passes run (a method that decides in steps asks for more than one). */
  readonly passes: number;
  /** Release passes run by the workers (`ShardedRelease.parts`: 1), besides those. */
  readonly releasePasses: number;
  /** Bytes of the pass configs written for the workers (inputs and decisions included; one per shard when by user). */
  readonly configBytes: number;
  /**
   * Wall seconds per stage: the input check (with the cross-user counts), the workers' passes, PostgreSQL's summing
   * of their parts, and the decision and release (all passes' summing and workers excluded).
   */
  readonly seconds: {
    readonly check: number;
    readonly workers: number;
    readonly summing: number;
    readonly release: number;
    /** Of the release: the workers' release pass (writing their parts) and the coordinator's merge of the parts. */
    readonly releaseWorkers: number;
    readonly merge: number;
  };
  /** Each shard's worker process in each pass (its last, when restarted), and the coordinator's. */
  readonly usage: {
    readonly workers: readonly (readonly WorkerUsage[])[];
    readonly coordinator: WorkerUsage;
  };
}

/** The coordinator: check the input, run the workers, decide from the sums and write the release. */
export async function runBatchCluster(o: BatchRunOptions): Promise<BatchRunResult> {
  const method = await loadMethod(o.method);
  const sharded = method.sharded;
  if (!sharded) throw new UsageError(`method ${o.method} does not run over shards of users`);
  const params = method.parse(o.params);
  const progress = o.read.progress;
  const tCheck = performance.now();
  // Bad lines are found before any worker starts: an error at file:line, or set aside and counted (--lenient).
  const checked = await openLog(o.inputs, o.read);
  const scrubs = scrubsInput(method.input.text, checked);
  // The cross-user evidence is counted in the same pass, once, for the workers and the release pass alike.
  const crossUser = scrubs && method.input.crossUser ? new ClickUsers() : undefined;
  // And the log must be grouped by user (each worker reads it by user): said here, before any worker starts.
  progress.start(
    crossUser
      ? "checking the input; counting each clicked URL's and each name's users (cross-user evidence for the scrubber)"
      : "checking the input",
  );
  try {
    for await (const block of userBlocks(checked.batches())) crossUser?.add(block);
  } catch (e) {
    if (!(e instanceof NotGroupedByUser)) throw e;
    throw new UsageError(`${e.message}; cluster run reads a log by user: sort it by user first`);
  } finally {
    progress.stop();
  }
  await checked.rejects.close();
  const checkSeconds = (performance.now() - tCheck) / 1000;
  const tmp = await temporaryDirectory(dirname(resolve(o.out)), ".querymask-cluster-run-");
  let evidence: string | undefined;
  if (crossUser) {
    evidence = join(tmp.dir, "cross-user.json");
    const file: CrossUserFile = { clicks: crossUser.toLines(), names: crossUser.names.toJSON() };
    writeFileSync(evidence, JSON.stringify(file));
  }
  const config: Omit<BatchRunConfig, "pass"> = {
    evidence,
    inputs: checked.files,
    format: checked.format,
    method: method.name,
    params: o.params,
    seed: o.seed,
    shards: o.shards,
    batchUsers: o.batchUsers,
  };
  const store = await BatchStore.open(o.pgUrl);
  const sup = new Supervisor({ spawn: o.spawnWorker, log: o.log });
  let batches = 0;
  let passCount = 0;
  let workerSeconds = 0;
  let summingSeconds = 0;
  let releaseWorkerSeconds = 0;
  let mergeSeconds = 0;
  let configBytes = 0;
  const usage: WorkerUsage[][] = [];
  const result = (release: Release, scrub: ScrubCounts | undefined, t0: number): BatchRunResult => {
    const restarts = Object.values(sup.restarts()).reduce((a, n) => a + n, 0);
    const used = process.resourceUsage();
    const total = (performance.now() - t0) / 1000;
    return {
      release,
      scrub,
      rejected: checked.rejects.count,
      batches,
      restarts,
      passes: passCount,
      releasePasses,
      configBytes,
      seconds: {
        check: checkSeconds,
        workers: workerSeconds,
        summing: summingSeconds,
        release: total - workerSeconds - summingSeconds,
        releaseWorkers: releaseWorkerSeconds,
        merge: mergeSeconds,
      },
      usage: {
        workers: usage,
        coordinator: {
          rssKiB: used.maxRSS,
          cpuMs: (used.userCPUTime + used.systemCPUTime) / 1000,
          wallMs: performance.now(),
          rowsSent: 0,
          bytesSent: 0,
        },
      },
    };
  };
  // One pass of every worker over its shard; the sums of the pass stay in PostgreSQL until the next one. With a
  // decision, the release pass instead: each worker writes its part of the release (nothing to sum).
  let releasePasses = 0;
  // The last pass that read the log: a pass that reads none works from what its workers kept.
  let lastRead = 0;
  const pass = async (input?: unknown, decision?: unknown): Promise<ShardDone[]> => {
    const n = decision === undefined ? passCount++ : releasePasses++;
    const name = decision === undefined ? `pass-${n}` : `release-${n}`;
    // A pass reads the log unless its adder works from what the last reading pass kept (asked of an input cut to
    // no user: the kind of adder is the method's, not the users').
    const reads =
      decision !== undefined ||
      typeof passAdderOf(
        sharded,
        params,
        forShard(input, () => false),
      ) === "function";
    const keptFrom = reads ? undefined : lastRead;
    if (reads && decision === undefined) lastRead = n;
    // An input or decision given by user goes to each worker as its own users' entries, one config per shard.
    const perShard = isByUser(input) || isByUser(decision);
    const paths = Array.from({ length: o.shards }, (_, s) => {
      if (!perShard && s > 0) return join(tmp.dir, `${name}.json`);
      const path = join(tmp.dir, perShard ? `${name}-shard${s}.json` : `${name}.json`);
      const keep = (user: string) => userShardOf(user, o.shards) === s;
      const text = JSON.stringify({
        ...config,
        pass: n,
        input: forShard(input, keep),
        keptFrom,
        decision: forShard(decision, keep),
      } satisfies BatchRunConfig);
      configBytes += Buffer.byteLength(text);
      writeFileSync(path, text);
      return path;
    });
    // The release pass keeps the sums it was decided from (they stay in PostgreSQL after the run, as they did).
    await store.clear(decision !== undefined);
    const t0 = performance.now();
    const label = decision !== undefined ? " (release)" : n === 0 ? "" : ` (pass ${n + 1})`;
    progress.start(
      decision === undefined
        ? `cluster: ${o.shards} workers summing ${method.name}'s aggregates${label}`
        : `cluster: ${o.shards} workers writing their parts of the release`,
    );
    await Promise.race([
      Promise.all(
        Array.from({ length: o.shards }, (_, s) =>
          sup.start(`batch-${s}${decision !== undefined ? "-release" : n === 0 ? "" : `-pass${n + 1}`}`, [
            "batch",
            "--config",
            paths[s]!,
            "--shard",
            String(s),
          ]),
        ),
      ),
      sup.failure,
    ]);
    progress.stop();
    const finished = await store.finished();
    const done: ShardDone[] = [];
    for (let s = 0; s < o.shards; s++) {
      const f = finished.get(s);
      if (f === undefined || (await store.appliedCount(s)) !== f.batches) {
        throw new Error(`cluster: shard ${s} ended without applying all its batches`);
      }
      batches += f.batches;
      done.push(f);
    }
    usage.push(done.map((f) => f.usage));
    const seconds = (performance.now() - t0) / 1000;
    if (decision !== undefined) {
      releaseWorkerSeconds += seconds;
      return done;
    }
    workerSeconds += seconds;
    const t1 = performance.now();
    progress.start(`cluster: PostgreSQL summing the workers' parts${label}`);
    await store.sum();
    progress.stop();
    summingSeconds += (performance.now() - t1) / 1000;
    return done;
  };
  try {
    const t0 = performance.now();
    await pass();
    const ctx = { rng: methodRng(o.seed), progress, warn: o.log };
    if (sharded.parts) {
      // The workers write the release, each its users' part; the coordinator merges the parts in log order.
      progress.start(`${method.name}: deciding from the sums`);
      const decision = await sharded.parts.decide(store.sums(), params, ctx, async (input) => {
        progress.stop();
        await pass(input);
        progress.start(`${method.name}: deciding from the sums`);
        return store.sums();
      });
      progress.stop();
      const done = await pass(undefined, decision);
      const tMerge = performance.now();
      progress.start("cluster: merging the workers' parts of the release in log order");
      await mergeParts(
        done.map((_, s) => partPaths(tmp.dir, 0, s)),
        o.out,
        checked.format,
        checked.classified,
      );
      progress.stop();
      mergeSeconds = (performance.now() - tMerge) / 1000;
      const results = done.map((f) => JSON.parse(f.result) as PartResult);
      const release = sharded.parts.merge(
        decision,
        results.map((r) => ({ counts: r.counts, guarantee: NO_GUARANTEE })),
        params,
      );
      let scrubbed: ScrubCounts | undefined;
      for (const r of results) {
        if (r.scrub === undefined) continue;
        scrubbed ??= emptyCounts();
        addScrub(scrubbed, r.scrub);
      }
      return result(release, scrubbed, t0);
    }
    const first = await openLog(checked.files, { format: checked.format, lenient: true });
    const scrub = scrubsInput(method.input.text, first)
      ? {
          counts: emptyCounts(),
          singleUserClicks: method.input.crossUser,
          evidence: crossUser ? { clicks: crossUser, names: crossUser.names } : undefined,
        }
      : undefined;
    const log = await scrubbedPasses(first, checked.files, scrub, progress);
    // The scrubber's counts are the coordinator's pass's: none when the method decides from the sums alone (dp).
    let read = false;
    const passes = {
      ...log,
      pass() {
        read = true;
        return log.pass();
      },
    };
    let writer: LogWriter | undefined;
    const sink: ReleaseSink = {
      write(records) {
        writer ??= createLogWriter(o.out, first.format, { classified: first.classified });
        let behind: Promise<void> | undefined;
        for (const r of records) behind = writer.write(r) ?? behind;
        return behind;
      },
    };
    let release: Release;
    try {
      release = await sharded.release(store.sums(), passes, params, ctx, sink, async (input) => {
        await pass(input);
        return store.sums();
      });
      if (release.table) {
        if (writer) throw new Error(`${method.name} wrote records and a count table`);
        await writeCountTable(o.out, release.table);
      } else {
        writer ??= createLogWriter(o.out, first.format, { classified: first.classified });
        await writer.close();
      }
    } catch (e) {
      await writer?.abort();
      throw e;
    }
    return result(release, read ? scrub?.counts : undefined, t0);
  } finally {
    await sup.stop();
    await store.close();
    await tmp.dispose();
  }
}
