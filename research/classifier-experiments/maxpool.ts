/**
 * maxpool: a second pooling of the content words' vectors, their element-wise maximum (unit vectors per word), as
 * 100 more weights per branch (× MAXPOOL_SCALES, default 3,10).
 */
import { isContentWord } from "../../src/classify/features.ts";
import { cv, DIMS, type ExperimentContext, type Extra, meanVector, type Options } from "./setup.ts";

export default async function maxpool(ctx: ExperimentContext, options: Options): Promise<void> {
  const perQuery = ctx.rows.map((r) => {
    let out: Float64Array | undefined;
    for (const w of r.words) {
      if (!isContentWord(w)) continue;
      const v = meanVector(ctx.emb, [w]);
      if (v === undefined) continue;
      if (out === undefined) out = Float64Array.from(v);
      else for (let d = 0; d < DIMS; d++) out[d] = Math.max(out[d]!, v[d]!);
    }
    return out;
  });
  for (const scale of options.maxpoolScales) {
    const extra: Extra = (_, i) => {
      const v = perQuery[i];
      return v === undefined
        ? [["mx:none", 1]]
        : [...v].map((x, d): [string, number] => [`mx:${d}`, scale * x]);
    };
    cv(ctx, `+ max-pooled word vectors ×${scale}`, () => extra);
  }
}
