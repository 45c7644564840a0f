/** Runs of the anonymizer and attacks, and the measures taken on their output. */
import type { AttackResult } from "../../src/attacks/attack.ts";
import { getAttack } from "../../src/attacks/registry.ts";
import type { LogRecord, QueryLog } from "../../src/log/record.ts";
import { swapRecords } from "../../src/methods/swap/index.ts";
import { swapParams } from "../../src/methods/swap/meta.ts";
import { silentProgress } from "../../src/util/progress.ts";
import { Rng } from "../../src/util/random.ts";
import { measure } from "./options.ts";
import type { Cell } from "./tables.ts";

export interface Run {
  records: LogRecord[];
  origin: Int32Array;
  counts: Record<string, number>;
  buckets: [string, number][];
  cpu: number;
  heapMiB: number;
}

export async function anonymize(input: LogRecord[], raw: Record<string, unknown>, seed = 1): Promise<Run> {
  const m = await measure(() => swapRecords(input, swapParams.parse(raw), Rng.fromSeed(seed)));
  return { ...m.value, cpu: m.cpu, heapMiB: m.heapMiB };
}

export async function attack(
  name: string,
  original: QueryLog,
  run: Run,
  params: Record<string, unknown>,
): Promise<AttackResult & { cpu: number; heapMiB: number }> {
  const released: QueryLog = { records: run.records, format: original.format };
  const m = await measure(() =>
    getAttack(name).run({
      original,
      released,
      origin: run.origin,
      params,
      rng: Rng.fromSeed(3),
      progress: silentProgress,
    }),
  );
  return { ...m.value, cpu: m.cpu, heapMiB: m.heapMiB };
}

/** Per user, the count of query events in each category (full path), as the profiler counts them. */
export function eventProfiles(
  records: readonly LogRecord[],
  keep?: (i: number) => boolean,
): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  let prev: LogRecord | undefined;
  records.forEach((r, i) => {
    const p = prev;
    prev = r;
    if (keep && !keep(i)) return;
    if (p && p.user === r.user && p.time === r.time && p.query === r.query) return;
    let m = out.get(r.user);
    if (m === undefined) {
      m = new Map();
      out.set(r.user, m);
    }
    const c = r.category ?? "";
    m.set(c, (m.get(c) ?? 0) + 1);
  });
  return out;
}

/**
 * Profile distortion as a tree earth mover's distance: for each user, the original and released category
 * distributions (full ODP paths) are compared on the ODP tree with unit edge lengths, where EMD = Σ over
 * non-root nodes |P(subtree) − Q(subtree)|. Reported as the mean over users and as % of the largest possible
 * value (2 × the deepest level: all mass moved between two deepest leaves under different top-level nodes).
 */
export function treeEmd(
  a: Map<string, Map<string, number>>,
  b: Map<string, Map<string, number>>,
): { mean: number; pct: number; users: number } {
  let maxDepth = 1;
  const mass = (m: Map<string, number> | undefined, sign: number, into: Map<string, number>) => {
    if (!m) return;
    let total = 0;
    for (const n of m.values()) total += n;
    for (const [c, n] of m) {
      const parts = c.split("/");
      const off = parts[0] === "Top" ? 1 : 0;
      if (parts.length - off > maxDepth) maxDepth = parts.length - off;
      for (let d = off + 1; d <= parts.length; d++) {
        const node = parts.slice(0, d).join("/");
        into.set(node, (into.get(node) ?? 0) + (sign * n) / total);
      }
    }
  };
  let sum = 0;
  let users = 0;
  for (const u of new Set([...a.keys(), ...b.keys()])) {
    const diff = new Map<string, number>();
    mass(a.get(u), 1, diff);
    mass(b.get(u), -1, diff);
    let e = 0;
    for (const v of diff.values()) e += Math.abs(v);
    sum += e;
    users++;
  }
  const mean = users === 0 ? 0 : sum / users;
  return { mean, pct: (100 * mean) / (2 * maxDepth), users };
}

/**
 * A denser stream from the same data: each (user, period) becomes a user of its own ("<user>#<n>") and every
 * period is laid over the first one. Folding the 3-month subset by day gives ≈ 3.5 events/s, the density of the
 * full AOL log the paper and saps-qls ran on (36.4M logs / 92 days ≈ 4.6/s; 27.2M ≈ 3.4/s).
 */
export function fold(records: readonly LogRecord[], period: number): LogRecord[] {
  const t0 = records.reduce((m, r) => Math.min(m, r.time), Number.POSITIVE_INFINITY);
  return records.map((r) => {
    const slot = Math.floor((r.time - t0) / period);
    return { ...r, user: `${r.user}#${slot}`, time: t0 + ((r.time - t0) % period) };
  });
}

export function bucketsGrown(buckets: [string, number][], k: number): number {
  return buckets.filter(([, x]) => x > k).length;
}

/**
 * How often, in the time-ordered stream of this subset, an event arrives while the previous k−1 events of its
 * top-level category were all its own author's: the situation in which a bucket of size k holds one user only
 * (the δ rule), independent of the anonymizer's state.
 */
export function streaks(records: readonly LogRecord[]): Cell[][] {
  const ev: { user: string; time: number; cat: string }[] = [];
  let prev: LogRecord | undefined;
  for (const r of records) {
    const p = prev;
    prev = r;
    if (p && p.user === r.user && p.time === r.time && p.query === r.query) continue;
    ev.push({ user: r.user, time: r.time, cat: (r.category ?? "").split("/").slice(0, 2).join("/") });
  }
  const order = ev.map((_, i) => i).sort((a, b) => ev[a]!.time - ev[b]!.time || a - b);
  const rows: Cell[][] = [];
  for (const k of [3, 10, 30]) {
    const run = new Map<string, { user: string; n: number }>();
    let hits = 0;
    for (const i of order) {
      const e = ev[i]!;
      const s = run.get(e.cat);
      if (s && s.user === e.user) s.n++;
      else run.set(e.cat, { user: e.user, n: 1 });
      if (run.get(e.cat)!.n >= k) hits++;
    }
    rows.push([k, ev.length, (100 * hits) / ev.length]);
  }
  return rows;
}
