/**
 * The guarantee the release claims (the summary's `guarantee`, src/log/guarantee.ts), checked on the written
 * files where its model is checkable there, and against the parameters the release was made with where not:
 *
 * - k-anonymity: every released user log is shared by ≥ k users (the released log, as `k-anonymity` checks it);
 * - (k,m)-anonymity: every ≤ m terms of a history are held by ≥ k histories (the released log);
 * - k-bucket (swap): the buckets are not in the output, so the claim is checked against the parameters — no
 *   bounded delay, nothing released at the end of the stream, never under the own author, k as asked (the
 *   output's part is `swap invariants`);
 * - differential privacy: noisy counts cannot show ε or δ, so the claim is checked against the parameters —
 *   exactly the ε and δ asked for (more: the run spent more than asked; less: the claim is stronger than what the
 *   run delivers), and never with seeded noise.
 *
 * A claimed k or (k,m) is checked as claimed, not as the parameters say: a method that over-claims fails here.
 * Where the claim is what the method's own check verifies (same k, m), that check's verdict stands for it.
 */
import type { Guarantee } from "../../log/guarantee.ts";
import { describeGuarantee } from "../../log/guarantee.ts";
import { type AuditCheck, type AuditSubject, type CheckOutcome, Violations } from "../check.ts";
import { checkKAnonymity, kAnonymity } from "./k-anonymity.ts";
import { checkKmAnonymity, kmAnonymity } from "./km.ts";

/** Relative slack for sums of floating-point budget shares (Σ εᵢ may exceed ε by rounding). */
const ROUNDING = 1e-9;

export const claimedGuarantee: AuditCheck = {
  name: "claimed guarantee",
  promise: "the release keeps the privacy model its summary claims",
  applies: (s) => s.guarantee !== undefined && s.guarantee.model !== "none",
  run(s, limit) {
    const g = s.guarantee!;
    const what = describeGuarantee(g);
    switch (g.model) {
      case "k-anonymity":
      case "km-anonymity": {
        if (!s.released) return oneViolation(what, `${what} claimed, but no log was released`, limit);
        // The method's own check already runs on this file with these numbers: its verdict stands for both
        // (the audit fails if it fails), and a (k,m) scan of a large log is not repeated.
        const own = g.model === "k-anonymity" ? kAnonymity : kmAnonymity;
        if (own.applies(s) && s.params.k === g.k && (g.model === "k-anonymity" || s.params.m === g.m)) {
          return {
            checked: `${what}: as the ${own.name} check on the released log`,
            violations: 0,
            examples: [],
          };
        }
        const out =
          g.model === "k-anonymity"
            ? checkKAnonymity(s.released.records, g.k, limit)
            : checkKmAnonymity(s.released.records, g.k, g.m, limit);
        return { ...out, checked: `${what} on the released log: ${out.checked}` };
      }
      case "k-bucket":
      case "differential-privacy":
        return againstParams(g, s, limit);
      case "none":
        return { checked: what, violations: 0, examples: [] };
    }
  },
};

function oneViolation(checked: string, violation: string, limit: number): CheckOutcome {
  const v = new Violations(limit);
  v.add(() => violation);
  return v.outcome(checked);
}

/** A claim the output cannot show, against the parameters the release was made with. */
function againstParams(g: Guarantee, s: AuditSubject, limit: number): CheckOutcome {
  const v = new Violations(limit);
  const p = s.params;
  const num = (key: string): number | undefined =>
    typeof p[key] === "number" ? (p[key] as number) : undefined;
  const atMost = (name: string, claimed: number, asked: number | undefined) => {
    if (asked === undefined) v.add(() => `${name} = ${claimed} claimed, but the parameters give no ${name}`);
    else if (claimed > asked * (1 + ROUNDING)) v.add(() => `${name} = ${claimed} claimed, ${asked} asked`);
  };
  if (g.model === "k-bucket") {
    if (num("k") !== g.k) v.add(() => `k = ${g.k} claimed, the parameters say k = ${num("k") ?? "none"}`);
    if ((num("maxDelay") ?? 0) > 0)
      v.add(
        () => `claimed with maxDelay = ${num("maxDelay")}: a bounded delay releases from buckets below k`,
      );
    if (p.ownAuthor === true)
      v.add(() => "claimed with ownAuthor: events may be released under their author");
    if (p.end !== "suppress") {
      v.add(() => `claimed with end = ${String(p.end ?? "release")}: the end of the stream releases below k`);
    }
  } else if (g.model === "differential-privacy") {
    // A run composes to the (ε, δ) it was asked for: a smaller claim states more privacy than it delivers.
    const atLeast = (name: string, claimed: number, asked: number | undefined) => {
      if (asked !== undefined && claimed < asked * (1 - ROUNDING))
        v.add(() => `${name} = ${claimed} claimed, but a run asked for ${name} = ${asked} delivers no less`);
    };
    atMost("epsilon", g.epsilon, num("epsilon"));
    atMost("delta", g.delta, num("delta"));
    atLeast("epsilon", g.epsilon, num("epsilon"));
    atLeast("delta", g.delta, num("delta"));
    if (p.noise === "seeded")
      v.add(() => "claimed with seeded noise: anyone who knows the seed can subtract it");
  }
  return v.outcome(`${describeGuarantee(g)}: not visible in the output; checked against the parameters`);
}
