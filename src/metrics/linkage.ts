/**
 * Record linkage RL (paper 004, Eq. 10) as a yardstick; the measure itself is src/metrics/record-linkage.ts.
 * n/a for a count-table release.
 */
import { recordLinkage } from "./record-linkage.ts";
import type { Yardstick } from "./yardstick.ts";

export const linkage: Yardstick = {
  name: "rl",
  kind: "privacy",
  title: "Record linkage RL (Batet et al. 2013, Eq. 10)",
  source: "Batet et al. 2013, §5.1",
  guidance:
    "An attacker holding the whole original log matches each released user to the original user(s) with the " +
    "most queries in common. RL is the expected % of users matched to themselves. 100% = every user can be " +
    "found (an unchanged log of distinct users), 0% = nobody; k-anonymous methods aim at about 100/k % or less.",
  columns: () => [{ key: "rl", label: "record linkage RL (%)", unit: "%", better: "lower" }],
  measure({ original, release }) {
    if (!release.log) return { rl: null };
    return { rl: recordLinkage(original, release.log).rl };
  },
};
