/**
 * The two servers of the distributed deployment, run by the project itself: a NATS server with JetStream and a
 * PostgreSQL cluster, both bound to loopback on the project's own ports, with their data under one directory of
 * the project's (default `.cache/cluster/`). Nothing here relies on a server a person started by hand: `up` starts
 * what is not running, `down` stops what `up` started, `status` says what runs where.
 *
 * Binaries come from Debian's packages `nats-server` and `postgresql` (`scripts/setup.sh` installs them).
 * PostgreSQL refuses to run as root, so when we are root its data directory belongs to the `postgres` system
 * user and its programs run as that user; the directory chain is made traversable for it.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createConnection, createServer } from "node:net";
import { dirname, join, resolve } from "node:path";
import { UsageError } from "../util/errors.ts";

export interface ClusterConfig {
  /** Directory holding both servers' data, logs and pid files. */
  readonly dir: string;
  readonly natsPort: number;
  readonly natsMonitorPort: number;
  readonly pgPort: number;
  /** Always loopback unless a person says otherwise. */
  readonly host: string;
}

/** The project's own ports (not the servers' well-known ones, so a system NATS or PostgreSQL can run beside). */
export const DEFAULT_CLUSTER: Omit<ClusterConfig, "dir"> = {
  natsPort: 14222,
  natsMonitorPort: 18222,
  pgPort: 15433,
  host: "127.0.0.1",
};

export const PG_DATABASE = "querymask";
export const PG_USER = "querymask";

export interface ServerState {
  readonly name: "nats" | "postgres";
  readonly running: boolean;
  readonly pid?: number;
  readonly url: string;
  readonly dataDir: string;
}

/** Where nats-server lives, or undefined. */
export function findNatsServer(): string | undefined {
  for (const p of ["/usr/sbin/nats-server", "/usr/bin/nats-server", "/usr/local/bin/nats-server"]) {
    if (existsSync(p)) return p;
  }
  const r = spawnSync("sh", ["-c", "command -v nats-server"], { encoding: "utf8" });
  const p = r.stdout.trim();
  return p === "" ? undefined : p;
}

