/**
 * sif: the mean word vector with each word weighted by how rare it is, so that common content words (`free`,
 * `pictures`, `online`) weigh less in it than the words that name the subject (Arora, Liang & Ma 2017, "smooth
 * inverse frequency", without its common-component removal). The word vectors' vocabulary is in order of corpus
 * frequency, so a word's rank r gives its Zipf probability p = 1 / ((r + 1) H). SIF_CONFIGS `mode:a`: mode 0 weighs
 * a word a / (a + p); mode 1 weighs it log(r + 2) (a is ignored).
 */
import { DENSE_LENGTH } from "../../src/classify/features.ts";
import type { Example } from "../../src/classify/model.ts";
import { isStopword } from "../../src/text/stopwords.ts";
import { configs, cv, DIMS, type ExperimentContext } from "./setup.ts";

/** The harmonic number of the vocabulary's size (~341,000 words): Zipf's normaliser. */
const H = Math.log(341_000) + 0.5772;

export default async function sif(ctx: ExperimentContext): Promise<void> {
  cv(ctx, "shipped features", () => undefined);
  for (const [mode, a] of configs<[number, number]>("SIF_CONFIGS", "0:0.001,0:0.0001,0:0.00003,1:0", [
    "mode",
    "a",
  ])) {
    const weight = (rank: number) => (mode === 0 ? a / (a + 1 / ((rank + 1) * H)) : Math.log(rank + 2));
    const rows = ctx.rows.map((r) => {
      if (r.ex.features.dense === undefined) return r;
      const acc = new Float64Array(DIMS);
      const one = new Float64Array(DIMS);
      for (const w of r.words) {
        if (isStopword(w)) continue;
        const rank = ctx.emb.find(w);
        if (rank < 0) continue;
        one.fill(0);
        ctx.emb.addIndex(rank, one);
        const k = weight(rank);
        for (let d = 0; d < DIMS; d++) acc[d]! += k * one[d]!;
      }
      let norm = 0;
      for (let d = 0; d < DIMS; d++) norm += acc[d]! * acc[d]!;
      if (norm === 0) return r;
      for (let d = 0; d < DIMS; d++) acc[d]! *= DENSE_LENGTH / Math.sqrt(norm);
      const ex: Example = { ...r.ex, features: { ...r.ex.features, dense: acc } };
      return { ...r, ex };
    });
    cv({ ...ctx, rows }, mode === 0 ? `SIF a = ${a}` : "log-rank weights", () => undefined);
  }
}
