/**
 * namedf: the scrubber's person names kept as public figures by the web document frequency of their words
 * (../shared/data/termstats: per Porter stem, pages of the ~1M crawled AOL click targets and of ~80k crawled ODP
 * pages that hold it): a public figure's surname should be on more pages, and on more directory (ODP) pages
 * relative to AOL's, than a private person's. Scores log(1 + ODP df of the surname), log(1 + ODP df) − log(1 +
 * AOL df) of the surname, and log(1 + the smaller ODP df of first name and surname); and by how rare the names are
 * in the 1990 census lists (log(1 + rank) of the surname, of the first name, their sum; a name the lists lack
 * ranks 100,000); kept when the score ≥ t, t fit per fold as for namevectors (best F1 among the scores' own
 * values).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { stem } from "../../src/text/stem.ts";
import {
  census,
  type ExperimentContext,
  f1,
  type NameCase,
  nameCases,
  nameThresholds,
  tally,
} from "./setup.ts";

const WHAT = [
  "log(1 + ODP df of the surname)",
  "log(1 + ODP df) - log(1 + AOL df) of the surname",
  "log(1 + smaller ODP df of first name and surname)",
  "log(1 + census rank of the surname)",
  "log(1 + census rank of the first name)",
  "log(1 + census rank of the surname) + log(1 + census rank of the first name)",
];

export default async function namedf(ctx: ExperimentContext): Promise<void> {
  const dfTable = (file: string) => {
    const m = new Map<string, number>();
    for (const l of readFileSync(join(ctx.paths.shared, "termstats", file), "utf8")
      .split("\n")
      .slice(1)) {
      const t = l.indexOf("\t");
      if (t > 0) m.set(l.slice(0, t), Number(l.slice(t + 1)));
    }
    return m;
  };
  const aolDf = dfTable("aol_dictionary.tsv");
  const odpDf = dfTable("odp_dictionary.tsv");
  const names = census();
  const rankOf = (lists: string[][]) => {
    const m = new Map<string, number>();
    for (const l of lists)
      l.forEach((name, r) => {
        const k = name.toLowerCase();
        if (!m.has(k) || r < m.get(k)!) m.set(k, r);
      });
    return m;
  };
  const firstRank = rankOf([names.first_male, names.first_female]);
  const lastRank = rankOf([names.last]);
  /** Census rank, a name the lists lack ranked past their end. */
  const rank = (m: Map<string, number>, w: string) => Math.log1p(m.get(w) ?? 100_000);
  /** Per query: gold, and per person-name span its scores (WHAT). */
  const casesOf = (set: "train" | "dev"): NameCase[] =>
    nameCases(ctx.paths, set, (ws) => {
      const first = stem(ws[0] ?? "");
      const last = stem(ws[ws.length - 1] ?? "");
      const odpLast = Math.log1p(odpDf.get(last) ?? 0);
      const lastR = rank(lastRank, ws[ws.length - 1] ?? "");
      const firstR = rank(firstRank, ws[0] ?? "");
      return [
        odpLast,
        odpLast - Math.log1p(aolDf.get(last) ?? 0),
        Math.log1p(Math.min(odpDf.get(first) ?? 0, odpDf.get(last) ?? 0)),
        lastR,
        firstR,
        lastR + firstR,
      ];
    });
  /** The threshold among midpoints of the scores' own values with the best F1 (none: keep no name). */
  const fit = (cases: readonly NameCase[], k: number) => {
    let best = Number.POSITIVE_INFINITY;
    let bestF = f1(tally(cases, k, best));
    const values = [...new Set(cases.flatMap((c) => c.scores.map((s) => s[k]!)))].sort((a, b) => a - b);
    for (let i = 0; i < values.length; i++) {
      const t = i + 1 < values.length ? (values[i]! + values[i + 1]!) / 2 : values[i]! + 1;
      const f = f1(tally(cases, k, t));
      if (f > bestF) {
        best = t;
        bestF = f;
      }
    }
    return best;
  };
  nameThresholds(casesOf("train"), casesOf("dev"), WHAT, fit, 2);
}