/** The bin directory of the newest installed PostgreSQL, or undefined. */
export function findPostgresBin(): string | undefined {
  const base = "/usr/lib/postgresql";
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base)
    .filter((v) => existsSync(join(base, v, "bin", "pg_ctl")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(base, versions[0], "bin");
}

/** What is missing to run the cluster, as Debian package names. */
export function missingPackages(): string[] {
  const missing: string[] = [];
  if (findNatsServer() === undefined) missing.push("nats-server");
  if (findPostgresBin() === undefined) missing.push("postgresql");
  return missing;
}

/** Install the missing Debian packages (needs root); a clear error otherwise. */
export function installMissing(log: (line: string) => void = () => {}): void {
  const missing = missingPackages();
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0) {
    throw new UsageError(
      `missing ${missing.join(", ")}: run scripts/setup.sh as root (apt-get install ${missing.join(" ")})`,
    );
  }
  log(`installing ${missing.join(", ")} with apt-get (once)`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  for (const args of [
    ["update", "-qq"],
    ["install", "-y", "-qq", "--no-install-recommends", ...missing],
  ]) {
    const r = spawnSync("apt-get", args, { stdio: ["ignore", "ignore", "inherit"], env });
    if (r.status !== 0) throw new Error(`apt-get ${args[0]} failed (exit ${r.status})`);
  }
}

const natsDir = (c: ClusterConfig) => join(c.dir, "nats");
const pgDir = (c: ClusterConfig) => join(c.dir, "pg");
const isRoot = () => process.getuid?.() === 0;

export function natsUrl(c: ClusterConfig): string {
  return `nats://${c.host}:${c.natsPort}`;
}

export function pgUrl(c: ClusterConfig): string {
  return `postgres://${PG_USER}@${c.host}:${c.pgPort}/${PG_DATABASE}`;
}

function readPid(file: string): number | undefined {
  if (!existsSync(file)) return undefined;
  // PostgreSQL's postmaster.pid holds the pid on its first line; nats-server's pid file holds only the pid.
  const pid = Number(readFileSync(file, "utf8").split("\n")[0]);
  return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
}

function alive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Resolves true once something accepts TCP connections on host:port, false after `ms`. */
export async function waitForPort(host: string, port: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const ok = await new Promise<boolean>((res) => {
      const s = createConnection({ host, port });
      s.once("connect", () => {
        s.destroy();
        res(true);
      });
      s.once("error", () => res(false));
    });
    if (ok) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

/** Run a PostgreSQL program, as the `postgres` user when we are root. */
function pgRun(bin: string, prog: string, args: string[]): void {
  const cmd = join(bin, prog);
  const r = isRoot()
    ? spawnSync("runuser", ["-u", "postgres", "--", cmd, ...args], { encoding: "utf8" })
    : spawnSync(cmd, args, { encoding: "utf8" });
  if (r.status !== 0) {
    throw new Error(`${prog} failed (exit ${r.status}): ${(r.stderr || r.stdout || "").trim().slice(-2000)}`);
  }
}

/** Make `dir` and its parents traversable by the postgres user, and `dir` its own. */
function preparePgDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (!isRoot()) return;
  const pg = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" });
  const gid = spawnSync("id", ["-g", "postgres"], { encoding: "utf8" });
  const uid = Number(pg.stdout.trim());
  if (!Number.isInteger(uid))
    throw new Error("the postgres system user is missing (is postgresql installed?)");
  chownSync(dir, uid, Number(gid.stdout.trim()));
  chmodSync(dir, 0o700);
  // Every parent needs search permission for postgres (temporary directories are 0700).
  for (let p = dirname(dir); p !== dirname(p); p = dirname(p)) {
    const r = spawnSync("stat", ["-c", "%a", p], { encoding: "utf8" });
    const mode = Number.parseInt(r.stdout.trim(), 8);
    if (Number.isInteger(mode) && (mode & 0o001) === 0) chmodSync(p, mode | 0o001);
  }
}

async function startNats(c: ClusterConfig): Promise<void> {
  const bin = findNatsServer();
  if (bin === undefined) throw new UsageError("nats-server is not installed: run scripts/setup.sh");
  const dir = natsDir(c);
  const pidFile = join(dir, "nats.pid");
  if (alive(readPid(pidFile))) return;
  mkdirSync(join(dir, "store"), { recursive: true });
  const child: ChildProcess = spawn(
    bin,
    [
      "--jetstream",
      "--store_dir",
      join(dir, "store"),
      "--addr",
      c.host,
      "--port",
      String(c.natsPort),
      "--http_port",
      String(c.natsMonitorPort),
      "--pid",
      pidFile,
      "--log",
      join(dir, "nats.log"),
    ],
    { detached: true, stdio: "ignore" },
  );
  child.unref();
  if (!(await waitForPort(c.host, c.natsPort, 10_000))) {
    throw new Error(`nats-server did not start on ${c.host}:${c.natsPort} (see ${join(dir, "nats.log")})`);
  }
}

async function startPostgres(c: ClusterConfig): Promise<void> {
  const bin = findPostgresBin();
  if (bin === undefined) throw new UsageError("PostgreSQL is not installed: run scripts/setup.sh");
  const dir = pgDir(c);
  const data = join(dir, "data");
  if (alive(readPid(join(data, "postmaster.pid")))) return;
  preparePgDir(dir);
  if (!existsSync(join(data, "PG_VERSION"))) {
    pgRun(bin, "initdb", ["-D", data, "-U", PG_USER, "-A", "trust", "-E", "UTF8", "--no-locale"]);
  }
  pgRun(bin, "pg_ctl", [
    "-D",
    data,
    "-l",
    join(dir, "postgres.log"),
    "-w",
    "-t",
    "30",
    "-o",
    `-p ${c.pgPort} -k ${dir} -c listen_addresses=${c.host} -c fsync=on`,
    "start",
  ]);
  // The project's database, once.
  if (
    psql(bin, c, `SELECT 1 FROM pg_database WHERE datname='${PG_DATABASE}'`, "-tAc").stdout.trim() !== "1"
  ) {
    const r = psql(bin, c, `CREATE DATABASE ${PG_DATABASE}`, "-c");
    if (r.status !== 0) throw new Error(`could not create database ${PG_DATABASE}: ${r.stderr.trim()}`);
  }
}

/** One SQL statement through psql against the server's `postgres` database. */
function psql(bin: string, c: ClusterConfig, sql: string, flag: "-c" | "-tAc") {
  const args = ["-h", c.host, "-p", String(c.pgPort), "-U", PG_USER, "-d", "postgres", flag, sql];
  return spawnSync(join(bin, "psql"), args, { encoding: "utf8" });
}

/** Start both servers (what is not already running); install missing packages first when allowed. */
export async function clusterUp(
  c: ClusterConfig,
  opts: { install?: boolean; log?: (l: string) => void } = {},
): Promise<ServerState[]> {
  if (opts.install) installMissing(opts.log);
  mkdirSync(c.dir, { recursive: true });
  await startNats(c);
  await startPostgres(c);
  return clusterStatus(c);
}

/** Stop both servers if running; with `wipe`, delete their data too. */
export async function clusterDown(c: ClusterConfig, opts: { wipe?: boolean } = {}): Promise<void> {
  const natsPid = readPid(join(natsDir(c), "nats.pid"));
  if (alive(natsPid)) {
    process.kill(natsPid as number, "SIGTERM");
    await waitUntil(() => !alive(natsPid), 10_000);
  }
  const bin = findPostgresBin();
  const data = join(pgDir(c), "data");
  if (bin !== undefined && alive(readPid(join(data, "postmaster.pid")))) {
    pgRun(bin, "pg_ctl", ["-D", data, "-m", "fast", "-w", "-t", "30", "stop"]);
  }
  if (opts.wipe) rmSync(c.dir, { recursive: true, force: true });
}

async function waitUntil(cond: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}

export function clusterStatus(c: ClusterConfig): ServerState[] {
  const natsPid = readPid(join(natsDir(c), "nats.pid"));
  const pgPid = readPid(join(pgDir(c), "data", "postmaster.pid"));
  const nats: ServerState = {
    name: "nats",
    running: alive(natsPid),
    url: natsUrl(c),
    dataDir: natsDir(c),
    ...(alive(natsPid) ? { pid: natsPid } : {}),
  };
  const pg: ServerState = {
    name: "postgres",
    running: alive(pgPid),
    url: pgUrl(c),
    dataDir: pgDir(c),
    ...(alive(pgPid) ? { pid: pgPid } : {}),
  };
  return [nats, pg];
}

/** The command-line flags that point a `querymask cluster …` process at these servers. */
export function serverArgs(c: ClusterConfig): string[] {
  return [
    "--dir",
    c.dir,
    "--nats-port",
    String(c.natsPort),
    "--nats-monitor-port",
    String(c.natsMonitorPort),
    "--pg-port",
    String(c.pgPort),
  ];
}

/** A TCP port free on loopback right now (for tests and benchmarks that start their own servers). */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const a = s.address();
      s.close(() => resolve(typeof a === "object" && a ? a.port : 0));
    });
  });
}

/** The configuration for a data directory, with the project's default ports unless given. */
export function clusterConfig(dir: string, ports: Partial<Omit<ClusterConfig, "dir">> = {}): ClusterConfig {
  return { ...DEFAULT_CLUSTER, ...ports, dir: resolve(dir) };
}
