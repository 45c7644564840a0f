/**
 * sessions: the mean word vector of the queries the same user typed next to the query in the AOL subset (two
 * before and after, within 30 minutes), as 100 more weights per branch.
 */
import { aolRows, cv, type ExperimentContext, type Extra, meanVector } from "./setup.ts";

export default async function sessions(ctx: ExperimentContext): Promise<void> {
  const lines = aolRows(ctx.paths);
  if (lines === undefined) {
    console.log(`sessions: ${ctx.paths.aol} not found; skipping`);
    return;
  }
  const events = lines
    .map((line) => {
      const c = line.split("\t");
      return {
        user: c[0] ?? "",
        query: c[1] ?? "",
        t: Date.parse(`${(c[2] ?? "").replace(" ", "T")}Z`) / 1000,
      };
    })
    .filter((e) => e.query !== "");
  const at = new Map<string, number[]>();
  events.forEach((e, i) => {
    const list = at.get(e.query);
    if (list === undefined) at.set(e.query, [i]);
    else list.push(i);
  });
  let withContext = 0;
  const context = ctx.rows.map((r) => {
    const words: string[] = [];
    for (const i of at.get(r.query) ?? [])
      for (let j = Math.max(0, i - 2); j <= i + 2 && j < events.length; j++) {
        const e = events[j]!;
        const me = events[i]!;
        if (j === i || e.user !== me.user || Math.abs(e.t - me.t) > 1800 || e.query === r.query) continue;
        words.push(...e.query.toLowerCase().split(/[^a-z0-9']+/));
      }
    const v = meanVector(ctx.emb, words);
    if (v !== undefined) withContext++;
    return v;
  });
  console.log(`${withContext} of ${ctx.rows.length} training queries have a neighbouring query`);
  const extra: Extra = (_, i) => {
    const v = context[i];
    return v === undefined ? [["ctx:none", 1]] : [...v].map((x, d): [string, number] => [`ctx:${d}`, 5 * x]);
  };
  cv(ctx, "session context (mean vector, length 5)", () => extra);
}
