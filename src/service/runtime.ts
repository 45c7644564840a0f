/**
 * Where an accepted batch goes. The embedded runtime (default) runs the pipeline in this process: classify,
 * the partitioned stages, the released log appended to a file, profiles in SQLite, and the stages' state saved
 * on shutdown and restored on start. The cluster runtime publishes the batch to the cluster's ingest stream
 * (workers do the rest). Both take a batch whole or not at all.
 */
import { randomUUID } from "node:crypto";
import { type FileHandle, open } from "node:fs/promises";
import { type Categorize, loadCategorize } from "../classify/categorize.ts";
import { warmUp } from "../classify/warm-up.ts";
import type { Bus } from "../cluster/bus.ts";
import { readConfig } from "../cluster/config.ts";
import { type PartitionedConfig, PartitionedStages } from "../cluster/embedded.ts";
import { ndjsonCodec } from "../log/formats/ndjson.ts";
import type { LogRecord } from "../log/record.ts";
import { Profiler } from "../profile/profiler.ts";
import type { SqliteProfileStore } from "../profile/sqlite-store.ts";
import type { ProfileDelta } from "../profile/store.ts";
import { SnapshotError } from "../stream/stage.ts";
import { UsageError } from "../util/errors.ts";
import { type BatchResult, Journal, type JournalEntry, journalPath } from "./journal.ts";
import type { ServiceMetrics } from "./metrics.ts";

export interface IngestResult {
  readonly accepted: number;
  readonly released: number;
  /** The request repeats one already applied (same `Idempotency-Key`): nothing was applied again. */
  readonly duplicate?: true;
}

export interface Runtime {
  readonly name: string;
  /** The runtime releases records itself (and counts them); false when workers elsewhere do. */
  readonly releases: boolean;
  /** Ready to answer a batch promptly (/readyz): false while the embedded runtime still loads its classifier. */
  ready(): boolean;
  ingest(records: LogRecord[], metrics: ServiceMetrics, idempotencyKey?: string): Promise<IngestResult>;
  /** Refresh gauges (held events, k, lag) before a scrape. */
  observe(metrics: ServiceMetrics): Promise<void>;
  close(): Promise<void>;
}

export interface EmbeddedOptions {
  /** Released records are appended here as NDJSON (a live log, not an atomic file). */
  readonly releasedPath?: string;
  /** SQLite profile store. */
  readonly db?: string;
  /**
   * The stream's checkpoint; with its journal (`<state>.journal`) the runtime is crash-safe: every batch is on
   * disk before it is answered, and a restart — after a clean shutdown or a kill -9 — continues the stream
   * exactly, without losing or repeating a released record or a profile count (src/service/journal.ts).
   */
  readonly statePath?: string;
  readonly profileDepth?: number;
  /**
   * Load (and warm up) the classifier at start, in the background, and answer /readyz 503 until it is loaded
   * (`querymask serve` does): otherwise the first unclassified batch waits for the load (~2–20 s) while /readyz
   * says ready. A load that fails makes the runtime ready anyway: classified batches need no classifier, an
   * unclassified one gets the reason.
   */
  readonly preloadClassifier?: boolean;
  /** Checkpoint once the journal holds this many bytes (default 64 MiB), so a restart replays little. */
  readonly checkpointBytes?: number;
  /** Released records between two writes of the profiles (default 65,536; a checkpoint writes them too). */
  readonly profileFlushRecords?: number;
}

const RECENT_KEYS = 10_000;

/** The profiler's note of the last event it counted (an event's click rows count once, across batches too). */
const eventKey = (r: LogRecord | undefined): string | undefined =>
  r === undefined ? undefined : JSON.stringify([r.user, r.time, r.query]);

export class EmbeddedRuntime implements Runtime {
  readonly name = "embedded";
  readonly releases = true;
  private categorize: Promise<Categorize> | undefined;
  private loading = false;
  private chain: Promise<unknown> = Promise.resolve();
  /** Set when a batch failed half-applied (its records journaled, the release not written): no more batches. */
  private broken: Error | undefined;

