/**
 * Every yardstick the experiment runner computes, in report order (privacy first). Adding a yardstick = one
 * file implementing {@link Yardstick} plus one line here.
 */
import { UsageError } from "../util/errors.ts";
import { adValue } from "./ad-value.ts";
import { ownAttacks } from "./attacks.ts";
import { background } from "./background.ts";
import { categoryEmd } from "./category-emd.ts";
import { clickPairs } from "./click-pairs.ts";
import { guarantee } from "./guarantee.ts";
import { linkage } from "./linkage.ts";
import { loss } from "./loss.ts";
import { queryFrequency } from "./query-frequency.ts";
import { retention } from "./retention.ts";
import type { Yardstick } from "./yardstick.ts";

export const yardsticks: Yardstick[] = [
  linkage,
  background,
  ownAttacks,
  guarantee,
  retention,
  queryFrequency,
  categoryEmd,
  loss,
  adValue,
  clickPairs,
];

export function getYardstick(name: string): Yardstick {
  const y = yardsticks.find((x) => x.name === name);
  if (!y) {
    throw new UsageError(
      `unknown yardstick ${JSON.stringify(name)}; known: ${yardsticks.map((x) => x.name).join(", ")}`,
    );
  }
  return y;
}
