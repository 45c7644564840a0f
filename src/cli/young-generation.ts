/**
 * A cap on V8's young generation for a long streaming run, set from inside the process.
 *
 * V8 grows the young generation (two semi-spaces) from 1 MiB up to 16 MiB per semi-space while objects survive
 * scavenges. The streaming anonymizer's live state is a few MiB, but its held events outlive two scavenges and are
 * promoted; with 16 MiB semi-spaces the peak RSS is 93 MiB at depth 1 and 111–117 MiB at depth 3 on the AOL
 * subset, 73 / 94 MiB with 4 MiB ones (BENCHMARKS.md, issue 17). `--max-semi-space-size` is read only when node
 * starts, so it cannot be set by `querymask` itself, and re-running node under the flag costs a second process.
 * The growth factor (`--semi-space-growth-factor`) is read at each growth, so it can be set at run time: the first
 * growth takes the semi-space to the cap, and once it is there the factor becomes 1 (no further growth).
 */
import { PerformanceObserver } from "node:perf_hooks";
import v8 from "node:v8";

const newSpaceBytes = (): number | undefined =>
  v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space")?.space_size;

/** Stop the young generation from growing beyond semi-spaces of `semiSpaceMiB` (a no-op where V8 differs). */
export function capYoungGeneration(semiSpaceMiB: number): void {
  const now = newSpaceBytes();
  if (now === undefined || now === 0) return;
  const target = 2 * semiSpaceMiB * 2 ** 20; // the new space's size is both semi-spaces
  const stop = () => v8.setFlagsFromString("--semi-space-growth-factor=1");
  if (now >= target) {
    stop();
    return;
  }
  v8.setFlagsFromString(`--semi-space-growth-factor=${Math.max(2, Math.round(target / now))}`);
  const observer = new PerformanceObserver(() => {
    if ((newSpaceBytes() ?? target) < target) return;
    stop();
    observer.disconnect();
  });
  observer.observe({ entryTypes: ["gc"] });
}
