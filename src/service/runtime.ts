/**
 * Where an accepted batch goes. The embedded runtime (default) runs the pipeline in this process: classify,
 * the partitioned stages, the released log appended to a file, profiles in SQLite, and the stages' state saved
 * on shutdown and restored on start. The cluster runtime publishes the batch to the cluster's ingest stream
 * (workers do the rest). Both take a batch whole or not at all.
 */
import {
  createWriteStream,
  existsSync,
  readFileSync,
  renameSync,
  type WriteStream,
  writeFileSync,
} from "node:fs";
import { type Categorize, loadCategorize } from "../classify/categorize.ts";
import type { Bus } from "../cluster/bus.ts";
import { warmUp } from "../cluster/classify-worker.ts";
import { readConfig } from "../cluster/config.ts";
import { type PartitionedConfig, PartitionedStages } from "../cluster/embedded.ts";
import { publishBatch } from "../cluster/ingest.ts";
import { CLASSIFIED_STREAM, INGEST_STREAM, RELEASED_STREAM } from "../cluster/topology.ts";
import { ndjsonCodec } from "../log/formats/ndjson.ts";
import type { LogRecord } from "../log/record.ts";
import { Profiler } from "../profile/profiler.ts";
import type { SqliteProfileStore } from "../profile/sqlite-store.ts";
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
  /** The stages' state: restored on start when present, written (atomically) on close. */
  readonly statePath?: string;
  readonly profileDepth?: number;
  /**
   * Load (and warm up) the classifier at start, in the background, and answer /readyz 503 until it is loaded
   * (`querymask serve` does): otherwise the first unclassified batch waits for the load (~2–20 s) while /readyz
   * says ready. A load that fails makes the runtime ready anyway: classified batches need no classifier, an
   * unclassified one gets the reason.
   */
  readonly preloadClassifier?: boolean;
}

const RECENT_KEYS = 10_000;

export class EmbeddedRuntime implements Runtime {
  readonly name = "embedded";
  readonly releases = true;
  private categorize: Promise<Categorize> | undefined;
  private loading = false;
  private chain: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly stages: PartitionedStages,
    private readonly opts: EmbeddedOptions,
    private readonly out: WriteStream | undefined,
    private readonly store: SqliteProfileStore | undefined,
    private readonly profiler: Profiler | undefined,
  ) {}

  static async create(config: PartitionedConfig, opts: EmbeddedOptions = {}): Promise<EmbeddedRuntime> {
    const snapshot =
      opts.statePath && existsSync(opts.statePath) ? readFileSync(opts.statePath, "utf8") : undefined;
    const stages = await PartitionedStages.create(config, snapshot, opts.statePath);
    const out = opts.releasedPath ? createWriteStream(opts.releasedPath, { flags: "a" }) : undefined;
    // Loaded only with a store: better-sqlite3 is an optional peer (src/cli/missing-package.ts).
    const store = opts.db
      ? new (await import("../profile/sqlite-store.ts")).SqliteProfileStore(opts.db)
      : undefined;
    const profiler = store ? new Profiler(store, opts.profileDepth ?? 1, 1 << 16) : undefined;
    const runtime = new EmbeddedRuntime(stages, opts, out, store, profiler);
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

  ready(): boolean {
    return !this.loading;
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
      const seen = idempotencyKey === undefined ? undefined : this.applied.get(idempotencyKey);
      if (seen !== undefined) return { ...seen, duplicate: true as const };
      const result = await this.apply(records, metrics);
      if (idempotencyKey !== undefined) this.remember(idempotencyKey, result);
      return result;
    });
    this.chain = run.catch(() => {});
    return run;
  }

  /**
   * The last {@link RECENT_KEYS} idempotency keys applied, with their results: a client retrying a request whose
   * answer it lost gets the first answer, and nothing is applied (or counted) twice. As JetStream's duplicate
   * window, it is bounded (by count here) and not kept across restarts.
   */
  private readonly applied = new Map<string, IngestResult>();

  private remember(key: string, result: IngestResult): void {
    this.applied.set(key, result);
    if (this.applied.size > RECENT_KEYS) this.applied.delete(this.applied.keys().next().value!);
  }

  private async apply(records: LogRecord[], metrics: ServiceMetrics): Promise<IngestResult> {
    if (records.some((r) => r.category === undefined)) {
      const t = metrics.stageSeconds.startTimer({ stage: "classify" });
      const categorize = await this.classifier();
      for (const r of records) if (r.category === undefined) categorize(r);
      t();
    }
    const t1 = metrics.stageSeconds.startTimer({ stage: "anonymize" });
    const released = this.stages.push(records);
    t1();
    metrics.recordsIn.inc(records.length);
    await this.emit(released, metrics);
    return { accepted: records.length, released: released.length };
  }

  private async emit(released: LogRecord[], metrics: ServiceMetrics): Promise<void> {
    if (released.length === 0) return;
    metrics.recordsOut.inc(released.length);
    const t = metrics.stageSeconds.startTimer({ stage: "sink" });
    if (this.out) {
      const text = released.map((r) => ndjsonCodec.toLine(r, true)).join("\n");
      if (!this.out.write(`${text}\n`)) await new Promise<void>((r) => this.out!.once("drain", () => r()));
    }
    this.profiler?.update(released);
    t();
  }

  async observe(metrics: ServiceMetrics): Promise<void> {
    this.stages.counts().forEach((c, p) => {
      metrics.held.set({ partition: String(p) }, c["held events"] ?? 0);
      metrics.currentK.set({ partition: String(p) }, c["final k mean"] ?? 0);
    });
  }

  /** Drain, save the stages' state (so a restart continues the stream), flush profiles, close files. */
  async close(): Promise<void> {
    await this.chain;
    if (this.opts.statePath) {
      const tmp = `${this.opts.statePath}.${process.pid}.tmp`;
      writeFileSync(tmp, this.stages.snapshot());
      renameSync(tmp, this.opts.statePath);
    }
    this.profiler?.flush();
    this.store?.close();
    if (this.out)
      await new Promise<void>((res, rej) => this.out!.end((e?: Error | null) => (e ? rej(e) : res())));
  }
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
    const ack = await publishBatch(this.bus, { records }, this.shards, id);
    t();
    // A retried request JetStream dropped as a duplicate was counted when it first arrived.
    if (ack.duplicate) return { accepted: records.length, released: 0, duplicate: true };
    metrics.recordsIn.inc(records.length);
    return { accepted: records.length, released: 0 };
  }

  async observe(metrics: ServiceMetrics): Promise<void> {
    // Every stage's consumers: classify (ingest), the anonymizers (classified), the profile writer (released).
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
