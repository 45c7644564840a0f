/**
 * `audit(subject)`: run every check that applies to a release and collect a verdict. The checks read the files
 * and the method's declared model and input, parameters and summary only; they share no code with the methods (src/audit imports
 * src/log and src/scrub, never src/methods), so a bug in a method cannot hide itself from its audit.
 */

import type { DeclaredInput } from "../log/declared.ts";
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
 * The original a release is audited against, prepared as the method's input was: as `querymask classify` gives
 * it (the method declares a classified input, or the release carries the classifier's columns), as `querymask
 * scrub` gives it (the method declares a scrubbed input), or as read. A classified original is as read.
 */
export function originalAsAudited(
  declared: DeclaredInput,
  original: { readonly classified?: boolean },
  released: { readonly classified?: boolean } | undefined,
): "classified" | "scrubbed" | "as-read" {
  if (original.classified) return "as-read";
  if (released !== undefined && (released.classified === true || declared.text === "classified")) {
    return "classified";
  }
  return declared.text === "scrubbed" ? "scrubbed" : "as-read";
}
