/**
 * Reading dp's summed partial rows back on the coordinator (sharded.ts, sharded-rounds.ts): one kind's items
 * numbered as the single machine numbers them, a weight summed per weight value, and the per-user tallies.
 */
import type { PartialRow, SummedRows } from "../sharded.ts";

/** The row kind of the per-user tallies, in both the summed and the rounds passes. */
export const TALLY = 2;

/** One kind's items, numbered by the position of their first holder: each one's users and its weight rows. */
export async function itemsByFirst(
  sums: SummedRows,
  kind: number,
): Promise<{ readonly keys: string[]; readonly users: Float64Array; readonly parts: PartialRow[][] }> {
  const byKey = new Map<string, { first: number; users: number; parts: PartialRow[] }>();
  for await (const page of sums.rows(kind)) {
    for (const r of page) {
      const item = byKey.get(r.key);
      if (item === undefined) byKey.set(r.key, { first: r.first, users: r.a, parts: [r] });
      else {
        item.first = Math.min(item.first, r.first);
        item.users += r.a;
        item.parts.push(r);
      }
    }
  }
  const keys = [...byKey.keys()].sort((x, y) => byKey.get(x)!.first - byKey.get(y)!.first);
  const users = new Float64Array(keys.length);
  const parts = keys.map((key, id) => {
    const item = byKey.get(key)!;
    users[id] = item.users;
    return item.parts;
  });
  return { keys, users, parts };
}

/** An item's weights summed per weight value, in weight order whatever order the rows came in. */
export function weightOf(parts: { key2: string; a: number }[]): number {
  parts.sort((x, y) => (x.key2 < y.key2 ? -1 : x.key2 > y.key2 ? 1 : 0));
  let h = 0;
  for (const p of parts) h += p.a * Number(p.key2);
  return h;
}

/** The per-user tallies, by key. */
export async function tallies(sums: SummedRows): Promise<Map<string, PartialRow>> {
  const out = new Map<string, PartialRow>();
  for await (const page of sums.rows(TALLY)) for (const r of page) out.set(r.key, r);
  return out;
}
