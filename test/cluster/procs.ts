/** Child processes of a test's runs: how they end, and which of a run's workers are alive. */
import type { ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

/** The exit code of `c` (null when a signal ended it). */
export const exited = (c: ChildProcess): Promise<number | null> =>
  new Promise((resolve) => c.once("exit", (code) => resolve(code)));

/** Poll `cond` every 50 ms until it holds; fail after `ms` naming `what`. */
export async function until(cond: () => Promise<boolean> | boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The live child processes of `ppid` whose command line contains every one of `words` (or that `words` accepts). */
export function childrenOf(
  ppid: number,
  words: readonly string[] | ((args: readonly string[]) => boolean),
): number[] {
  const out: number[] = [];
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) !== ppid) continue;
      const cmd = readFileSync(`/proc/${d}/cmdline`, "utf8").split("\0");
      if (typeof words === "function" ? words(cmd) : words.every((w) => cmd.includes(w))) out.push(Number(d));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}