  private constructor(
    private readonly stages: PartitionedStages,
    private readonly opts: EmbeddedOptions,
    private readonly out: FileHandle | undefined,
    private readonly store: SqliteProfileStore | undefined,
    private readonly profiler: Profiler | undefined,
    private readonly journal: Journal | undefined,
    /** This stream's id (its position in the profile database is kept under it). */
    private readonly stream: string,
  ) {}

  static async create(config: PartitionedConfig, opts: EmbeddedOptions = {}): Promise<EmbeddedRuntime> {
    const opened = opts.statePath ? await Journal.open(opts.statePath) : undefined;
    const checkpoint = opened?.checkpoint;
    let stages: PartitionedStages;
    let out: FileHandle | undefined;
    let store: SqliteProfileStore | undefined;
    try {
      try {
        stages = await PartitionedStages.create(config, checkpoint?.stages, opts.statePath);
      } catch (e) {
        if (e instanceof SnapshotError) throw new UsageError(e.message);
        throw e;
      }
      if (opts.releasedPath) {
        out = await open(opts.releasedPath, "a");
        const bytes = checkpoint?.releasedBytes;
        if (bytes !== undefined) {
          const size = (await out.stat()).size;
          if (size < bytes) {
            throw new UsageError(
              `${opts.releasedPath}: holds ${size} bytes, the state ${opts.statePath} says ${bytes} were released; not resumed (was it replaced?)`,
            );
          }
          // What was released after the checkpoint (and a line a crash cut short): the replay writes it again.
          if (size > bytes) await out.truncate(bytes);
        }
      }
      // Loaded only with a store: better-sqlite3 is an optional peer (src/cli/missing-package.ts).
      store = opts.db
        ? new (await import("../profile/sqlite-store.ts")).SqliteProfileStore(opts.db)
        : undefined;
    } catch (e) {
      await out?.close();
      await opened?.journal.close();
      throw e;
    }
    const stream = checkpoint?.stream ?? randomUUID();
    // Every write of profiles records the input position they reach, in the same transaction (see replay).
    let profiler: Profiler | undefined;
    if (store) {
      const s = store;
      const sink = {
        add: (deltas: readonly ProfileDelta[]) =>
          s.addAt(deltas, stream, stages.inputPosition, eventKey(profiler!.lastRecord)),
      };
      profiler = new Profiler(sink, opts.profileDepth ?? 1, opts.profileFlushRecords ?? 1 << 16);
    }
    const runtime = new EmbeddedRuntime(stages, opts, out, store, profiler, opened?.journal, stream);
    for (const [key, result] of checkpoint?.keys ?? []) runtime.remember(key, result);
    if (opened) await runtime.replay(opened.entries);
    if (opts.preloadClassifier) {
      runtime.loading = true;
      runtime.classifier().then(
        (categorize) => {
          warmUp(categorize); // its lazily loaded parts too (~1.7 CPU-s on the first queries otherwise)
          runtime.loading = false;
        },
        () => {
          runtime.loading = false;
        },
      );
    }
    return runtime;
  }

  /**
   * Apply the journal's batches after the checkpoint (a restart after a crash), then checkpoint: the stream is
   * where it was when the last batch was answered.
   */
  private async replay(entries: readonly JournalEntry[]): Promise<void> {
    const mark = this.store?.streamMark(this.stream);
    const profiled = mark?.position ?? 0;
    if (mark?.last !== undefined) {
      const [user, time, query] = JSON.parse(mark.last) as [string, number, string];
      this.profiler?.resume({ user, time, query });
    }
    for (const e of entries) {
      const at = this.stages.inputPosition;
      if (e.position <= at) continue; // applied before the checkpoint was written
      if (e.position !== at + 1) {
        throw new UsageError(
          `${journalPath(this.opts.statePath!)}: holds batch ${e.position} after the state's ${at}; not replayed`,
        );
      }
      const result = await this.applyClassified(e.records, e.position > profiled);
      if (e.key !== undefined) this.remember(e.key, result);
    }
    await this.checkpoint();
  }

