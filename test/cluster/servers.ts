/**
 * The servers a cluster test needs, started by the project's own code on free loopback ports in a temporary
 * directory before the file's tests and stopped after them; `skip` says why not when a package is missing.
 */
import { join } from "node:path";
import { after, before } from "node:test";
import {
  type ClusterConfig,
  clusterConfig,
  clusterDown,
  clusterUp,
  freeLoopbackPort,
  missingPackages,
} from "../../src/cluster/servers.ts";
import { tempDir } from "../helpers/tmp.ts";

const missing = missingPackages();
export const skip: string | false =
  missing.length > 0 ? `needs ${missing.join(", ")} (scripts/setup.sh installs them)` : false;

/**
 * Registers before/after hooks (`setup` runs in the same hook, once the servers are up); the returned getter gives
 * the running servers' configuration inside tests.
 */
export function testServers(setup?: (cluster: ClusterConfig) => void | Promise<void>): () => ClusterConfig {
  let cluster: ClusterConfig | undefined;
  before(async () => {
    if (skip) return;
    cluster = clusterConfig(join(tempDir("querymask-cluster-"), "servers"), {
      natsPort: await freeLoopbackPort(),
      natsMonitorPort: await freeLoopbackPort(),
      pgPort: await freeLoopbackPort(),
    });
    await clusterUp(cluster);
    await setup?.(cluster);
  });
  after(async () => {
    if (cluster) await clusterDown(cluster);
  });
  return () => {
    if (!cluster) throw new Error("the cluster's servers are not running");
    return cluster;
  };
}
