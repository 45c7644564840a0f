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
  clusterStatus,
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
    // A port found free can be taken by another process before the server binds it (PostgreSQL binds seconds
    // later, after initdb; other suites on the machine bind ports too): a start that fails, or whose server is
    // not the one listening, is retried on fresh ports. Three tries: a collision (~1e-3: a few ports bound at once
    // out of ~14,000) three times running is ~1e-9.
    for (let attempt = 1; ; attempt++) {
      cluster = clusterConfig(join(tempDir("querymask-cluster-"), "servers"), {
        natsPort: await freeLoopbackPort(),
        natsMonitorPort: await freeLoopbackPort(),
        pgPort: await freeLoopbackPort(),
      });
      try {
        await clusterUp(cluster);
        const down = clusterStatus(cluster).filter((s) => !s.running);
        if (down.length > 0) throw new Error(`${down.map((s) => s.name).join(", ")} not running`);
        break;
      } catch (e) {
        await clusterDown(cluster).catch(() => {});
        if (attempt === 3) throw e;
      }
    }
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
