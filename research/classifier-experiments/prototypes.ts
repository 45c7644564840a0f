/**
 * prototypes: per branch, the largest cosine between the query's mean word vector (or, `pw:`, any one word's
 * vector) and the vectors of the ODP category names under it (odp/background_information.tsv).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { isContentWord } from "../../src/classify/features.ts";
import { TOP_LEVELS } from "../../src/classify/labels.ts";
import { cv, dot, type ExperimentContext, type Extra, K, meanVector } from "./setup.ts";

export default async function prototypes(ctx: ExperimentContext): Promise<void> {
  const { emb, rows } = ctx;
  const protos: { top: number; v: Float64Array }[] = [];
  for (const line of readFileSync(join(ctx.paths.odp, "background_information.tsv"), "utf8")
    .trim()
    .split("\n")) {
    const path = line.split("\t")[0]!.split("/");
    const top = TOP_LEVELS.indexOf(path[1] ?? "");
    if (top < 0) continue;
    for (let depth = 2; depth < path.length; depth++) {
      const v = meanVector(emb, path[depth]!.toLowerCase().split(/[_\-,]+/));
      if (v !== undefined) protos.push({ top, v });
    }
  }
  console.log(`${protos.length} category-name prototypes`);
  const maxCos = (v: Float64Array) => {
    const best = new Float64Array(K).fill(-1);
    for (const p of protos) best[p.top] = Math.max(best[p.top]!, dot(v, p.v));
    return best;
  };
  const feats = (best: Float64Array, kind: string, scale: number): [string, number][] =>
    [...best].flatMap((x, t): [string, number][] => (x > -1 ? [[`${kind}:${t}`, scale * x]] : []));
  const perQuery = rows.map((r) => {
    const v = meanVector(emb, r.words);
    return v === undefined ? undefined : maxCos(v);
  });
  for (const scale of [1, 3, 10]) {
    const extra: Extra = (_, i) => (perQuery[i] === undefined ? [] : feats(perQuery[i]!, "pq", scale));
    cv(ctx, `prototypes, query vector ×${scale}`, () => extra);
  }
  const perWord = new Map<string, Float64Array | undefined>();
  const wordExtra: Extra = (r) => {
    const best = new Float64Array(K).fill(-1);
    for (const w of r.words) {
      if (!isContentWord(w)) continue;
      if (!perWord.has(w)) {
        const v = meanVector(emb, [w]);
        perWord.set(w, v === undefined ? undefined : maxCos(v));
      }
      const b = perWord.get(w);
      if (b !== undefined) for (let t = 0; t < K; t++) best[t] = Math.max(best[t]!, b[t]!);
    }
    return feats(best, "pw", 3);
  };
  cv(ctx, "prototypes, best word ×3", () => wordExtra);
}
