/**
 * Plain-language text for the report (the same words are in docs/experiment.md): how to read the whole report.
 * Each yardstick's own guidance lives with the yardstick (`Yardstick.guidance`).
 */

export const INTRO =
  "Each anonymization method was run on the same log with every parameter setting and seed listed below. " +
  "Every release was then attacked and measured with the same yardsticks, so methods can be compared side by side. " +
  "Privacy yardsticks say how much an attacker recovers: lower is safer. Utility yardsticks say how much of the " +
  "log's value is left: higher retention and recall are better, lower profile distance is better. The audit " +
  "column says whether the release keeps what the method promises (its privacy model, no identifier, no column " +
  "it does not release, counts that add up), checked on the release alone as `querymask audit` does: a FAIL " +
  "names the broken promise, and results.json lists the first violating records.";

export const FRONTIER =
  "The frontier chart puts every configuration on one plane: left = less risk, up = more utility. Points on the " +
  "dashed line are the best trade-offs (no other configuration is both safer and more useful); points below or " +
  "to the right of it are beaten by some other choice. Pick the point on the line that meets your risk budget. " +
  "The 'identity' (release unchanged) and 'drop-all' (release nothing) baselines, when present, mark the two ends.";

export const NA =
  "n/a means the yardstick does not apply to that release — for example per-user measures on a count table, " +
  "category distances when no classifier was available, or click measures on a log without clicks. It is never " +
  "a zero in disguise.";

export const SEEDS =
  "Values are means over seeds; the per-method tables give the number of seeds. Randomised methods and the " +
  "background attack's choice of targets depend on the seed, so differences smaller than the spread across " +
  "seeds should not be trusted.";
