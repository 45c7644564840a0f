/**
 * Whole-process measurement for the CLI benches: dist/ rebuilt when a source is newer (what bin/querymask.js
 * checks, so a stale dist/ would otherwise run the TypeScript through tsx), and a child's CPU (user + system),
 * wall time and peak RSS from /usr/bin/time (benches that need it skip without it).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./shared-aol.ts";

const BUILT = join(ROOT, "dist/cli/main.js");
/** What a user types (`npx querymask` runs it too): start-up includes bin's check that dist/ is fresh. */
export const CLI = join(ROOT, "bin/querymask.js");

/** Exits 0 with a message when /usr/bin/time, which reads a child's CPU and peak RSS, is missing. */
export function timeOrSkip(name: string): void {
  if (existsSync("/usr/bin/time")) return;
  console.log(
    `${name} skipped: /usr/bin/time is needed to read a child's CPU time and peak RSS (apt-get install time)`,
  );
  process.exit(0);
}

/** Rebuild dist/ when a source file is newer than it (what bin/querymask.js checks too). */
export function ensureBuilt(): void {
  const built = statSync(BUILT, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  const src = join(ROOT, "src");
  const stale = readdirSync(src, { recursive: true }).some(
    (f) => statSync(join(src, String(f))).mtimeMs > built,
  );
  if (!stale) return;
  console.log("building dist/ …");
  const r = spawnSync(process.execPath, ["scripts/build.mjs"], { cwd: ROOT, stdio: "inherit" });
  if (r.status !== 0) throw new Error("npm run build failed");
}

export interface Measured {
  cpu: number;
  wall: number;
  rssMiB: number;
  stdout: string;
}

/** Run a program under /usr/bin/time: CPU, wall and peak RSS of the child. */
export function timed(command: string[], cwd?: string): Measured {
  const times = join(tmpdir(), `qm-time-${process.pid}.txt`);
  const r = spawnSync("/usr/bin/time", ["-o", times, "-f", "%U %S %e %M", ...command], {
    encoding: "utf8",
    maxBuffer: 1 << 26,
    ...(cwd ? { cwd } : {}),
  });
  if (r.status !== 0) throw new Error(`${command.join(" ")} failed: ${r.stderr}`);
  const [user, sys, wall, kb] = readFileSync(times, "utf8").trim().split("\n").at(-1)!.split(" ").map(Number);
  rmSync(times, { force: true });
  return { cpu: user! + sys!, wall: wall!, rssMiB: kb! / 1024, stdout: r.stdout };
}

/** Run the CLI as a user would. */
export const cli = (argv: string[]): Measured => timed([process.execPath, CLI, ...argv]);

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1]!;
};

/** The one-minute load average, for the record. */
export const load = (): string => loadavg()[0]!.toFixed(1);
