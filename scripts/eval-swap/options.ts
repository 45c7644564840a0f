/** Paths, command-line options and small measuring helpers of `npm run eval:swap`. */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { SHARED_AOL } from "../../bench/shared-aol.ts";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
/** The shared AOL subset (`QUERYMASK_SHARED`, else `../shared/data`). */
export const AOL = SHARED_AOL;
export const ANCHORS = join(ROOT, "../shared/anchors/saps-qls/saps_stats_autodepth.tsv");
export const ANCHORS_EMD = join(ROOT, "../shared/anchors/saps-qls/saps_emd.tsv");
export const OUT = join(ROOT, "docs/results/");
export const CACHE = join(ROOT, ".cache/eval-swap/");
export const STANDIN = process.argv.includes("--standin");
export const PREFIX = STANDIN ? "swap-standin" : "swap";

export function listArg(name: string): string[] | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1]?.split(",") : undefined;
}
export const SECTIONS = ["fig", "grid", "seeds", "delta", "profile", "finalk", "report"];
export const ONLY = new Set(listArg("--only") ?? SECTIONS);
/**
 * The paper's text gives no k values (Figs. 6–7 are images); these span its "lowest k" to the largest the
 * saps-qls tables use.
 */
export const FIG_KS = listArg("--ks")?.map(Number) ?? [2, 3, 5, 10, 20, 30, 50];
export const GRID_KS = listArg("--ks")?.map(Number) ?? [3, 10, 30];
/** Our ODP skeleton has 3 levels below Top, so depth ≥ 3 is the same run as depth 3. */
export const DEPTHS = listArg("--depths")?.map(Number) ?? [1, 2, 3];
export const DELTAS = listArg("--deltas")?.map(Number) ?? [1.1, 1.2, 1.5, 2, 3];
export const DEANONS = ["deanon1", "deanon2", "deanon3", "deanon4"];

export const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
export const log = (s: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${s}\n`);

/** Run fn and measure CPU seconds and heap growth (after GC when exposed). */
export async function measure<T>(
  fn: () => T | Promise<T>,
): Promise<{ value: T; cpu: number; heapMiB: number }> {
  gc();
  const h0 = process.memoryUsage().heapUsed;
  const c0 = process.cpuUsage();
  const value = await fn();
  const c = process.cpuUsage(c0);
  const heapMiB = (process.memoryUsage().heapUsed - h0) / 2 ** 20;
  return { value, cpu: (c.user + c.system) / 1e6, heapMiB };
}
