/**
 * The privacy accountant of a dp release: every mechanism that reads the data is charged here with the (ε, δ) it
 * spends, and the release's guarantee is their sum (basic sequential composition, Dwork & Roth 2014, Theorem 3.16:
 * mechanisms run one after the other, each possibly chosen after seeing the earlier outputs, compose to
 * (Σε, Σδ)). {@link splitBudget} fixes how a release divides the (ε, δ) a user asks for.
 */

export interface Charge {
  /** What the mechanism releases, e.g. "query selection (policy-gaussian)". */
  readonly what: string;
  readonly epsilon: number;
  readonly delta: number;
}

export class Accountant {
  private readonly list: Charge[] = [];

  spend(what: string, epsilon: number, delta: number): void {
    if (!(epsilon >= 0 && delta >= 0))
      throw new RangeError(`bad charge for ${what}: ε ${epsilon}, δ ${delta}`);
    this.list.push({ what, epsilon, delta });
  }

  get charges(): readonly Charge[] {
    return this.list;
  }

  /** (Σε, Σδ). */
  total(): { epsilon: number; delta: number } {
    let epsilon = 0;
    let delta = 0;
    for (const c of this.list) {
      epsilon += c.epsilon;
      delta += c.delta;
    }
    return { epsilon, delta };
  }
}

export interface Share {
  readonly epsilon: number;
  readonly delta: number;
}

export interface BudgetSplit {
  readonly querySelection: Share;
  readonly queryCounts: Share;
  /** Absent when clicks are not released. */
  readonly pairSelection?: Share;
  readonly pairCounts?: Share;
}

/**
 * How (ε, δ) is divided. Selection decides what is released at all and gets most of it; counts need less (their
 * error is relative to counts that selection already made large); click pairs, the smaller product, get a
 * quarter. With clicks: query selection 0.6ε, query counts 0.15ε, pair selection 0.15ε, pair counts 0.1ε;
 * without: 0.8ε and 0.2ε. δ goes to the selections (queries ¾, pairs ¼ with clicks), except that Gaussian counts
 * (zCDP, which needs a δ to convert) take a tenth of their kind's δ. Chosen on a generated log other than the
 * benchmark's (docs/results/dp.md).
 */
export function splitBudget(
  epsilon: number,
  delta: number,
  clicks: boolean,
  gaussianCounts: boolean,
): BudgetSplit {
  const countDelta = gaussianCounts ? 0.1 : 0;
  if (!clicks) {
    return {
      querySelection: { epsilon: 0.8 * epsilon, delta: (1 - countDelta) * delta },
      queryCounts: { epsilon: 0.2 * epsilon, delta: countDelta * delta },
    };
  }
  const q = 0.75 * delta;
  const p = 0.25 * delta;
  return {
    querySelection: { epsilon: 0.6 * epsilon, delta: (1 - countDelta) * q },
    queryCounts: { epsilon: 0.15 * epsilon, delta: countDelta * q },
    pairSelection: { epsilon: 0.15 * epsilon, delta: (1 - countDelta) * p },
    pairCounts: { epsilon: 0.1 * epsilon, delta: countDelta * p },
  };
}
