/**
 * Every attack querymask runs, by name. Adding an attack = one file in src/attacks/ exporting an {@link Attack},
 * plus one line here.
 */
import { UsageError } from "../util/errors.ts";
import type { Attack } from "./attack.ts";
import { backgroundAttack } from "./background.ts";
import { deanon1, deanon2, deanon3, deanon4 } from "./deanon.ts";
import { matcher } from "./matcher.ts";

export const attacks: Attack[] = [deanon1, deanon2, deanon3, deanon4, matcher, backgroundAttack];

export function getAttack(name: string): Attack {
  const a = attacks.find((x) => x.name === name);
  if (!a) {
    throw new UsageError(
      `unknown attack ${JSON.stringify(name)}; known attacks: ${attacks.map((x) => x.name).join(", ")}`,
    );
  }
  return a;
}
