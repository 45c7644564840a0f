/**
 * V8's heap for a long streaming run, set from inside the process.
 *
 * The streaming anonymizer's live state is a few MiB, but its held events outlive two scavenges and are promoted,
 * and V8 sizes the heap for throughput: it grows the young generation (two semi-spaces) from 1 MiB up to 16 MiB
 * per semi-space, and after each mark-compact lets the old generation grow by a factor of up to 4 before the
 * next. On the AOL subset at depth 3 that peaked at 109–117 MiB RSS around a live heap of ~10 MiB. Flags such as
 * `--max-semi-space-size` are read only when node starts, so `querymask` cannot pass them without a second
 * process; but V8 reads the two flags below at each growth, so they can be set at run time:
 *
 * - `--semi-space-growth-factor`: the first growth takes the semi-space to the cap, then the factor becomes 1;
 * - `--heap-growing-percent`: the old generation's limit after a mark-compact is the live heap + that percent.
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

/** After each mark-compact, let the old generation grow by `percent` of its live size before the next one. */
export function slowOldGenerationGrowth(percent: number): void {
  v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
}

/**
 * The young generation's semi-space cap of a streaming run, MiB: on the AOL subset (swap, k = 3) peak RSS 93 → 73
 * MiB at depth 1 and 107–117 → 94 MiB at depth 3 against V8's default 16, CPU within the noise (measured).
 */
const STREAM_SEMI_SPACE_MIB = 4;
/**
 * How far the old generation of a streaming run may grow past its live size before the next mark-compact, %:
 * at depth 3 on the subset peak RSS 92–95 → 79–81 MiB against V8's own factor (up to 300%), CPU within the noise.
 */
const STREAM_HEAP_GROWING_PERCENT = 50;

/** The heap settings of a command that streams a log with small state (anonymize's stages, stats, classify). */
export function streamingHeap(): void {
  capYoungGeneration(STREAM_SEMI_SPACE_MIB);
  slowOldGenerationGrowth(STREAM_HEAP_GROWING_PERCENT);
}

/**
 * The heap settings of a stream classified on worker threads (`classify --threads`): the young generation capped
 * as in {@link streamingHeap}, the old one left to V8. The flags are the process's, so every thread's heap gets
 * them, and each thread's classifier grows its old generation with its memos: with the old generation held to
 * +50% per mark-compact, two threads on the AOL subset took 17.0–17.7 CPU-s (9.1–9.3 s wall, 615 MiB) against
 * 13.3–14.2 (7.2–7.6 s, 790–800 MiB) with this.
 */
export function threadedHeap(): void {
  capYoungGeneration(STREAM_SEMI_SPACE_MIB);
}
