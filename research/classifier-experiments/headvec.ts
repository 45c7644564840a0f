/**
 * headvec: beside the mean word vector, the vector of one content word on its own (100 more dense dimensions), so
 * that the word that names what is searched for is not averaged away. HEADVEC_CONFIGS `which:length`: which 0 =
 * the last content word with a vector (the head of an English noun phrase: `barcelona players`), 1 = the first;
 * its vector scaled to `length` (the mean's is DENSE_LENGTH).
 */
import type { Example } from "../../src/classify/model.ts";
import { isStopword } from "../../src/text/stopwords.ts";
import { configs, cv, DIMS, type ExperimentContext } from "./setup.ts";

export default async function headvec(ctx: ExperimentContext): Promise<void> {
  cv(ctx, "shipped features", () => undefined);
  for (const [which, length] of configs<[number, number]>("HEADVEC_CONFIGS", "0:5,0:10,1:5", [
    "which",
    "length",
  ])) {
    const rows = ctx.rows.map((r) => {
      const mean = r.ex.features.dense;
      if (mean === undefined) return r;
      const found = r.words.filter((w) => !isStopword(w) && ctx.emb.find(w) >= 0);
      const word = which === 0 ? found[found.length - 1] : found[0];
      const dense = new Float64Array(2 * DIMS);
      dense.set(mean);
      if (word !== undefined) {
        const one = new Float64Array(DIMS);
        ctx.emb.addTo(word, one);
        let norm = 0;
        for (let d = 0; d < DIMS; d++) norm += one[d]! * one[d]!;
        if (norm > 0) for (let d = 0; d < DIMS; d++) dense[DIMS + d] = (one[d]! * length) / Math.sqrt(norm);
      }
      const ex: Example = { ...r.ex, features: { ...r.ex.features, dense } };
      return { ...r, ex };
    });
    // Rows without any vector keep a 100-dimension dense part of undefined; the model reads none for them.
    cv(
      { ...ctx, rows },
      `${which === 0 ? "last" : "first"} content word's vector, length ${length}`,
      () => undefined,
    );
  }
}