  ready(): boolean {
    return !this.loading && this.broken === undefined;
  }

  /** The classifier, loaded once (a load that failed is tried again by the next batch that needs it). */
  private classifier(): Promise<Categorize> {
    this.categorize ??= loadCategorize().catch((e: unknown) => {
      this.categorize = undefined;
      throw e;
    });
    return this.categorize;
  }

  ingest(records: LogRecord[], metrics: ServiceMetrics, idempotencyKey?: string): Promise<IngestResult> {
    // One batch at a time, in arrival order: the stages are sequential by nature.
    const run = this.chain.then(async () => {
      if (this.broken)
        throw new Unavailable(`stopped taking batches: ${this.broken.message}; restart to recover`);
      const seen = idempotencyKey === undefined ? undefined : this.applied.get(idempotencyKey);
      if (seen !== undefined) return { ...seen, duplicate: true as const };
      return this.apply(records, metrics, idempotencyKey);
    });
    this.chain = run.catch(() => {});
    return run;
  }

  /**
   * The last {@link RECENT_KEYS} idempotency keys applied, with their results: a client retrying a request whose
   * answer it lost gets the first answer, and nothing is applied (or counted) twice. As JetStream's duplicate
   * window, it is bounded (by count); with a state file it is kept across restarts.
   */
  private readonly applied = new Map<string, BatchResult>();

  private remember(key: string, result: BatchResult): void {
    this.applied.set(key, result);
    if (this.applied.size > RECENT_KEYS) this.applied.delete(this.applied.keys().next().value!);
  }

  private async apply(
    records: LogRecord[],
    metrics: ServiceMetrics,
    key: string | undefined,
  ): Promise<BatchResult> {
    if (records.some((r) => r.category === undefined)) {
      const t = metrics.stageSeconds.startTimer({ stage: "classify" });
      const categorize = await this.classifier();
      for (const r of records) if (r.category === undefined) categorize(r);
      t();
    }
    if (this.journal) {
      // On disk before anything changes: a failure here leaves the stream as it was (the client gets an error).
      const t = metrics.stageSeconds.startTimer({ stage: "journal" });
      await this.journal.append({
        position: this.stages.inputPosition + 1,
        records,
        ...(key === undefined ? {} : { key }),
      });
      t();
    }
    let result: BatchResult;
    try {
      result = await this.applyClassified(records, true, metrics);
    } catch (e) {
      // The stages moved on but the release or the profiles did not: only a restart (a replay) can mend that.
      this.broken = e instanceof Error ? e : new Error(String(e));
      throw e;
    }
    metrics.recordsIn.inc(records.length);
    // Before a checkpoint, which must hold this batch's key (its journal entry, which does, is then gone).
    if (key !== undefined) this.remember(key, result);
    if (this.journal && this.journal.size >= (this.opts.checkpointBytes ?? 64 << 20)) {
      try {
        await this.checkpoint();
      } catch (e) {
        // The batch is applied and in the journal: answer it; the next batch tries the checkpoint again.
        process.stderr.write(
          `serve: checkpoint failed, the journal keeps growing: ${(e as Error).message}\n`,
        );
      }
    }
    return result;
  }

