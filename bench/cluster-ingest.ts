/**
 * The cluster bench's ingest hop (`QM_BENCH_INGEST=1 npm run bench -- cluster`): what nats-server spends carrying
 * the ingest batches to the classify shards, both ways of splitting them.
 */
import { openBus, publish, workConsumer } from "../src/cluster/bus.ts";
import { readSegment } from "../src/cluster/classify-worker.ts";
import { writeConfig } from "../src/cluster/config.ts";
import { ingest } from "../src/cluster/ingest.ts";
import { type ClusterConfig, natsUrl } from "../src/cluster/servers.ts";
import { INGEST_STREAM, INGEST_SUBJECT, resetStreams } from "../src/cluster/topology.ts";
import { decodeCommit, encodeSegments } from "../src/cluster/wire.ts";
import type { LogRecord } from "../src/log/record.ts";
import { natsOut, serverCpu } from "./cluster-cpu.ts";

/** What a run of the hop reads: the running servers, the log, its query events and the ingest batch size. */
export interface IngestRun {
  readonly cluster: ClusterConfig;
  readonly records: LogRecord[];
  readonly events: number;
  readonly batchSize: number;
}

/**
 * The ingest hop alone: the log published in batches and read by `shards` in-process readers, (a) "every shard
 * reads every batch": each batch one message carrying every shard's segment, one durable consumer per shard on
 * it (what ran before one subject per shard); (b) "own segment": `ingest` (segments on qm.segment.<s>, then a
 * commit), each shard's consumer reading the commits and fetching its own segment. nats-server's CPU and bytes
 * out per query event; the readers' CPU is the bench process's and not counted.
 */
export async function ingestHop(
  run: IngestRun,
  shards: number,
  scheme: "every shard reads every batch" | "own segment",
) {
  const { cluster, records, events, batchSize } = run;
  const setup = await openBus(natsUrl(cluster), "bench-ingest");
  await resetStreams(setup.jsm);
  await setup.close();
  const b = await openBus(natsUrl(cluster), "bench-ingest");
  await writeConfig(b, {
    version: 2,
    partitions: 1,
    classifyShards: shards,
    method: "swap",
    params: { k: 3 },
    seed: 1,
    profileDepth: 1,
  });
  const batches = Math.ceil(records.length / batchSize);
  const readers = await Promise.all(
    Array.from({ length: shards }, async (_, s) => {
      const c = await workConsumer(b, INGEST_STREAM, `classify_${s}`, INGEST_SUBJECT);
      const messages = await c.consume({ max_messages: 2 });
      // Wrapped: an async function returning the reading promise itself would wait for it.
      const done = (async () => {
        let n = 0;
        for await (const m of messages) {
          if (scheme === "own segment") await readSegment(b, s, decodeCommit(m.data, shards).segments[s]!);
          m.ack();
          if (++n === batches) break;
        }
      })();
      return { done };
    }),
  );
  const n0 = serverCpu(cluster).nats;
  const o0 = await natsOut(cluster);
  if (scheme === "own segment")
    await ingest(
      b,
      (async function* () {
        yield records;
      })(),
      { batchSize },
    );
  else {
    const inflight: Promise<unknown>[] = [];
    for (let i = 0, n = 1; i < records.length; i += batchSize, n++) {
      const parts = encodeSegments(records.slice(i, i + batchSize), shards).filter((g) => g !== undefined);
      const one = new Uint8Array(parts.reduce((a, g) => a + g.length, 0));
      let at = 0;
      for (const g of parts) {
        one.set(g, at);
        at += g.length;
      }
      inflight.push(publish(b, INGEST_SUBJECT, one, `i.${n}`));
      if (inflight.length >= 32) await Promise.all(inflight.splice(0));
    }
    await Promise.all(inflight);
  }
  await Promise.all(readers.map((r) => r.done));
  const o1 = await natsOut(cluster);
  const cpuS = serverCpu(cluster).nats - n0;
  await b.close();
  return {
    "nats-server CPU µs per query event": Math.round((cpuS / events) * 1e7) / 10,
    "nats-server bytes out per query event": Math.round((o1.bytes - o0.bytes) / events),
    "nats-server messages out": o1.msgs - o0.msgs,
  };
}
