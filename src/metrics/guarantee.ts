/**
 * The formal guarantee a method states by construction (for the DP release, its ε and δ), copied
 * from `Release.guarantee`. n/a for methods without one — k-anonymity style methods are judged by the attacks.
 */
import type { Yardstick } from "./yardstick.ts";

export const guarantee: Yardstick = {
  name: "dp",
  kind: "privacy",
  title: "Differential-privacy guarantee (ε, δ) of the release",
  source: "the dp method's accountant (docs/methods/dp.md)",
  guidance:
    "A promise that holds whatever the attacker knows: any one user's presence changes the probability of any " +
    "output by at most a factor e^ε, except with probability δ. Smaller is stronger; ε ≤ 1 and δ far below " +
    "1/(number of users) are conventional. n/a = the method makes no such promise.",
  columns: () => [
    { key: "epsilon", label: "ε", unit: "", better: "lower" },
    { key: "delta", label: "δ", unit: "", better: "lower" },
  ],
  measure({ release }) {
    const g = release.guarantee;
    return g.model === "differential-privacy"
      ? { epsilon: g.epsilon, delta: g.delta }
      : { epsilon: null, delta: null };
  },
};
