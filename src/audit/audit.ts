/**
 * `audit(subject)`: run every check that applies to a release and collect a verdict. The checks read the files
 * and the method's name, parameters and summary only; they share no code with the methods (src/audit imports
 * src/log and src/scrub, never src/methods), so a bug in a method cannot hide itself from its audit.
 */

import { scrubsInput } from "../scrub/scrub-log.ts";
import type { AuditSubject, CheckOutcome } from "./check.ts";
import { checks } from "./registry.ts";

export type { AuditSubject, ReleasedTable } from "./check.ts";

export interface CheckResult extends CheckOutcome {
  readonly name: string;
  readonly promise: string;
  readonly ok: boolean;
}

export interface AuditReport {
  /** True when every applicable check passed. */
  readonly ok: boolean;
  readonly results: readonly CheckResult[];
}

/** Audit a release; `limit` = violating records kept per check (all are counted). */
export function audit(subject: AuditSubject, limit = 20): AuditReport {
  const results: CheckResult[] = [];
  for (const c of checks) {
    if (!c.applies(subject)) continue;
    const outcome = c.run(subject, limit);
    results.push({ name: c.name, promise: c.promise, ok: outcome.violations === 0, ...outcome });
  }
  return { ok: results.every((r) => r.ok), results };
}

/** One word for a report: "pass", or "FAIL: " and the failed checks. */
export function verdict(report: AuditReport): string {
  const failed = report.results.filter((r) => !r.ok).map((r) => r.name);
  return failed.length === 0 ? "pass" : `FAIL: ${failed.join(", ")}`;
}

/**
 * The original a release is audited against: as `querymask classify` gives it (see
 * {@link auditsClassifiedOriginal}), as `querymask scrub` gives it (the method was given the scrubbed log:
 * {@link scrubsInput}), or as read.
 */
export function originalAsAudited(
  method: string,
  original: { readonly classified?: boolean },
  released: { readonly classified?: boolean } | undefined,
): "classified" | "scrubbed" | "as-read" {
  if (auditsClassifiedOriginal(method, original, released)) return "classified";
  return scrubsInput(method, original) ? "scrubbed" : "as-read";
}

/**
 * Whether a release is to be audited against its original as `querymask classify` gives it (category, unit,
 * scrubbed text, identifying or single-user clicks dropped) rather than as read: the original is unclassified and
 * the release carries the classifier's columns, or comes from swap, which classifies an unclassified input on the
 * way even when it writes the input's layout without them. The CLI's `audit` and the library's both ask this.
 */
export function auditsClassifiedOriginal(
  method: string,
  original: { readonly classified?: boolean },
  released: { readonly classified?: boolean } | undefined,
): boolean {
  return (
    !original.classified && released !== undefined && (released.classified === true || method === "swap")
  );
}