  /** Push classified records through the stages, write what they release, count it in the profiles. */
  private async applyClassified(
    records: readonly LogRecord[],
    profile: boolean,
    metrics?: ServiceMetrics,
  ): Promise<BatchResult> {
    const t1 = metrics?.stageSeconds.startTimer({ stage: "anonymize" });
    const released = this.stages.push(records);
    t1?.();
    if (released.length > 0) {
      metrics?.recordsOut.inc(released.length);
      const t = metrics?.stageSeconds.startTimer({ stage: "sink" });
      if (this.out) {
        const text = `${released.map((r) => ndjsonCodec.toLine(r, true)).join("\n")}\n`;
        const buf = Buffer.from(text);
        for (let at = 0; at < buf.length; )
          at += (await this.out.write(buf, at, buf.length - at)).bytesWritten;
      }
      if (profile) this.profiler?.update(released);
      t?.();
    }
    return { accepted: records.length, released: released.length };
  }

  /** Profiles, the released file and the state on disk, all at the current input position. */
  private async checkpoint(): Promise<void> {
    this.flushProfiles();
    await this.out?.sync();
    if (!this.journal) return;
    await this.journal.checkpoint({
      stream: this.stream,
      stages: this.stages.snapshot(),
      ...(this.out ? { releasedBytes: (await this.out.stat()).size } : {}),
      keys: [...this.applied],
    });
  }

  private flushProfiles(): void {
    this.profiler?.flush();
  }

  async observe(metrics: ServiceMetrics): Promise<void> {
    this.stages.counts().forEach((c, p) => {
      metrics.held.set({ partition: String(p) }, c["held events"] ?? 0);
      metrics.currentK.set({ partition: String(p) }, c["final k mean"] ?? 0);
    });
  }

  /** Drain, checkpoint (profiles, released file, state: a restart continues the stream), close files. */
  async close(): Promise<void> {
    await this.chain;
    try {
      if (this.broken === undefined) await this.checkpoint();
    } finally {
      this.store?.close();
      await this.out?.close();
      await this.journal?.close();
    }
  }
}

/** The runtime cannot take a batch now (503): it stopped after a failure, or is shutting down. */
export class Unavailable extends Error {
  override readonly name = "Unavailable";
}

/** Publishes each accepted batch to the cluster's ingest stream; the workers classify, anonymize and profile. */
export class ClusterRuntime implements Runtime {
  readonly name = "cluster";
  readonly releases = false;
  /** The run's classify shard count, read from its configuration on the first batch. */
  private shards: number | undefined;
  constructor(private readonly bus: Bus) {}

  ready(): boolean {
    return !this.bus.nc.isClosed();
  }

  async ingest(
    records: LogRecord[],
    metrics: ServiceMetrics,
    idempotencyKey?: string,
  ): Promise<IngestResult> {
    const t = metrics.stageSeconds.startTimer({ stage: "publish" });
    const id = idempotencyKey === undefined ? undefined : `http.${idempotencyKey}`;
    this.shards ??= (await readConfig(this.bus)).classifyShards;
    // The segments, then the commit: a request that fails half-way leaves no commit, so no stage reads any of it.
    // (The cluster's modules load here, not with the service: the embedded runtime runs without NATS' client.)
    const { publishBatch } = await import("../cluster/ingest.ts");
    const ack = await publishBatch(this.bus, { records }, this.shards, id);
    t();
    // A retried request JetStream dropped as a duplicate was counted when it first arrived.
    if (ack.duplicate) return { accepted: records.length, released: 0, duplicate: true };
    metrics.recordsIn.inc(records.length);
    return { accepted: records.length, released: 0 };
  }

  async observe(metrics: ServiceMetrics): Promise<void> {
    // Every stage's consumers: classify (ingest), the anonymizers (classified), the profile writer (released).
    const { CLASSIFIED_STREAM, INGEST_STREAM, RELEASED_STREAM } = await import("../cluster/topology.ts");
    for (const stream of [INGEST_STREAM, CLASSIFIED_STREAM, RELEASED_STREAM]) {
      for await (const info of this.bus.jsm.consumers.list(stream)) {
        metrics.lag.set({ consumer: info.name }, info.num_pending + info.num_ack_pending);
      }
    }
  }

  async close(): Promise<void> {
    await this.bus.close();
  }
}
