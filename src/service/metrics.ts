/**
 * The service's Prometheus metrics (prom-client), one registry per service: records in and out, rejected
 * requests by reason, per-partition held events and current k, consumer lag (cluster), per-stage latency.
 */
import { Counter, Gauge, Histogram, Registry } from "prom-client";

export interface ServiceMetrics {
  readonly registry: Registry;
  readonly recordsIn: Counter;
  readonly recordsOut: Counter;
  readonly rejects: Counter<"reason">;
  readonly held: Gauge<"partition">;
  readonly currentK: Gauge<"partition">;
  readonly lag: Gauge<"consumer">;
  readonly stageSeconds: Histogram<"stage">;
}

/**
 * `releases`: the runtime releases records itself (embedded). In a cluster the anonymize workers release them,
 * so the service has no count of its own and does not export `querymask_records_out_total` (a counter stuck
 * at 0 would read as "nothing released"); the consumers' lag shows the workers' progress.
 */
export function createMetrics(releases = true): ServiceMetrics {
  const registry = new Registry();
  const registers = [registry];
  return {
    registry,
    recordsIn: new Counter({
      name: "querymask_records_in_total",
      help: "records accepted by /ingest",
      registers,
    }),
    recordsOut: new Counter({
      name: "querymask_records_out_total",
      help: "records released",
      registers: releases ? registers : [],
    }),
    rejects: new Counter({
      name: "querymask_rejected_requests_total",
      help: "ingest requests refused, by reason",
      labelNames: ["reason"],
      registers,
    }),
    held: new Gauge({
      name: "querymask_held_events",
      help: "events held by the anonymizer, per partition",
      labelNames: ["partition"],
      registers,
    }),
    currentK: new Gauge({
      name: "querymask_current_k",
      help: "mean k over the anonymizer's buckets, per partition",
      labelNames: ["partition"],
      registers,
    }),
    lag: new Gauge({
      name: "querymask_consumer_lag",
      help: "messages not yet delivered to a JetStream consumer (cluster runtime)",
      labelNames: ["consumer"],
      registers,
    }),
    stageSeconds: new Histogram({
      name: "querymask_stage_seconds",
      help: "time per request in each stage",
      labelNames: ["stage"],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers,
    }),
  };
}
