/**
 * The embedded service as `querymask serve --state … --released … --db …` runs it, without the classifier preload
 * (the crash test sends classified records): started by serve-crash.test.ts, killed with SIGKILL at random points.
 * argv: state released db port-file. Prints nothing; writes its URL to port-file once listening.
 */
import { writeFileSync } from "node:fs";
import { EmbeddedRuntime } from "../../src/service/runtime.ts";
import { startService } from "../../src/service/server.ts";

const [state, released, db, portFile] = process.argv.slice(2) as [string, string, string, string];
const CONFIG = { partitions: 2, method: "swap", params: { k: 3 }, seed: 4 };

const runtime = await EmbeddedRuntime.create(CONFIG, {
  statePath: state,
  releasedPath: released,
  db,
  // Small, so that kills also land around checkpoints, and profiles are written ahead of the checkpoint.
  checkpointBytes: 40_000,
  profileFlushRecords: 500,
});
const svc = await startService(runtime, { port: 0 });
writeFileSync(portFile, svc.url);
process.once("SIGTERM", () => {
  void svc.shutdown().then(() => process.exit(0));
});
