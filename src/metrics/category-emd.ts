/**
 * Per-user category-profile distance (after the saps-qls EMD tables of the swap authors): each user's
 * profile is the distribution of their query events over ODP categories cut at level L (1 = `Top/Arts`,
 * 2 = `Top/Arts/Music`). The distance between a user's original and released profile is the earth mover's
 * distance with the tree as ground metric, normalised by its maximum (2L), in % — 0% same interests, 100%
 * completely different ones. On a tree the EMD is exact and cheap: the sum over edges of the difference in mass
 * below the edge.
 *
 * Users are matched by id; averaged over users with a classified profile on both sides. n/a when there is no
 * such user (no categories, nothing released, or a count table).
 */

import type { Taxonomy } from "../knowledge/taxonomy.ts";
import type { LogRecord } from "../log/record.ts";
import { eventsOf } from "./counting.ts";
import type { Value, Yardstick, YardstickContext } from "./yardstick.ts";

export const LEVELS = [1, 2] as const;

type Profile = Map<number, number>;

/** Id of a category path, or of its deepest known ancestor; undefined when nothing matches. */
function resolve(tax: Taxonomy, path: string): number | undefined {
  let p = path;
  while (p !== "" && p !== "Top") {
    const id = tax.id(p);
    if (id !== undefined) return id;
    const cut = p.lastIndexOf("/");
    if (cut < 0) return undefined;
    p = p.slice(0, cut);
  }
  return undefined;
}

/** Per-user mass below each node (root excluded) at level `level`, normalised to 1. */
export function profiles(
  records: readonly LogRecord[],
  categoryOf: (r: LogRecord) => string,
  tax: Taxonomy,
  level: number,
): Map<string, Profile> {
  const raw = new Map<string, Profile>();
  const cache = new Map<string, number[] | undefined>();
  for (const e of eventsOf(records)) {
    if (e.query === "" || e.nextPage) continue;
    const path = categoryOf(records[e.first]!);
    if (path === "") continue;
    const key = `${level}\u0000${path}`;
    let chain = cache.get(key);
    if (!cache.has(key)) {
      const id = resolve(tax, path);
      chain = id === undefined ? undefined : tax.lineage(tax.ancestorAt(id, level)).slice(1);
      cache.set(key, chain);
    }
    if (!chain || chain.length === 0) continue;
    let prof = raw.get(e.user);
    if (!prof) {
      prof = new Map([[-1, 0]]);
      raw.set(e.user, prof);
    }
    prof.set(-1, prof.get(-1)! + 1);
    for (const node of chain) prof.set(node, (prof.get(node) ?? 0) + 1);
  }
  for (const prof of raw.values()) {
    const total = prof.get(-1)!;
    prof.delete(-1);
    for (const [k, v] of prof) prof.set(k, v / total);
  }
  return raw;
}

/** Tree EMD between two normalised profiles, in [0, 1] (divided by the maximum distance 2·level). */
export function treeEmd(a: Profile, b: Profile, level: number): number {
  let sum = 0;
  for (const [node, p] of a) sum += Math.abs(p - (b.get(node) ?? 0));
  for (const [node, q] of b) if (!a.has(node)) sum += q;
  return sum / (2 * level);
}

function meanEmd(before: Map<string, Profile>, after: Map<string, Profile>, level: number): Value {
  let sum = 0;
  let n = 0;
  for (const [user, p] of before) {
    const q = after.get(user);
    if (!q) continue;
    sum += treeEmd(p, q, level);
    n++;
  }
  return n === 0 ? null : (100 * sum) / n;
}

export const categoryEmd: Yardstick = {
  name: "emd",
  kind: "utility",
  title: "Per-user category-profile distance (earth mover's distance, ODP levels 1 and 2)",
  source: "the EMD tables of saps-qls, by the authors of Pàmies-Estrems et al. 2016",
  guidance:
    "How much each user's interest profile (share of their queries per ODP category) changed, averaged over " +
    "users. 0% = profiles identical, 100% = entirely different topics. Level 1 is coarse (Arts, Sports, …), " +
    "level 2 finer (Arts/Music, …), so level 2 is always at least as large. Lower is better for profiling, " +
    "personalisation and ad targeting. n/a = no categories (run the classifier) or no released user to compare.",
  columns: () =>
    LEVELS.map((l) => ({
      key: `l${l}`,
      label: `profile EMD level ${l} (%)`,
      unit: "%" as const,
      better: "lower" as const,
    })),
  measure({ original, release }, ctx: YardstickContext) {
    const out: Record<string, Value> = {};
    for (const l of LEVELS) out[`l${l}`] = null;
    if (!release.log) return out;
    const tax = ctx.taxonomy();
    const ofOriginal = (r: LogRecord) => ctx.categoryOf(r.query, r.category);
    const ofReleased = (r: LogRecord) => ctx.categoryOf(r.query, r.category);
    for (const l of LEVELS) {
      out[`l${l}`] = meanEmd(
        profiles(original.records, ofOriginal, tax, l),
        profiles(release.log.records, ofReleased, tax, l),
        l,
      );
    }
    return out;
  },
};
