/**
 * `querymask serve`: the pipeline as an HTTP service (src/service). Embedded by default (one process: classify,
 * anonymize, released log file, SQLite profiles, state saved on shutdown and restored on start); `--cluster`
 * publishes to a running cluster's ingest stream instead (start workers with `querymask cluster worker …`).
 */
import type { Command } from "commander";
import { writeConfig } from "../../cluster/config.ts";
import { clusterConfig, natsUrl } from "../../cluster/servers.ts";
import { streamingMethods as streaming, streamingMethod } from "../../methods/registry.ts";
import { journalPath } from "../../service/journal.ts";
import { ClusterRuntime, EmbeddedRuntime, type Runtime } from "../../service/runtime.ts";
import { startService } from "../../service/server.ts";
import { NATS_PACKAGES, requirePeers } from "../missing-package.ts";
import { addParamFlags, givenParamsWithJson } from "../param-flags.ts";
import { checkOutputs, DEFAULT_SEED, intArg, parseSeed } from "../shared.ts";

interface ServeFlags {
  host: string;
  port: number;
  maxBody: number;
  grace: number;
  method: string;
  params?: string;
  quiet?: boolean;
  json?: boolean;
  [param: string]: unknown;
  seed: number;
  partitions: number;
  released?: string;
  db?: string;
  state?: string;
  profileDepth: number;
  cluster?: boolean;
  classifyShards: number;
  dir: string;
  natsPort: number;
}

/** Flags of serve itself, which a method parameter's flag must not take. */
const RESERVED = new Set(
  "host port max-body grace method params seed partitions released db state profile-depth cluster classify-shards dir nats-port quiet json help".split(
    " ",
  ),
);

export function register(program: Command): void {
  const cmd = program
    .command("serve")
    .description("run the pipeline as an HTTP service: POST /ingest, GET /healthz, /readyz, /metrics")
    .option("--host <addr>", "address to bind (loopback unless you say otherwise)", "127.0.0.1")
    .option("--port <n>", "port", intArg(0), 8080)
    .option("--max-body <bytes>", "largest accepted request body", intArg(1), 4 * 1024 * 1024)
    .option(
      "--grace <ms>",
      "on shutdown, /readyz answers 503 this long while requests are still taken",
      intArg(0),
      2000,
    )
    .option(
      "-m, --method <name>",
      `streaming method: ${streaming.map((m) => m.name).join(", ")}`,
      streaming[0]?.name,
    )
    .option("--params <json>", "method parameters as JSON, e.g. '{\"k\":3}' (or as flags: --k 3)")
    .option("--seed <n>", "random seed", parseSeed, DEFAULT_SEED)
    .option("--partitions <n>", "anonymizer partitions", intArg(1), 1)
    .option("--released <file>", "append released records here (NDJSON)")
    .option("--db <file>", "SQLite profile store")
    .option("--state <file>", "save the stream's state here on shutdown and resume from it on start")
    .option("--profile-depth <n>", "ODP depth of the profiles", intArg(1), 1)
    .option("--cluster", "publish to the cluster's ingest stream instead of running the pipeline here")
    .option(
      "--classify-shards <n>",
      "classify shards of a cluster run it starts (with --cluster)",
      intArg(1),
      1,
    )
    .option("--dir <dir>", "cluster data directory (with --cluster)", ".cache/cluster")
    .option("--nats-port <n>", "cluster NATS port (with --cluster)", intArg(1), 14222)
    .option("-q, --quiet", "no informational lines on stderr")
    .option("--json", "print where it listens as JSON on stdout ({ runtime, url })");
  addParamFlags(cmd, streaming, "method", "method", RESERVED);
  cmd
    .addHelpText(
      "after",
      "\nExamples:\n  querymask serve --port 8080 --k 3 --released released.ndjson --db profiles.sqlite --state state.json\n  curl -s --data-binary @batch.ndjson localhost:8080/ingest",
    )
    .action(async (f: ServeFlags) => {
      const say = (line: string) => {
        if (!f.quiet) process.stderr.write(`serve: ${line}\n`);
      };
      const entry = streamingMethod(f.method);
      const params = givenParamsWithJson(entry, streaming, f, f.params, "method");
      entry.params.parse(params); // refuse bad parameters before anything starts
      const config = { partitions: f.partitions, method: f.method, params, seed: f.seed };
      let runtime: Runtime;
      if (f.cluster) {
        await requirePeers(NATS_PACKAGES, "serve --cluster (the cluster's message bus)");
        const { openBus } = await import("../../cluster/bus.ts");
        const bus = await openBus(natsUrl(clusterConfig(f.dir, { natsPort: f.natsPort })), "serve");
        if ((await bus.state.get("config")) === null) {
          await writeConfig(bus, {
            version: 2,
            ...config,
            classifyShards: f.classifyShards,
            profileDepth: f.profileDepth,
          });
        }
        runtime = new ClusterRuntime(bus);
      } else {
        await checkOutputs(
          [],
          [
            f.released === undefined ? undefined : { path: f.released, role: "released log" },
            f.state === undefined ? undefined : { path: f.state, role: "state file" },
            f.state === undefined ? undefined : { path: journalPath(f.state), role: "state journal" },
            f.db === undefined ? undefined : { path: f.db, role: "profile database" },
          ],
        );
        runtime = await EmbeddedRuntime.create(config, {
          profileDepth: f.profileDepth,
          preloadClassifier: true,
          ...(f.released ? { releasedPath: f.released } : {}),
          ...(f.db ? { db: f.db } : {}),
          ...(f.state ? { statePath: f.state } : {}),
        });
      }
      let service: Awaited<ReturnType<typeof startService>>;
      try {
        service = await startService(runtime, {
          host: f.host,
          port: f.port,
          maxBody: f.maxBody,
          graceMs: f.grace,
        });
      } catch (e) {
        await runtime.close();
        throw e;
      }
      say(`${runtime.name} runtime listening on ${service.url}`);
      if (f.json) process.stdout.write(`${JSON.stringify({ runtime: runtime.name, url: service.url })}\n`);
      await new Promise<void>((resolve) => {
        const stop = () => {
          say("shutting down (draining requests in flight)");
          service.shutdown().then(resolve, (e: unknown) => {
            process.stderr.write(`serve: ${e instanceof Error ? e.message : String(e)}\n`);
            process.exitCode = 1;
            resolve();
          });
        };
        process.once("SIGTERM", stop);
        process.once("SIGINT", stop);
      });
      say("stopped");
    });
}
