/**
 * The background-knowledge adversary as a yardstick: for each m in the options (1, 2, 3 by default), the
 * expected % of target users re-identified and % of their other queries learned. See
 * src/attacks/background.ts. n/a for a count-table release (no per-user records to single out).
 */
import { backgroundKnowledge } from "../attacks/background.ts";
import type { Column, Measurement, Yardstick } from "./yardstick.ts";

export const background: Yardstick = {
  name: "background",
  kind: "privacy",
  title: "Background-knowledge adversary who knows m queries of a target",
  source: "querymask's own",
  guidance:
    "Someone who knows a few of your searches (m = 1, 2 or 3) looks for the released user who made them. " +
    "'re-identified' is the chance they pick the released record that really is you; 'learned' is the share of " +
    "your other searches they can then read off it. Lower is safer. Both tend to grow with m; if they stay " +
    "near 0 even at m = 3 the release resists this attack. Expect it to be near 100% for an unchanged log.",
  columns: (o) =>
    o.backgroundM.flatMap((m): Column[] => [
      { key: `m${m}.reidentified`, label: `% users re-identified (m=${m})`, unit: "%", better: "lower" },
      { key: `m${m}.learned`, label: `% of their queries learned (m=${m})`, unit: "%", better: "lower" },
    ]),
  measure({ original, release }, ctx) {
    const out: Measurement = {};
    for (const m of ctx.options.backgroundM) {
      if (!release.log) {
        out[`m${m}.reidentified`] = null;
        out[`m${m}.learned`] = null;
        continue;
      }
      const r = backgroundKnowledge(original, release.log, release.origin, {
        m,
        targets: ctx.options.backgroundTargets,
        rng: ctx.rng.derive(`m${m}`),
      });
      out[`m${m}.reidentified`] = r.targets === 0 ? null : r.reidentifiedPct;
      out[`m${m}.learned`] = r.targets === 0 ? null : r.learnedPct;
    }
    return out;
  },
};
