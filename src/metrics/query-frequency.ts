/**
 * Query-frequency preservation: of the original top-K queries (K = 1000 by default), the share that
 * are also among the release's top-K (recall), and Spearman's rank correlation between the original and
 * released frequencies of those K queries (a query missing from the release has frequency 0; ties get average
 * ranks). Works on released logs and on count tables (dp).
 */
import { queryFrequencies, topQueries } from "./counting.ts";
import { percent, type Value, type Yardstick } from "./yardstick.ts";

export const queryFrequency: Yardstick = {
  name: "frequency",
  kind: "utility",
  title: "Query-frequency preservation (top-K recall and rank correlation)",
  source: "querymask's own",
  guidance:
    "Whether the popular queries survive, in the right order. Recall 100% means every top-K query of the original " +
    "is still a top-K query; rank correlation 1 means their popularity order is unchanged, 0 means no relation. " +
    "Matters for query suggestion, trend and popularity analyses.",
  columns: (o) => [
    { key: "recall", label: `% top-${o.topQueries} queries kept`, unit: "%", better: "higher" },
    { key: "spearman", label: `rank correlation (top-${o.topQueries})`, unit: "", better: "higher" },
  ],
  measure({ original, release }, ctx) {
    const k = ctx.options.topQueries;
    const before = queryFrequencies(original.records);
    let after: ReadonlyMap<string, number>;
    if (release.log) after = queryFrequencies(release.log.records);
    else if (release.table) {
      const counts = new Map<string, number>();
      for (const q of release.table.queries) counts.set(q.query, (counts.get(q.query) ?? 0) + q.count);
      after = counts;
    } else return { recall: null, spearman: null };
    const top = topQueries(before, k);
    const topAfter = new Set(topQueries(after, k));
    const kept = top.filter((q) => topAfter.has(q)).length;
    return {
      recall: percent(kept, top.length),
      spearman: spearman(
        top.map((q) => before.get(q) ?? 0),
        top.map((q) => after.get(q) ?? 0),
      ),
    };
  },
};

/** Average ranks (1-based), ties sharing the mean of their positions. */
export function ranks(values: readonly number[]): number[] {
  const order = values.map((_, i) => i).sort((a, b) => values[a]! - values[b]!);
  const out = new Array<number>(values.length);
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && values[order[j + 1]!] === values[order[i]!]) j++;
    const r = (i + j) / 2 + 1;
    for (let t = i; t <= j; t++) out[order[t]!] = r;
    i = j + 1;
  }
  return out;
}

/** Spearman's ρ with tie correction (Pearson on average ranks); n/a when either side is constant. */
export function spearman(a: readonly number[], b: readonly number[]): Value {
  if (a.length !== b.length || a.length < 2) return null;
  const ra = ranks(a);
  const rb = ranks(b);
  const mean = (a.length + 1) / 2;
  let num = 0;
  let da = 0;
  let db = 0;
  for (let i = 0; i < ra.length; i++) {
    const x = ra[i]! - mean;
    const y = rb[i]! - mean;
    num += x * y;
    da += x * x;
    db += y * y;
  }
  if (da === 0 || db === 0) return null;
  return num / Math.sqrt(da * db);
}
