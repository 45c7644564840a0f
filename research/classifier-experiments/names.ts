/**
 * names: the scrubber's person names kept when at least n distinct users of the AOL subset searched them
 * (precision/recall on train's and dev's `pii` column).
 */
import { createScrubber } from "../../src/scrub/scrubber.ts";
import { aolRows, type ExperimentContext, labelledPii } from "./setup.ts";

export default async function names(ctx: ExperimentContext): Promise<void> {
  const lines = aolRows(ctx.paths);
  if (lines === undefined) {
    console.log(`names: ${ctx.paths.aol} not found; skipping`);
    return;
  }
  const users = new Map<string, Set<string>>();
  for (const line of lines) {
    const [u, q] = line.split("\t");
    if (!q || u === undefined) continue;
    let s = users.get(q);
    if (s === undefined) {
      s = new Set();
      users.set(q, s);
    }
    s.add(u);
  }
  const distinct = [...users.keys()];
  const scrubber = createScrubber({ mode: "tag" });
  const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  for (const set of ["train", "dev"] as const) {
    const cases = labelledPii(ctx.paths, set).map(({ query: q, personName }) => {
      const spans = scrubber.scrub(q).spans.filter((s) => s.type === "person_name");
      let searchers = Number.POSITIVE_INFINITY;
      for (const s of spans) {
        const name = q.slice(s.start, s.end).toLowerCase();
        const re = new RegExp(`(^|[^a-z])${escapeRe(name)}($|[^a-z])`);
        const who = new Set<string>();
        for (const d of distinct)
          if (d.includes(name) && re.test(d)) for (const u of users.get(d)!) who.add(u);
        searchers = Math.min(searchers, who.size);
      }
      return { gold: personName, found: spans.length > 0, searchers };
    });
    for (const keepAt of [Number.POSITIVE_INFINITY, 2, 3]) {
      let tp = 0;
      let fp = 0;
      let fn = 0;
      for (const k of cases) {
        const p = k.found && k.searchers < keepAt;
        if (p && k.gold) tp++;
        else if (p) fp++;
        else if (k.gold) fn++;
      }
      console.log(
        `person names on ${set}, kept when searched by ≥ ${keepAt} users: precision ${(tp / (tp + fp)).toFixed(2)}, recall ${(tp / (tp + fn)).toFixed(2)} (TP ${tp}, FP ${fp}, FN ${fn})`,
      );
    }
  }
}
