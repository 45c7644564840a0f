/**
 * namevectors: the scrubber's person names kept as public figures when the word vectors of the first name and
 * the surname are close (cosine ≥ t: a public figure's names occur together in the vectors' corpus), or when the
 * surname is nearer the first name than a share ≥ t of the 5,000 commonest census surnames are (and the first
 * name nearer the surname than that share of the 1,500 commonest first names); t chosen per fold on the four
 * training folds (best F1), pooled precision/recall on train's `pii` column, and dev with t fit on all of train.
 */
import {
  census,
  DIMS,
  dot,
  type ExperimentContext,
  f1,
  type NameCase,
  nameCases,
  nameThresholds,
  tally,
} from "./setup.ts";

export default async function namevectors(ctx: ExperimentContext): Promise<void> {
  const { emb } = ctx;
  const names = census();
  const unit = (w: string): Float64Array | undefined => {
    const i = emb.find(w);
    if (i < 0) return undefined;
    const a = new Float64Array(DIMS);
    emb.addIndex(i, a);
    const norm = Math.hypot(...a);
    for (let d = 0; d < DIMS; d++) a[d]! /= norm;
    return a;
  };
  const vectorsOf = (list: string[]) =>
    list.map((x) => unit(x.toLowerCase())).filter((v): v is Float64Array => v !== undefined);
  const topLasts = vectorsOf(names.last.slice(0, 5000));
  const topFirsts = vectorsOf([...names.first_male.slice(0, 500), ...names.first_female.slice(0, 1000)]);
  /** Per query: gold, and per person-name span its [cosine, percentile] (-2 when a word has no vector). */
  const casesOf = (set: "train" | "dev"): NameCase[] =>
    nameCases(ctx.paths, set, (ws) => {
      const f = unit(ws[0] ?? "");
      const l = unit(ws[ws.length - 1] ?? "");
      if (f === undefined || l === undefined || ws.length < 2) return [-2, -2];
      const cos = dot(f, l);
      let a = 0;
      for (const v of topLasts) if (dot(f, v) < cos) a++;
      let b = 0;
      for (const v of topFirsts) if (dot(l, v) < cos) b++;
      return [cos, Math.min(a / topLasts.length, b / topFirsts.length)];
    });
  /** The threshold on a grid of -0.2…1 by 0.025 with the best F1 (none: keep no name). */
  const fit = (cases: readonly NameCase[], k: number) => {
    let best = Number.POSITIVE_INFINITY;
    let bestF = f1(tally(cases, k, best));
    for (let t = -0.2; t <= 1.0001; t += 0.025) {
      const f = f1(tally(cases, k, t));
      if (f > bestF) {
        best = t;
        bestF = f;
      }
    }
    return best;
  };
  nameThresholds(
    casesOf("train"),
    casesOf("dev"),
    ["cosine of first name and surname", "percentile among census names"],
    fit,
    3,
  );
}
