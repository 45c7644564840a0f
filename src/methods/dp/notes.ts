/**
 * The note a dp release carries when it released no query. It is published with the release, so it holds only
 * what the parameters determine (what an item needs to be released, and how that need falls as ε grows) and the
 * one fact read off the table (it is empty); how many users the log's most common query had goes to the
 * diagnostics, never into the note.
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

/** What `need` is at ε × 2, × 4, × 8 (those up to 1000): "ε = 2: 11.2, ε = 4: 6.05". */
function atLargerEpsilon<P extends NoteParams>(params: P, need: (p: P) => number): string {
  const out: string[] = [];
  for (let e = params.epsilon * 2; e <= 1000 && out.length < 3; e *= 2)
    out.push(`ε = ${e}: ${round(need({ ...params, epsilon: e }))}`);
  return out.join(", ");
}

/**
 * A selection strategy released nothing. `needed`: what an item needs at these parameters to be released with
 * probability about ½ — distinct users, or (`weighted`) the weight its users give it; `neededAt`: the same need
 * at other parameters.
 */
export function nothingReleased<P extends NoteParams>(
  params: P,
  needed: number,
  strategy: string,
  neededAt: (p: P) => number,
  weighted: boolean,
): string {
  const at = `ε = ${params.epsilon}, δ = ${params.delta}, d = ${params.d}`;
  const need = weighted
    ? `a weight of about ${round(needed)} from its users (each user spreads a weight of ℓ2 norm 1 over their ` +
      `≤ d queries: about ${Math.ceil(needed)} users who typed only it, ` +
      `${Math.ceil(needed * Math.sqrt(params.d))} who typed d queries each)`
    : `about ${round(needed)} distinct users`;
  const larger = atLargerEpsilon(params, neededAt);
  return (
    `dp released no query: ${strategy} at ${at} releases a query (with probability about ½) only when it has ` +
    `${need}, and no query of this log passed. ` +
    (larger === "" ? "" : `A larger ε lowers the need (${larger}); `) +
    "a larger δ or a log with more users also helps. (How many users the log's most common query had is " +
    "in the release's diagnostics, not published.)"
  );
}

/** korolova released nothing: `cutoff` is its threshold K + 1 on the noisy counts of the kept events. */
export function korolovaNothingReleased(params: NoteParams, cutoff: number, betterSelection: string): string {
  const larger = atLargerEpsilon(params, (p) => budget(p.epsilon, p.delta, p.d, p.clicks).cutoff);
  return (
    `dp released no query: korolova at ε = ${params.epsilon}, δ = ${params.delta}, d = ${params.d} releases ` +
    `only queries whose noisy count among the kept events passes K + 1 = ${round(cutoff)}, and no query of ` +
    `this log passed. ` +
    (larger === "" ? "" : `A larger ε lowers the cutoff (${larger}); `) +
    `--selection ${betterSelection} releases more at the same ε.`
  );
}
