/**
 * DP-SIPS: M. Swanberg, D. Desfontaines, S. Haney, "DP-SIPS: a simpler, more scalable mechanism for
 * differentially private partition selection", PoPETs 2023. Weighted Gaussian selection (Gopi et al. 2020:
 * every user spreads a vector of ℓ2 norm 1 evenly over their items) run in rounds on a split of the budget; the
 * items released in a round are removed from every user's set before the next, so a user whose common queries
 * were released spends their whole unit on the rest, and each user picks their d items anew among their 5d most
 * typed. Three rounds with 20%, 30% and 50% of the selection's ρ (the split of `targeted.ts`, so that the two
 * differ only in targeting). Privacy: `rounds.ts` and docs/methods/dp.md.
 */
import { type RoundsDesign, roundsStrategy } from "./rounds.ts";

const DP_SIPS: RoundsDesign = {
  rho: [0.2, 0.3, 0.5],
  threshold: [0.25, 0.25, 0.5],
  firstD: (d) => d,
  keep: [Number.NEGATIVE_INFINITY, Number.NEGATIVE_INFINITY],
};

export const dpSipsSelection = roundsStrategy(DP_SIPS, {
  name: "dp-sips",
  summary:
    "DP-SIPS (Swanberg et al. 2023): Weighted Gaussian in three rounds, each user's released items removed before the next",
  defaultD: 20,
  candidates: (d) => 5 * d,
});
