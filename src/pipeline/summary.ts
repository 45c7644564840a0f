/**
 * What a run may show, by the method's declared disclosure (src/methods/method.ts `Disclosure`). For a method
 * without a DP claim, everything: its counts, the pipeline's (rows read, scrubbing), rejected lines, seconds. For
 * a DP method, the public part holds only the method's own counts (which the method keeps publishable: read off
 * the released table, or noised and charged to its budget) and data-independent values; every exact figure of
 * the run goes to the diagnostics, which are written only on request, to a `*.PRIVATE.*` file.
 */
import type { Disclosure } from "../methods/method.ts";
import type { Progress } from "../util/progress.ts";

/** What a run measured, before disclosure. */
export interface RunFacts {
  /** The method's counts (publishable for a DP method: the method's contract). */
  readonly counts: Readonly<Record<string, number>>;
  /** The method's exact figures that are not (`Release.diagnostics`). */
  readonly diagnostics?: Readonly<Record<string, number>>;
  /** The pipeline's own counts (rows read, what scrubbing did). */
  readonly prepared?: Readonly<Record<string, number>>;
  /** The method's notes for the user (a DP method words them without exact data-dependent values). */
  readonly notes?: readonly string[];
  readonly rejected: number;
  readonly seconds: number;
}

/** A run's facts split by disclosure. */
export interface Disclosed {
  /** Safe to print and publish beside the release. */
  readonly counts: Readonly<Record<string, number>>;
  /** Rejected lines and seconds: public unless the method is DP (then in the diagnostics). */
  readonly rejected?: number;
  readonly seconds?: number;
  readonly notes: readonly string[];
  /** Exact figures of a DP run: written only on request (`--diagnostics`), never in the summary. */
  readonly diagnostics: Readonly<Record<string, number>>;
}

/** Split `facts` for a method of disclosure `how`. */
export function disclose(how: { readonly disclosure: Disclosure }, facts: RunFacts): Disclosed {
  const notes = facts.notes ?? [];
  if (how.disclosure === "exact") {
    return {
      counts: { ...facts.prepared, ...facts.counts },
      rejected: facts.rejected,
      seconds: facts.seconds,
      notes,
      diagnostics: { ...facts.diagnostics },
    };
  }
  return {
    counts: { ...facts.counts },
    notes,
    diagnostics: {
      ...facts.prepared,
      ...facts.diagnostics,
      "rejected lines": facts.rejected,
      seconds: facts.seconds,
    },
  };
}

/**
 * Progress a method of disclosure `how` may show: for a DP method, each phase's name only (no count, no total:
 * the number of rows or users read is data-dependent).
 */
export function disclosedProgress(how: { readonly disclosure: Disclosure }, progress: Progress): Progress {
  if (how.disclosure === "exact") return progress;
  return {
    start: (label) => progress.start(label),
    tick: () => {},
    stop: () => progress.stop(),
  };
}

/** The name of the private diagnostics file beside `out`: `counts.tsv` → `counts.tsv.diagnostics.PRIVATE.json`. */
export function diagnosticsPath(out: string): string {
  return `${out}.diagnostics.PRIVATE.json`;
}
