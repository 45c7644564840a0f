/**
 * The notes a dp release carries when it released no query: why (the most common query's users against what the
 * parameters need) and what would release something (the ε, doubling up to 1000, at which the need falls to what
 * the log has). Pure text from numbers the release computed; no counts of single users.
 */
import { budget } from "./budget.ts";

/** The parameters a note names (`DpParams` has more). */
interface NoteParams {
  readonly epsilon: number;
  readonly delta: number;
  readonly d: number;
  readonly clicks: boolean;
}

const round = (x: number): string => (x >= 100 ? x.toFixed(0) : x.toPrecision(3));

/** The ε (doubling from the given one, up to 1000) at which `need(ε)` falls to `most`, or undefined. */
function epsilonThatReleases<P extends NoteParams>(
  params: P,
  most: number,
  need: (p: P) => number,
): number | undefined {
  for (let e = params.epsilon * 2; e <= 1000; e *= 2) {
    if (need({ ...params, epsilon: e }) <= most) return e;
  }
  return undefined;
}

/**
 * A selection strategy released nothing. `most`: distinct users of the most common query; `needed`: what the
 * strategy needs at these parameters (users, or a weight when `top`, the largest weight, is given); `neededAt`:
 * the same need at other parameters.
 */
export function nothingReleased<P extends NoteParams>(
  params: P,
  most: number,
  needed: number,
  strategy: string,
  neededAt: (p: P) => number,
  top?: number,
): string {
  const at = `ε = ${params.epsilon}, δ = ${params.delta}, d = ${params.d}`;
  if (most === 0) return "dp released no query: the log holds no non-empty query.";
  const e = epsilonThatReleases(params, top ?? most, neededAt);
  return (
    `dp released no query: the most common query has ${most} distinct user${most === 1 ? "" : "s"}` +
    (top === undefined
      ? `, but ${strategy} at ${at} needs about ${round(needed)} to release one. `
      : ` (weight ${round(top)}: each user spreads a weight of ℓ2 norm 1 over their queries), but ${strategy} at ${at} needs a ` +
        `weight of about ${round(needed)} to release one. `) +
    (e === undefined
      ? "No ε up to 1000 would release anything from this log: it has too few users for a private release."
      : `ε ≈ ${e} would release the most common queries; a larger δ or a log with more users also helps.`)
  );
}

/** korolova released nothing: `most` is the largest kept count, `cutoff` its threshold K + 1. */
export function korolovaNothingReleased(
  params: NoteParams,
  most: number,
  cutoff: number,
  betterSelection: string,
): string {
  if (most === 0) return "dp released no query: the log holds no non-empty query.";
  const e = epsilonThatReleases(params, most, (p) => budget(p.epsilon, p.delta, p.d, p.clicks).cutoff);
  return (
    `dp released no query: the largest count among the kept events is ${most}, but korolova at ` +
    `ε = ${params.epsilon}, δ = ${params.delta}, d = ${params.d} releases only counts above ` +
    `K + 1 = ${round(cutoff)}. ` +
    (e === undefined
      ? "No ε up to 1000 would release anything from this log."
      : `ε ≈ ${e} would release the most common queries; --selection ${betterSelection} releases more at the same ε.`)
  );
}
