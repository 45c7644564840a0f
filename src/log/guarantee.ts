/**
 * What a release promises, one typed value per privacy model. A method states only what holds for the
 * parameters it ran with ({ model: "none" } otherwise); the value travels with the release into the CLI's
 * summary (`anonymize --json`, read back by `querymask audit --summary`), results.json and the API, and the
 * audit checks it on the written files where the model is checkable there (src/audit/checks/guarantee.ts).
 *
 * - `k-anonymity` (mdav and its baselines, paper 004): every released user log is identical to the logs of at
 *   least k − 1 other released users. Checkable on the released log.
 * - `km-anonymity` (km, paper 003): every combination of at most m terms of a user's history is held by at
 *   least k users' histories. Checkable on the released log.
 * - `k-bucket` (swap, paper 000): every event is released from a bucket holding at least k events of at least
 *   two users, under a user who is not its author. The buckets are not in the output; the audit checks the
 *   claim against the parameters (no bounded delay, `--end suppress`, never under the own author, k as asked)
 *   and the swap invariants on the file.
 * - `differential-privacy` (dp): (ε, δ)-DP with user-level neighbours (logs differing in one user's whole
 *   history). Not checkable on noisy counts; the audit checks the claim does not exceed the ε and δ asked.
 */

export type Guarantee =
  | { readonly model: "none" }
  | { readonly model: "k-anonymity"; readonly k: number }
  | { readonly model: "km-anonymity"; readonly k: number; readonly m: number }
  | { readonly model: "k-bucket"; readonly k: number }
  | {
      readonly model: "differential-privacy";
      readonly epsilon: number;
      readonly delta: number;
      readonly neighbours: "user-level";
    };

export type PrivacyModel = Guarantee["model"];

export const NO_GUARANTEE: Guarantee = { model: "none" };

const fmt = (x: number): string => String(Number(x.toPrecision(6)));

/** One readable line: "k-anonymity, k=3", "(ε=1, δ=1e-5)-DP, user-level", "none". */
export function describeGuarantee(g: Guarantee): string {
  switch (g.model) {
    case "none":
      return "none";
    case "k-anonymity":
      return `k-anonymity of user logs, k=${g.k}`;
    case "km-anonymity":
      return `(k,m)-anonymity, k=${g.k}, m=${g.m}`;
    case "k-bucket":
      return `every event swapped in a bucket of ≥ k events, k=${g.k}`;
    case "differential-privacy":
      return `(ε=${fmt(g.epsilon)}, δ=${fmt(g.delta)})-DP, ${g.neighbours}`;
  }
}

/** The guarantee's numbers by name (k, m, epsilon, delta), for tables and yardsticks. */
export function guaranteeNumbers(g: Guarantee): Record<string, number> {
  const { model: _model, ...rest } = g;
  return Object.fromEntries(Object.entries(rest).filter(([, v]) => typeof v === "number")) as Record<
    string,
    number
  >;
}

const FIELDS: Readonly<Record<PrivacyModel, readonly string[]>> = {
  none: [],
  "k-anonymity": ["k"],
  "km-anonymity": ["k", "m"],
  "k-bucket": ["k"],
  "differential-privacy": ["epsilon", "delta"],
};

/**
 * A guarantee read back from JSON (a summary file, results.json); throws an Error naming what is wrong, for the
 * caller to report with the file's name.
 */
export function parseGuarantee(value: unknown): Guarantee {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new Error("guarantee: not an object");
  }
  const v = value as Record<string, unknown>;
  const model = v.model;
  if (typeof model !== "string" || !Object.hasOwn(FIELDS, model)) {
    throw new Error(`guarantee: unknown model ${JSON.stringify(model)} (${Object.keys(FIELDS).join(", ")})`);
  }
  for (const f of FIELDS[model as PrivacyModel]) {
    const x = v[f];
    if (typeof x !== "number" || !Number.isFinite(x) || x < 0) {
      throw new Error(`guarantee: ${model} needs a number ${f} ≥ 0, got ${JSON.stringify(x)}`);
    }
  }
  if (model === "differential-privacy" && v.neighbours !== "user-level") {
    throw new Error(`guarantee: differential-privacy neighbours must be "user-level"`);
  }
  const numbers = Object.fromEntries(FIELDS[model as PrivacyModel].map((f) => [f, v[f]]));
  return (
    model === "differential-privacy" ? { model, ...numbers, neighbours: "user-level" } : { model, ...numbers }
  ) as Guarantee;
}

/** (ε, δ)-DP with user-level neighbours, from an accountant's total. */
export function userLevelDp(total: { readonly epsilon: number; readonly delta: number }): Guarantee {
  return {
    model: "differential-privacy",
    epsilon: total.epsilon,
    delta: total.delta,
    neighbours: "user-level",
  };
}
