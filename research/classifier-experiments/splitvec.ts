/**
 * splitvec: a content word without a vector of its own lends the mean vector its parts' vectors when the spelling
 * vocabulary splits it into words (`woodstoves` → `wood stoves`; SPLITVEC_CONFIGS: 0 = the plain split, 1 = also
 * with function words, as for a site's name), so that a run-together brand or site name is not a query with no
 * vector (`emb:none`, whose weight leans to Adult). Each part counts 1 / (number of parts).
 */
import { DENSE_LENGTH, isContentWord } from "../../src/classify/features.ts";
import type { Example } from "../../src/classify/model.ts";
import { configs, cv, DIMS, type ExperimentContext } from "./setup.ts";

export default async function splitvec(ctx: ExperimentContext): Promise<void> {
  const sp = ctx.base.kb.spelling;
  cv(ctx, "shipped features", () => undefined);
  for (const [glue] of configs<[number]>("SPLITVEC_CONFIGS", "0,1", ["glue"])) {
    let changed = 0;
    const rows = ctx.rows.map((r) => {
      const acc = new Float64Array(DIMS);
      let found = 0;
      let split = false;
      for (const w of r.words) {
        if (!isContentWord(w)) continue;
        if (ctx.emb.addTo(w, acc)) {
          found++;
          continue;
        }
        const parts = sp.split(w, glue === 1)?.filter((p) => isContentWord(p) && ctx.emb.find(p) >= 0);
        if (parts === undefined || parts.length === 0) continue;
        const part = new Float64Array(DIMS);
        for (const p of parts) ctx.emb.addTo(p, part);
        for (let d = 0; d < DIMS; d++) acc[d]! += part[d]! / parts.length;
        found++;
        split = true;
      }
      if (!split) return r;
      let norm = 0;
      for (let d = 0; d < DIMS; d++) norm += acc[d]! * acc[d]!;
      if (found === 0 || norm === 0) return r;
      for (let d = 0; d < DIMS; d++) acc[d]! *= DENSE_LENGTH / Math.sqrt(norm);
      changed++;
      const f = r.ex.features;
      const at = f.names.indexOf("emb:none");
      const names = at < 0 ? f.names : f.names.filter((_, i) => i !== at);
      const values = at < 0 ? f.values : f.values.filter((_, i) => i !== at);
      const ex: Example = { ...r.ex, features: { names, values, dense: acc } };
      return { ...r, ex };
    });
    console.log(`${changed} of ${rows.length} training queries get a vector from a split word`);
    cv(
      { ...ctx, rows },
      `split words lend their parts' vectors (${glue ? "with function words" : "plain"})`,
      () => undefined,
    );
  }
}
