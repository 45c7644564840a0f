/**
 * Parameters of the (k,m)-anonymity method (paper 003), validated once where they enter.
 */
import { intParam, ParamError } from "../method.ts";
import { BID_TARGETS, TARGETS, type Target } from "./targets.ts";

export interface KmParams {
  /** Every combination of up to m terms of a history must be held by at least k users (≥ 2). */
  readonly k: number;
  /** The adversary's knowledge: combinations of up to m terms (≥ 1). */
  readonly m: number;
  /** Which term of a violating combination to suppress (Algorithm 2). */
  readonly target: Target;
  /** Path of the term → bid TSV; required for the bid and revenue targets, optional otherwise (for measures). */
  readonly bid?: string;
}

const M = "km";

/** Validate raw parameters; throws {@link ParamError}. */
export function parseKmParams(raw: Readonly<Record<string, unknown>>): KmParams {
  const k = withReason("k", "an integer ≥ 2 (each combination must be shared by k users)", () =>
    intParam(M, raw, "k", 5, 2),
  );
  const m = withReason("m", "an integer ≥ 1 (the number of terms an adversary knows)", () =>
    intParam(M, raw, "m", 2, 1),
  );
  const t = raw.target ?? "users";
  if (typeof t !== "string" || !(TARGETS as readonly string[]).includes(t)) {
    throw new ParamError(M, "target", `must be one of ${TARGETS.join(", ")}, got ${JSON.stringify(t)}`);
  }
  const target = t as Target;
  const bid = raw.bid;
  if (bid !== undefined && (typeof bid !== "string" || bid === "")) {
    throw new ParamError(M, "bid", `must be a file path, got ${JSON.stringify(bid)}`);
  }
  if (BID_TARGETS.includes(target) && bid === undefined) {
    throw new ParamError(
      M,
      "bid",
      `target ${target} needs a bid table (--bid FILE, term<TAB>value per line)`,
    );
  }
  return bid === undefined ? { k, m, target } : { k, m, target, bid };
}

/** Re-word intParam's range message for a parameter. */
function withReason(name: string, must: string, read: () => number): number {
  try {
    return read();
  } catch (err) {
    if (err instanceof ParamError) {
      const got = /got (.*)$/.exec(err.message)?.[1] ?? "?";
      throw new ParamError(M, name, `must be ${must}, got ${got}`);
    }
    throw err;
  }
}
