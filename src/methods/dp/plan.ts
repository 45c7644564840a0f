/**
 * How a dp release spends (ε, δ): its parameters, and per kind of item (queries, query-click pairs) the selection's
 * calibration, the count noise and the charges to one accountant.
 */
import { ParamError } from "../method.ts";
import { Accountant, type GaussianShare, gaussianPlan, type Share, splitBudget } from "./accountant.ts";
import { type CountNoise, gaussianCountNoise, laplaceCountNoise } from "./counts.ts";
import type { NoiseSource } from "./random.ts";
import type { SELECTION_NAMES } from "./selection/index.ts";
import type { Calibration, Selection } from "./selection/selection.ts";

export type SelectionName = (typeof SELECTION_NAMES)[number];

export interface DpParams {
  /** How queries are chosen for release. */
  readonly selection: SelectionName;
  /** Privacy loss ε of the whole release. */
  readonly epsilon: number;
  /** Failure probability δ of the whole release. */
  readonly delta: number;
  /** Contribution bound: distinct queries (and distinct query-click pairs) per user; korolova: query events. */
  readonly d: number;
  /** Policy strategies: the cutoff Γ = ρ + α·(noise scale). */
  readonly alpha: number;
  /** "crypto" (default: a real release) or "seeded" (reproducible from the seed: experiments only, not private). */
  readonly noise: NoiseSource;
  /** Release noisy click counts too (default). */
  readonly clicks: boolean;
  /** Map each query to its canonical form before the bound (`canonical.ts`); the release holds those forms. */
  readonly canonical: boolean;
}

/** Run a calibration, turning unusable numbers into a ParamError. */
function checked(sel: Selection<Calibration>, params: DpParams, calibrate: () => Calibration): Calibration {
  let cal: Calibration;
  try {
    cal = calibrate();
  } catch (e) {
    if (e instanceof RangeError)
      throw new ParamError("dp", "epsilon", `no usable ${sel.name} threshold: ${e.message}`);
    throw e;
  }
  if (!Object.values(cal.facts).every(Number.isFinite) || !Number.isFinite(cal.usersNeeded)) {
    throw new ParamError(
      "dp",
      "epsilon",
      `ε = ${params.epsilon}, δ = ${params.delta}, d = ${params.d} give no finite ${sel.name} threshold; use ε ≥ 0.001`,
    );
  }
  return cal;
}

/** One kind of item (queries, or query-click pairs): its selection's calibration, its count noise, its charges. */
export interface KindPlan {
  readonly cal: Calibration;
  readonly noise: CountNoise;
  /** Charge this kind's selection and counts. */
  charge(account: Accountant): void;
}

export interface Plan {
  readonly account: Accountant;
  readonly queries: KindPlan;
  /** Absent when clicks are not released. */
  readonly pairs?: KindPlan;
}

/**
 * How a set-selection release spends (ε, δ): Gaussian strategies by the zCDP plan (`gaussianPlan`), Laplace ones
 * by the basic-composition split (`splitBudget`). Throws ParamError when (ε, δ, d) allow no usable threshold.
 */
export function plan(params: DpParams, sel: Selection<Calibration>): Plan {
  const { epsilon, delta, d, alpha, clicks } = params;
  const g = sel.gaussian;
  if (g) {
    let p: ReturnType<typeof gaussianPlan>;
    try {
      p = gaussianPlan(epsilon, delta, clicks, d);
    } catch (e) {
      if (e instanceof RangeError) throw new ParamError("dp", "epsilon", e.message);
      throw e;
    }
    const kind = (label: string, s: GaussianShare, c: GaussianShare): KindPlan => {
      const sigma = g.sensitivity(d) / Math.sqrt(2 * s.rho);
      const cal = checked(sel, params, () => g.calibrateNoise(sigma, s.thresholdDelta, d, alpha));
      const noise = gaussianCountNoise(c.rho, d);
      return {
        cal,
        noise,
        charge(account) {
          account.spendGaussian(`${label} selection (${sel.name})`, 2 * s.rho);
          account.spendThreshold(
            `${label} selection: an item only the added user holds passes`,
            s.thresholdDelta,
          );
          account.spendDiscreteGaussian(`${label} counts (${noise.kind})`, noise.scale, d);
        },
      };
    };
    return {
      account: new Accountant(epsilon),
      queries: kind("query", p.querySelection, p.queryCounts),
      pairs: p.pairSelection && p.pairCounts ? kind("click-pair", p.pairSelection, p.pairCounts) : undefined,
    };
  }
  const shares = splitBudget(epsilon, delta, clicks);
  const kind = (label: string, s: Share, c: Share): KindPlan => {
    const cal = checked(sel, params, () => sel.calibrate(s.epsilon, s.delta, d, alpha));
    const noise = laplaceCountNoise(c.epsilon, d);
    return {
      cal,
      noise,
      charge(account) {
        account.spend(`${label} selection (${sel.name})`, s.epsilon, s.delta);
        account.spend(`${label} counts (${noise.kind})`, c.epsilon, c.delta);
      },
    };
  };
  return {
    account: new Accountant(),
    queries: kind("query", shares.querySelection, shares.queryCounts),
    pairs:
      shares.pairSelection && shares.pairCounts
        ? kind("click-pair", shares.pairSelection, shares.pairCounts)
        : undefined,
  };
}
