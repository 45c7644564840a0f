/** clicks: the hosts the query's clicks went to in the shared AOL subset, as features (learned per fold). */
import { aolRows, cv, type ExperimentContext, type Extra } from "./setup.ts";

export default async function clicks(ctx: ExperimentContext): Promise<void> {
  const lines = aolRows(ctx.paths);
  if (lines === undefined) {
    console.log(`clicks: ${ctx.paths.aol} not found; skipping`);
    return;
  }
  const hosts = new Map<string, Map<string, number>>();
  for (const line of lines) {
    const c = line.split("\t");
    if (!c[1] || !c[4]) continue;
    let h: string;
    try {
      h = new URL(c[4]).hostname.replace(/^www\d*\./, "");
    } catch {
      continue;
    }
    let m = hosts.get(c[1]);
    if (m === undefined) {
      m = new Map();
      hosts.set(c[1], m);
    }
    m.set(h, (m.get(h) ?? 0) + 1);
  }
  const extra: Extra = (r) => {
    const m = hosts.get(r.query);
    if (m === undefined) return [["host:none", 1]];
    const tot = [...m.values()].reduce((a, b) => a + b, 0);
    return [...m].map(([h, c]): [string, number] => [`host:${h}`, c / tot]);
  };
  cv(ctx, "click hosts", () => extra);
}
