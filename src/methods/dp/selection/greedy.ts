/**
 * Greedy set union after R. S. Carvalho, K. Wang, L. S. Gondara, "Incorporating item frequency for differentially
 * private set union", AAAI 2022: users in a uniformly random order each spend a unit ℓ1 budget on their items in
 * a fixed order of their own — most often typed first (`greedy`), or highest public prior first, then most often
 * typed (`greedy-prior`) — filling each item up to the cutoff Γ before the next, so no weight goes to an item
 * others have already filled. An item is kept when H + N(0, σ²) > ρ.
 *
 * Why it is (ε, δ)-DP with Gaussian noise of sensitivity 1 (docs/methods/dp.md, "greedy"). One user's step maps
 * (H on their items, budget b) item by item to (min(max(H, Γ), H + b), max(0, b − (Γ − H)₊)): a continuous
 * piecewise-linear map whose every piece has a Jacobian with columns of ℓ1 norm ≤ 1 (identity; [[1,1],[0,0]];
 * [[0,0],[1,1]]), hence ℓ1-non-expansive; the fixed order reads only the user's own history, so the whole step
 * is ℓ1-contractive in the sense of Gopi et al. 2020 (their Policy Laplace argument): adding user u at any place
 * in the order moves the final histogram by at most u's own step, ℓ1 ≤ 1, hence ℓ2 ≤ 1; over the random order
 * it is a mixture of such pairs. The u-only items carry weights of ℓ1 (so ℓ2) norm ≤ 1 on ≤ d items, and pass
 * ρ (`anyWeightsRho`) with probability ≤ the threshold δ. Same charges as weighted-gaussian.
 */
import { analyticGaussianSigma } from "../gaussian.ts";
import { gaussianNoise } from "../random.ts";
import { anyWeightsRho, lengthPrior } from "./length-weighted.ts";
import { withCutoff } from "./policy-gaussian.ts";
import type { PolicyCalibration } from "./policy-laplace.ts";
import { collect, type Selection, shuffled, type UserItems } from "./selection.ts";

/** One user's greedy step: their items in their order, each filled toward Γ from a unit ℓ1 budget. */
export function greedyFill(h: Float64Array, items: Int32Array, gamma: number): void {
  let budget = 1;
  for (const id of items) {
    if (budget <= 0) return;
    const gap = gamma - h[id]!;
    if (gap <= 0) continue;
    const add = Math.min(gap, budget);
    h[id]! += add;
    budget -= add;
  }
}

function calibration(sigma: number, thresholdDelta: number, d: number, alpha: number): PolicyCalibration {
  if (!(sigma > 0) || !Number.isFinite(sigma)) throw new RangeError(`selection noise σ = ${sigma}`);
  return withCutoff(sigma, anyWeightsRho(sigma, thresholdDelta, d), alpha);
}

/** The greedy histogram with users in the given order. */
function greedyHistogram(users: UserItems, items: number, gamma: number): Float64Array {
  const h = new Float64Array(items);
  for (const list of users) greedyFill(h, list, gamma);
  return h;
}

function greedy(
  name: string,
  summary: string,
  prior?: (key: string) => number,
): Selection<PolicyCalibration> {
  return {
    name,
    summary,
    defaultD: 10,
    defaultAlpha: 2,
    ...(prior ? { prior } : {}),
    calibrate(epsilon, delta, d, alpha) {
      return calibration(analyticGaussianSigma(epsilon, delta / 2, 1), delta / 2, d, alpha);
    },
    gaussian: { sensitivity: () => 1, calibrateNoise: calibration },
    select(users, items, cal, random) {
      const h = greedyHistogram(shuffled(users, random), items, cal.gamma);
      const noise = gaussianNoise(random, cal.scale);
      return collect(items, (i) => h[i]! > 0 && h[i]! + noise() > cal.rho);
    },
  };
}

export const greedySelection = greedy(
  "greedy",
  "greedy set union (Carvalho et al. 2022): users in random order fill their most typed queries up to a cutoff from a unit ℓ1 budget; Gaussian noise",
);

export const greedyPriorSelection = greedy(
  "greedy-prior",
  "greedy set union with a public prior: as greedy, each user's shortest queries first (then most typed)",
  lengthPrior,
);
