/**
 * The method's own attacks — the registered attacks written against the same paper as the method (paper 000's
 * de-anonymizers 1–4 and the matcher, for swap) — as a yardstick: % of released records each one links to its
 * true author. The attacker is assumed to know the method's parameters (k, δ, depth). For any other method,
 * and when an attack cannot run on a release (e.g. no categories), the value is n/a: these attacks model one
 * method's mechanism, and a number on another method's output would not mean what its label says.
 */
import { AttackError } from "../attacks/attack.ts";
import { attacks } from "../attacks/registry.ts";
import { silentProgress } from "../util/progress.ts";
import type { Measurement, Yardstick } from "./yardstick.ts";

/** Attacks measured separately by their own yardstick. */
const ELSEWHERE = new Set(["background"]);

const listed = () => attacks.filter((a) => !ELSEWHERE.has(a.name));

export const ownAttacks: Yardstick = {
  name: "attacks",
  kind: "privacy",
  title: "The method's own attacks (the de-anonymizers and matcher of Pàmies-Estrems et al. 2016, for swap)",
  source: "Pàmies-Estrems et al. 2016, §4.2.2",
  guidance:
    "Attacks designed against the swap method: they replay the release in time order and guess, for each " +
    "released query, who really issued it. The value is the % of released records attributed to their true " +
    "author (records the attack makes no guess for count as not linked). Lower is safer. A blind guess is not " +
    "100/k %: swap's buckets grow past k by the δ rule (its summary prints the final k: a mean of 16 on the Excite " +
    "sample at k = 3) and the release never names the author itself, so guessing among a bucket's other users is " +
    "right about 100/(final k − 1) % of the time (≈ 7% there); the de-anonymizers' 23–28% there is well above it. " +
    "n/a = the attack targets another method, or cannot run on this release.",
  columns: () =>
    listed().map((a) => ({ key: a.name, label: `${a.name} linked (%)`, unit: "%", better: "lower" })),
  async measure({ original, release, params, method }, ctx) {
    const out: Measurement = {};
    for (const a of listed()) {
      if (!release.log || !method || a.paper !== method.paper) {
        out[a.name] = null;
        continue;
      }
      try {
        const r = await a.run({
          original,
          released: release.log,
          origin: release.origin,
          params: a.parse(params ?? {}),
          rng: ctx.rng.derive(a.name),
          progress: silentProgress,
        });
        out[a.name] = r.linkedPct;
      } catch (err) {
        if (err instanceof AttackError) out[a.name] = null;
        else throw err;
      }
    }
    return out;
  },
};
