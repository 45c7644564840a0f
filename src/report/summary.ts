/**
 * The report's decision: which configuration to ship for the reader's risk budget, and where the privacy
 * measures disagree about a configuration (one says it is safe, another re-identifies most users).
 *
 * The risk measures are the attack percentages (lower is safer): record linkage, the background-knowledge
 * attack at each m, and the strongest of the method's own attacks. Each is a column of the results, or — for the
 * own attacks — the largest of the `attacks.*` columns of a configuration.
 */
import type { Value } from "../metrics/yardstick.ts";

/** What the summary needs of a configuration (an {@link Aggregate} of the report). */
export interface Config {
  readonly method: string;
  /** Every parameter written out, defaults included: "k=3 delta=1.2 …". */
  readonly full: string;
  readonly audit: string;
  readonly errors: readonly string[];
  readonly values: Readonly<Record<string, Value>>;
}

export interface RiskMeasure {
  /** A result column, or {@link OWN_ATTACKS}. */
  readonly id: string;
  readonly label: string;
}

/** The id of the derived measure "strongest of the method's own attacks". */
export const OWN_ATTACKS = "attacks.max";

/** Risk measures with at least one number among `configs`, in a fixed order. */
export function riskMeasures(
  configs: readonly Config[],
  backgroundM: readonly number[],
  labelOf: (id: string) => string,
): RiskMeasure[] {
  const ids = ["rl.rl", ...backgroundM.map((m) => `background.m${m}.reidentified`), OWN_ATTACKS];
  return ids
    .filter((id) => configs.some((c) => risk(c, id) !== null))
    .map((id) => ({
      id,
      label: id === OWN_ATTACKS ? "strongest own attack: % records linked" : labelOf(id),
    }));
}

/** The value of risk measure `id` for a configuration; null = n/a. */
export function risk(c: Config, id: string): number | null {
  if (id !== OWN_ATTACKS) {
    const v = c.values[id];
    return typeof v === "number" ? v : null;
  }
  const own = Object.entries(c.values)
    .filter(([k, v]) => k.startsWith("attacks.") && typeof v === "number")
    .map(([, v]) => v as number);
  return own.length === 0 ? null : Math.max(...own);
}

export interface Disagreement<C extends Config = Config> {
  readonly config: C;
  /** The measures within the budget, and those over it, with their values. */
  readonly safe: readonly { measure: RiskMeasure; value: number }[];
  readonly unsafe: readonly { measure: RiskMeasure; value: number }[];
}

/** Configurations that some risk measure puts within the budget and another over it. */
export function disagreements<C extends Config>(
  configs: readonly C[],
  measures: readonly RiskMeasure[],
  budget: number,
): Disagreement<C>[] {
  const out: Disagreement<C>[] = [];
  for (const c of configs) {
    const vals = measures.flatMap((m) => {
      const v = risk(c, m.id);
      return v === null ? [] : [{ measure: m, value: v }];
    });
    const safe = vals.filter((x) => x.value <= budget);
    const unsafe = vals.filter((x) => x.value > budget);
    if (safe.length > 0 && unsafe.length > 0) out.push({ config: c, safe, unsafe });
  }
  return out;
}

export interface Choice<C extends Config = Config> {
  readonly config: C;
  readonly risk: number;
  readonly utility: number;
}

/**
 * The configuration to ship: the most `utility` among those whose audit did not fail, that ran without error and
 * whose risk is within `budget` on every measure in `on` that applies to it (ties: the lower risk on `on[0]`).
 * Undefined when none qualifies.
 */
export function choose<C extends Config>(
  configs: readonly C[],
  on: readonly RiskMeasure[],
  utility: string,
  budget: number,
): Choice<C> | undefined {
  let best: Choice<C> | undefined;
  for (const c of configs) {
    if (c.audit.startsWith("FAIL") || c.errors.length > 0) continue;
    const u = c.values[utility];
    const r = on[0] ? risk(c, on[0].id) : null;
    if (typeof u !== "number" || r === null) continue;
    if (on.some((m) => (risk(c, m.id) ?? 0) > budget)) continue;
    if (!best || u > best.utility || (u === best.utility && r < best.risk))
      best = { config: c, risk: r, utility: u };
  }
  return best;
}
