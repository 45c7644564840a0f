/**
 * CPU and traffic of the cluster bench's processes (bench/cluster.bench.ts), read from /proc and from
 * nats-server's monitoring endpoint.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ClusterConfig } from "../src/cluster/servers.ts";

/**
 * CPU accounting per process. Each worker writes its whole life's CPU (process.resourceUsage) to a file when it
 * exits, through a preloaded module; the bench reads each worker's CPU from /proc just before ingest starts, so
 * the difference is what the stream cost it (start-up — tsx, the classifier's load — is not throughput). The
 * servers are read from /proc before and after: nats-server's own ticks, PostgreSQL's postmaster with its live
 * children and the children it has reaped (connections that closed).
 */
const TICK_S = 0.01; // getconf CLK_TCK = 100 on Linux
export function procCpuSeconds(pid: number, withChildren = false): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // fields after the name: state(0) ppid(1) … utime(11) stime(12) cutime(13) cstime(14)
    const own = Number(f[11]) + Number(f[12]);
    return (own + (withChildren ? Number(f[13]) + Number(f[14]) : 0)) * TICK_S;
  } catch {
    return 0;
  }
}
function childPids(ppid: number): number[] {
  const out: number[] = [];
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === ppid) out.push(Number(d));
    } catch {
      // gone
    }
  }
  return out;
}
function pidFile(path: string): number {
  return Number(readFileSync(path, "utf8").split("\n")[0]);
}
/** nats-server's and PostgreSQL's CPU seconds so far, of the servers of `cluster`. */
export function serverCpu(cluster: ClusterConfig): { nats: number; postgres: number } {
  const natsPid = pidFile(join(cluster.dir, "nats", "nats.pid"));
  const pgPid = pidFile(join(cluster.dir, "pg", "data", "postmaster.pid"));
  let postgres = procCpuSeconds(pgPid, true);
  for (const c of childPids(pgPid)) postgres += procCpuSeconds(c);
  return { nats: procCpuSeconds(natsPid), postgres };
}

/** nats-server's bytes and messages out so far (its monitoring endpoint). */
export async function natsOut(
  cluster: ClusterConfig,
): Promise<{ bytes: number; msgs: number; inBytes: number }> {
  const v = (await (await fetch(`http://127.0.0.1:${cluster.natsMonitorPort}/varz`)).json()) as {
    out_bytes: number;
    out_msgs: number;
    in_bytes: number;
  };
  return { bytes: v.out_bytes, msgs: v.out_msgs, inBytes: v.in_bytes };
}
