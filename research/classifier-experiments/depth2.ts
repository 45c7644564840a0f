/**
 * depth2: the second-level categories (`Top/Arts/Music`) of each placed unit's first three candidates and of each
 * word's first candidate, as features beside the top-level ones (× 1 / × 0.5).
 */
import { cv, type ExperimentContext } from "./setup.ts";

export default async function depth2(ctx: ExperimentContext): Promise<void> {
  const tax = ctx.base.kb.taxonomy;
  for (const weight of [1, 0.5]) {
    cv(ctx, `+ second-level candidates ×${weight}`, () => (r) => {
      const out: [string, number][] = [];
      const seen = new Set<string>();
      const add = (kind: string, id: number) => {
        if (tax.depth(id) < 2) return;
        const name = `${kind}:${tax.path(tax.ancestorAt(id, 2))}`;
        if (seen.has(name)) return;
        seen.add(name);
        out.push([name, weight]);
      };
      for (const p of r.ev.placed) for (const id of p.ids.slice(0, 3)) add("u2", id);
      for (const ids of r.ev.wordIds) if (ids !== undefined && ids.length > 0) add("w2", ids[0]!);
      return out;
    });
  }
}
