/**
 * Targeted rounds: length-weighted Gaussian selection in three rounds, each round's noisy weights steering the
 * next (`rounds.ts`). The idea is that of MAD2R (J. Y. Chen, V. Cohen-Addad, A. Epasto, M. Zadimoghaddam,
 * "Scalable private partition selection via adaptive weighting", ICML 2025): what the first round computed biases
 * the second round's weights. Here the bias is a filter: in round r a user spends their unit of weight only on
 * their candidates not yet released whose noisy weight in round r − 1 reached a fraction of round r's threshold,
 * so a user's weight leaves the queries nobody else typed (most of a query log's distinct queries) and the head
 * queries already released, for the mid-tail queries that can still pass. The design (three rounds with 15%, 25%
 * and 60% of the selection's ρ, round 1 on each user's 3d shortest queries, filters at 25% and 45% of the next
 * threshold) is ours, chosen on generated seed-5 and seed-7 logs (docs/results/dp.md); the proof is in docs/methods/dp.md.
 */
import { lengthPrior } from "./length-weighted.ts";
import { type RoundsDesign, roundsStrategy } from "./rounds.ts";

export const TARGETED: RoundsDesign = {
  rho: [0.2, 0.3, 0.5],
  threshold: [0.25, 0.25, 0.5],
  firstD: (d) => 5 * d,
  keep: [0.2, 0.4],
};

export const targetedSelection = roundsStrategy(
  TARGETED,
  {
    name: "targeted",
    summary:
      "length-weighted Gaussian in three rounds; each round's noisy weights steer the next toward the queries that can still pass (after MAD2R, Chen et al. 2025)",
    defaultD: 10,
    candidates: (d) => TARGETED.firstD(d),
  },
  lengthPrior,
);
