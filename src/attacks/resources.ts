/**
 * The resource profile of a run (paper 000 §3.3.3, Tables 2–3): wall time, time per record and memory. Peak
 * resident memory comes from the OS (`maxRSS`, monotonic over the process life), so measure one run per process
 * for a clean figure; the heap growth during the run is reported too.
 */
export interface ResourceProfile {
  readonly seconds: number;
  readonly records: number;
  readonly usPerRecord: number;
  readonly recordsPerSecond: number;
  /** Peak resident set size of the process so far, MiB. */
  readonly peakRssMiB: number;
  /** Heap used after minus before (after a GC when exposed), MiB. */
  readonly heapGrowthMiB: number;
}

function gc(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/** Run `fn` (which processes `records` records) and profile it. */
export async function profileRun<T>(
  records: number,
  fn: () => T | Promise<T>,
): Promise<{ result: T; profile: ResourceProfile }> {
  gc();
  const heap0 = process.memoryUsage().heapUsed;
  const t0 = process.hrtime.bigint();
  const result = await fn();
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const heap1 = process.memoryUsage().heapUsed;
  return {
    result,
    profile: {
      seconds,
      records,
      usPerRecord: records === 0 ? 0 : (seconds * 1e6) / records,
      recordsPerSecond: seconds === 0 ? 0 : records / seconds,
      peakRssMiB: process.resourceUsage().maxRSS / 1024,
      heapGrowthMiB: (heap1 - heap0) / 2 ** 20,
    },
  };
}
