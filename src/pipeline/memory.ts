/**
 * The release of a log held in memory by one method: prepared as the method declares (the same preparation as
 * the file release, release.ts), then the method's batch `anonymize` — for a method with a stage, the stage run
 * over the log in time order, which its contract makes the stream's release. The library's `anonymize` and the
 * experiment runner call this, so for the same log, parameters and seed they release what `querymask anonymize`
 * writes.
 */
import type { KnowledgeService } from "../classify/service.ts";
import type { QueryLog } from "../log/record.ts";
import { type Method, type Release, withParamRange } from "../methods/method.ts";
import type { AllowList } from "../scrub/allow-list.ts";
import { type Progress, silentProgress } from "../util/progress.ts";
import { type Prepared, preparationFor, prepareLog } from "./prepare.ts";
import { methodContext, scrubCounts } from "./release.ts";
import { type Disclosed, disclose, disclosedProgress } from "./summary.ts";

export interface LogRelease<P> {
  readonly method: Method<P>;
  readonly params: P;
  readonly seed: number;
  readonly log: QueryLog;
  readonly allow?: AllowList;
  /** The knowledge base and classifier (default: the bundled one's, with `allow`). */
  readonly knowledge?: KnowledgeService;
  readonly progress?: Progress;
  readonly warn?: (message: string) => void;
  /**
   * The log already prepared for this method (the experiment runner prepares once per preparation and shares
   * it between combinations); default: prepared here.
   */
  readonly prepared?: Prepared;
}

export interface LogReleased extends Disclosed {
  readonly release: Release;
  /** The log the method was given (as prepared): `release.origin` indexes its records. */
  readonly input: QueryLog;
}

/** The preparation `method` gets for `log`, as the file release does it. */
export function prepareFor(
  method: Pick<Method, "input">,
  log: QueryLog,
  opts: { allow?: AllowList | undefined; knowledge?: KnowledgeService | undefined; progress?: Progress },
): Promise<Prepared> {
  return prepareLog(log, preparationFor(method.input.text, log), {
    crossUser: method.input.crossUser,
    ...opts,
  });
}

/** Release `req.log` (see the module comment). */
export async function releaseLog<P>(req: LogRelease<P>): Promise<LogReleased> {
  const t0 = performance.now();
  const { method } = req;
  const progress = disclosedProgress(method, req.progress ?? silentProgress);
  const knowledge =
    req.knowledge ??
    (await import("../classify/service.ts")).createKnowledgeService(undefined, undefined, req.allow);
  const prepared =
    req.prepared ?? (await prepareFor(method, req.log, { allow: req.allow, knowledge, progress }));
  // A log the pipeline classified is released in the input's layout, as the file release writes it.
  const input = { ...prepared.log, classified: req.log.classified ?? false };
  const ctx = methodContext(req.seed, progress, req.warn, knowledge);
  const release = await withParamRange(method.name, () => method.anonymize(input, req.params, ctx));
  return {
    release,
    input,
    ...disclose(method, {
      counts: release.counts,
      ...(release.diagnostics ? { diagnostics: release.diagnostics } : {}),
      prepared: prepared.scrub ? scrubCounts(prepared.scrub) : {},
      notes: release.notes ?? [],
      rejected: 0,
      seconds: (performance.now() - t0) / 1000,
    }),
  };
}
