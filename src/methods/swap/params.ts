/**
 * Parameters of the swap anonymizer (paper 000, Algorithm 2), validated once where they enter.
 */
import { intParam, numberParam, ParamError } from "../method.ts";

/** What happens at end of stream to the entries still held in buckets (see docs/methods/swap.md). */
export type EndPolicy = "release" | "suppress";

/**
 * Which time a released record carries. "release" (default): the stream time at which it was released, i.e. the
 * time of the event that filled the bucket — it says nothing about when the author searched. "original": the
 * query's own time, as in the paper's text files; this lets time re-link a query to its author and exists only to
 * reproduce the paper's matcher figures.
 */
export type TimePolicy = "release" | "original";

export interface SwapParams {
  /** Bucket size that triggers a release (Algorithm 2's k), ≥ 2. */
  readonly k: number;
  /** Growth factor of a bucket's k when it holds one user only (δ > 1). */
  readonly delta: number;
  /** Category depth of the buckets: 1 = ODP top level (the paper), deeper = saps-qls. */
  readonly depth: number;
  readonly end: EndPolicy;
  readonly time: TimePolicy;
  /** Upper bound, in stream seconds, on how long an event waits in a bucket; 0 = unbounded (the paper). */
  readonly maxDelay: number;
  /** The paper's A(NR) ablation: no author rule, no k growth. Unsafe; for Fig. 6 only. */
  readonly ownAuthor: boolean;
}

const M = "swap";

function choice<T extends string>(raw: Readonly<Record<string, unknown>>, name: string, def: T, ok: T[]): T {
  const v = raw[name] ?? def;
  if (typeof v !== "string" || !ok.includes(v as T)) {
    throw new ParamError(M, name, `must be one of ${ok.join(", ")}, got ${JSON.stringify(v)}`);
  }
  return v as T;
}

function bool(raw: Readonly<Record<string, unknown>>, name: string): boolean {
  const v = raw[name] ?? false;
  if (v === true || v === "true" || v === "1") return true;
  if (v === false || v === "false" || v === "0") return false;
  throw new ParamError(M, name, `must be true or false, got ${JSON.stringify(v)}`);
}

export function parseSwapParams(raw: Readonly<Record<string, unknown>>): SwapParams {
  return {
    k: intParam(M, raw, "k", 3, 2),
    delta: numberParam(M, raw, "delta", 1.2, (n) => (n > 1 ? undefined : `must be > 1, got ${n}`)),
    depth: intParam(M, raw, "depth", 1, 1, 32),
    end: choice<EndPolicy>(raw, "end", "release", ["release", "suppress"]),
    time: choice<TimePolicy>(raw, "time", "release", ["release", "original"]),
    maxDelay: numberParam(M, raw, "maxDelay", 0, (n) => (n >= 0 ? undefined : `must be ≥ 0, got ${n}`)),
    ownAuthor: bool(raw, "ownAuthor"),
  };
}
