/**
 * weak: per-word branch distributions counted over the automatically labelled AOL queries of
 * odp/odp_topics_to_aol_queries_lm_model.txt and top500_aol_queries_to_odp_topics.tsv (log-ratio to the prior,
 * averaged over the query's words); `--no-regional` leaves out the LM's Regional catch-all.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { isContentWord } from "../../src/classify/features.ts";
import { TOP_LEVELS } from "../../src/classify/labels.ts";
import { cv, type ExperimentContext, type Extra, K, type Options } from "./setup.ts";

export default async function weak(ctx: ExperimentContext, { noRegional }: Options): Promise<void> {
  const odp = ctx.paths.odp;
  const counts = new Map<string, Float64Array>();
  const add = (q: string, top: number, w: number) => {
    for (const word of new Set(q.toLowerCase().split(/[^a-z0-9']+/))) {
      if (word === "" || !isContentWord(word)) continue;
      let c = counts.get(word);
      if (c === undefined) {
        c = new Float64Array(K);
        counts.set(word, c);
      }
      c[top]! += w;
    }
  };
  const lm = readFileSync(join(odp, "odp_topics_to_aol_queries_lm_model.txt"), "utf8").split("\n");
  let queries = 0;
  for (let i = 0; i + 1 < lm.length; i += 2) {
    const path = lm[i]!.split("\t")[0]!.split("<-");
    const top = TOP_LEVELS.indexOf(path[path.length - 2] ?? "");
    if (top < 0 || (noRegional && TOP_LEVELS[top] === "Regional")) continue;
    const body = lm[i + 1]!.replace(/\s+\d+\s*$/, "")
      .replace(/^\[/, "")
      .replace(/\]$/, "");
    for (const q of body.split(", ")) {
      add(q, top, 1);
      queries++;
    }
  }
  for (const line of readFileSync(join(odp, "top500_aol_queries_to_odp_topics.tsv"), "utf8")
    .trim()
    .split("\n")
    .slice(1)) {
    const [q, , cat, score] = line.split("\t");
    const top = TOP_LEVELS.indexOf(cat?.split("/")[1] ?? "");
    if (q !== undefined && top >= 0) add(q, top, Number(score));
  }
  const prior = new Float64Array(K);
  for (const c of counts.values()) for (let t = 0; t < K; t++) prior[t]! += c[t]!;
  const total = prior.reduce((a, b) => a + b, 0);
  for (let t = 0; t < K; t++) prior[t]! /= total;
  console.log(`${queries} weakly labelled queries, ${counts.size} words`);
  for (const [minN, alpha] of [
    [3, 1],
    [2, 2],
    [5, 1],
  ] as const) {
    const extra: Extra = (r) => {
      const acc = new Float64Array(K);
      let m = 0;
      for (const w of r.words) {
        const c = isContentWord(w) ? counts.get(w) : undefined;
        const s = c?.reduce((a, b) => a + b, 0) ?? 0;
        if (c === undefined || s < minN) continue;
        m++;
        for (let t = 0; t < K; t++)
          if (prior[t]! > 0)
            acc[t]! += Math.log((c[t]! + alpha * K * prior[t]!) / (s + alpha * K)) - Math.log(prior[t]!);
      }
      if (m === 0) return [["lm:none", 1]];
      return [...acc].flatMap((x, t): [string, number][] => (prior[t]! > 0 ? [[`lm:${t}`, x / m]] : []));
    };
    cv(ctx, `weak labels${noRegional ? " (no Regional)" : ""}, min ${minN}, α ${alpha}`, () => extra);
  }
}
