/**
 * The log context of issue 22 as `querymask classify --context clicks,users` computes it, for the experiments
 * (logctx): the AOL subset's distinct queries (compared lower-cased and single-spaced) with their features as
 * setup.ts computes them, its query events (consecutive rows with the same user, query and time; empty and "-"
 * queries left out), each distinct query's clicked hosts (the pool's click counts), and for a query q:
 *
 * - the host term (hostprop, source 0): D_h = Σ_q' clicks(q', h) · p(·|q') over the log's distinct queries, q's own
 *   contribution subtracted, hosts no other distinct query clicked skipped, D̃_h = (D_h + α·prior)/(|D_h| + α),
 *   M = Σ_h clicks(q, h) · D̃_h / Σ_h clicks(q, h); the term is log(M/prior);
 * - the user term (userctx): D = Σ p(·|q') over the query events of the users who typed q, other than q's, within
 *   ±T of one of that user's events of q (each counted once); D̃ = (D + α·prior)/(|D| + α); the term is log(D̃/prior).
 *
 * prior: the mean of p over the log's query events (`marginalPrior`), or any other the caller passes. Holds no
 * query text beyond the distinct texts themselves; prints nothing.
 */
import { type Features, queryFeatures } from "../../src/classify/features.ts";
import { comparable } from "../../src/classify/labels.ts";
import type { LinearModel } from "../../src/classify/model.ts";
import { QueryEvents } from "../../src/classify/query-events.ts";
import type { PoolExamples } from "../../src/classify/self-training.ts";
import { aolPoolOrSkip, aolRows, type ExperimentContext, K } from "./setup.ts";

export class LogContext {
  /** Distinct query → id. */
  private readonly idOf = new Map<string, number>();
  /** Features of each distinct query, by id. */
  readonly features: Features[] = [];
  /** The query id of every query event, in log order. */
  readonly eventQuery: Int32Array;
  /** Per user, their events' query ids and times (s), in log order. */
  private readonly userQuery: Int32Array[];
  private readonly userTime: Float64Array[];
  /** Per distinct query, its (user, event index) pairs. */
  private readonly occ = new Map<number, [number, number][]>();
  /** Per distinct query, its clicked hosts (host id, clicks). */
  readonly hosts: (readonly [number, number][])[] = [];
  /** Per host, how many distinct queries clicked it. */
  readonly hostQueries: Int32Array;
  /** Number of clicked hosts. */
  readonly H: number;
  /** Neighbour lists by window (s) and query id: the ids of the other events within the window. */
  private readonly neighbourCache = new Map<number, Map<number, Int32Array>>();

  constructor(ctx: ExperimentContext, pool: PoolExamples, lines: readonly string[]) {
    const tax = ctx.base.kb.taxonomy;
    const users = new Map<string, number>();
    const uq: number[][] = [];
    const ut: number[][] = [];
    const events: number[] = [];
    let prev = "";
    for (const line of lines) {
      const c = line.split("\t");
      if (c.length < 3) continue;
      const q = comparable(c[1] ?? "");
      const key = `${c[0]}\t${q}\t${c[2]}`;
      if (key === prev) continue; // a click row of the same event
      prev = key;
      if (q === "" || q === "-") continue;
      let id = this.idOf.get(q);
      if (id === undefined) {
        id = this.features.length;
        this.idOf.set(q, id);
        this.features.push(queryFeatures(ctx.base.evidence(q), tax, ctx.emb));
      }
      let u = users.get(c[0]!);
      if (u === undefined) {
        u = uq.length;
        users.set(c[0]!, u);
        uq.push([]);
        ut.push([]);
      }
      events.push(id);
      uq[u]!.push(id);
      ut[u]!.push(Date.parse(`${c[2]!.replace(" ", "T")}Z`) / 1000);
    }
    this.eventQuery = Int32Array.from(events);
    this.userQuery = uq.map((x) => Int32Array.from(x));
    this.userTime = ut.map((x) => Float64Array.from(x));
    this.userQuery.forEach((qs, u) => {
      qs.forEach((id, e) => {
        const l = this.occ.get(id);
        if (l === undefined) this.occ.set(id, [[u, e]]);
        else l.push([u, e]);
      });
    });
    const hostId = new Map<string, number>();
    this.idOf.forEach((_, q) => {
      const m = pool.clicks.get(q);
      this.hosts.push(
        m === undefined
          ? []
          : [...m].map(([h, c]): [number, number] => {
              let id = hostId.get(h);
              if (id === undefined) {
                id = hostId.size;
                hostId.set(h, id);
              }
              return [id, c];
            }),
      );
    });
    this.H = hostId.size;
    this.hostQueries = new Int32Array(this.H);
    for (const hs of this.hosts) for (const [h] of hs) this.hostQueries[h]!++;
  }

  /** Number of distinct queries. */
  get size(): number {
    return this.features.length;
  }

  get users(): number {
    return this.userQuery.length;
  }

  /** The id of a query of the log (compared lower-cased and single-spaced), or undefined. */
  id(query: string): number | undefined {
    return this.idOf.get(comparable(query));
  }

  /** p(·|q) of every distinct query under `model` (softmax of its scores), K per query. */
  probs(model: LinearModel): Float64Array {
    const out = new Float64Array(this.size * K);
    const s = new Float64Array(K);
    this.features.forEach((f, id) => {
      model.scores(f, s);
      softmaxInto(s, out, id * K);
    });
    return out;
  }

  /** The mean of p over the log's query events (each at least 1e-12). */
  marginalPrior(p: Float64Array): Float64Array {
    const prior = new Float64Array(K);
    for (const id of this.eventQuery) for (let c = 0; c < K; c++) prior[c]! += p[id * K + c]!;
    for (let c = 0; c < K; c++) prior[c] = Math.max(prior[c]! / this.eventQuery.length, 1e-12);
    return prior;
  }

  /** Σ_q' clicks(q', h) · p(·|q') per host, K per host. */
  hostMass(p: Float64Array): Float64Array {
    const t = new Float64Array(this.H * K);
    this.hosts.forEach((hs, id) => {
      for (const [h, c] of hs) for (let k = 0; k < K; k++) t[h * K + k]! += c * p[id * K + k]!;
    });
    return t;
  }

  /**
   * The host term log(M/prior) of query `id` into `out`; false (and `out` zero) when none of its hosts was clicked
   * by another distinct query.
   */
  hostTerm(
    id: number,
    p: Float64Array,
    mass: Float64Array,
    prior: Float64Array,
    alpha: number,
    out: Float64Array,
  ): boolean {
    out.fill(0);
    const d = new Float64Array(K);
    let wsum = 0;
    for (const [h, c] of this.hosts[id]!) {
      let m = 0;
      for (let k = 0; k < K; k++) {
        const v = mass[h * K + k]! - c * p[id * K + k]!;
        d[k] = v > 1e-9 ? v : 0;
        m += d[k]!;
      }
      if (m <= 1e-9 || this.hostQueries[h]! <= 1) continue;
      for (let k = 0; k < K; k++) out[k]! += (c * (d[k]! + alpha * prior[k]!)) / (m + alpha);
      wsum += c;
    }
    if (wsum === 0) return false;
    for (let k = 0; k < K; k++) out[k] = Math.log(out[k]! / wsum / prior[k]!);
    return true;
  }

  /** The ids of the other query events within ±`window` s of one of their user's events of `id` (once each). */
  neighbours(id: number, window: number): Int32Array {
    let byId = this.neighbourCache.get(window);
    if (byId === undefined) {
      byId = new Map();
      this.neighbourCache.set(window, byId);
    }
    let out = byId.get(id);
    if (out !== undefined) return out;
    const list: number[] = [];
    const byUser = new Map<number, number[]>();
    for (const [u, e] of this.occ.get(id) ?? []) {
      const ts = byUser.get(u);
      if (ts === undefined) byUser.set(u, [this.userTime[u]![e]!]);
      else ts.push(this.userTime[u]![e]!);
    }
    for (const [u, ts] of byUser) {
      const qs = this.userQuery[u]!;
      const times = this.userTime[u]!;
      for (let e = 0; e < qs.length; e++) {
        if (qs[e] === id) continue;
        let gap = Number.POSITIVE_INFINITY;
        for (const t of ts) gap = Math.min(gap, Math.abs(times[e]! - t));
        if (gap <= window) list.push(qs[e]!);
      }
    }
    out = Int32Array.from(list);
    byId.set(id, out);
    return out;
  }

  /** The user term log(D̃/prior) of query `id` with window `window` s into `out`; returns |D|. */
  userTerm(
    id: number,
    p: Float64Array,
    window: number,
    prior: Float64Array,
    alpha: number,
    out: Float64Array,
  ): number {
    out.fill(0);
    const nb = this.neighbours(id, window);
    for (const q2 of nb) for (let k = 0; k < K; k++) out[k]! += p[q2 * K + k]!;
    for (let k = 0; k < K; k++)
      out[k] = Math.log((out[k]! + alpha * prior[k]!) / (nb.length + alpha) / prior[k]!);
    return nb.length;
  }
}

/** The softmax of `s` into `out` at `at`. */
export function softmaxInto(s: ArrayLike<number>, out: Float64Array, at: number): void {
  let m = s[0]!;
  for (let c = 1; c < K; c++) if (s[c]! > m) m = s[c]!;
  let z = 0;
  for (let c = 0; c < K; c++) z += Math.exp(s[c]! - m);
  for (let c = 0; c < K; c++) out[at + c] = Math.exp(s[c]! - m) / z;
}

/**
 * The AOL pool, the experiments' view of the log (`LogContext`) and the product's (`productEvents`), or undefined
 * (with a message) when ../shared/data is absent.
 */
export async function loadLogContext(
  ctx: ExperimentContext,
  name: string,
): Promise<
  | {
      pool: PoolExamples;
      log: LogContext;
      product: ReturnType<typeof productEvents>;
      /** When the pool was read (the experiments' CPU-s count from here). */
      t0: NodeJS.CpuUsage;
    }
  | undefined
> {
  const pool = await aolPoolOrSkip(ctx, name);
  const lines = aolRows(ctx.paths);
  if (pool === undefined || lines === undefined) return undefined;
  const t0 = process.cpuUsage();
  const log = new LogContext(ctx, pool, lines);
  const product = productEvents(lines, log);
  lines.length = 0;
  return { pool, log, product, t0 };
}

/**
 * The log as `querymask classify --context` reads it (src/classify/log-context.ts's QueryEvents: every query event and
 * click row, the texts as logged), with each of its texts' p taken from `log`'s (by the compared form).
 */
export function productEvents(
  lines: readonly string[],
  log: LogContext,
): {
  events: QueryEvents;
  probs(p: Float64Array): (Float64Array | undefined)[];
  branchOf(query: string, branches: Int32Array): number;
} {
  const events = new QueryEvents();
  let prev = "";
  for (const line of lines) {
    const c = line.split("\t");
    if (c.length < 3) continue;
    const key = `${c[0]}\t${c[1]}\t${c[2]}`;
    if (key !== prev) events.add(c[0]!, c[1]!, Date.parse(`${c[2]!.replace(" ", "T")}Z`) / 1000);
    prev = key;
    if (c[4]) events.click(c[1]!, c[4]);
  }
  // The experiment's id of each of the product's texts ("" and "-": none, as the classifier scores nothing there).
  const ids = events.texts.map((t) => (t.trim() === "" || t.trim() === "-" ? undefined : log.id(t)));
  const byText = new Map<string, number>();
  events.texts.forEach((t, q) => {
    const key = comparable(t);
    if (!byText.has(key)) byText.set(key, q);
  });
  return {
    events,
    probs: (p) => ids.map((id) => (id === undefined ? undefined : p.subarray(id * K, id * K + K))),
    branchOf: (query, branches) => {
      const q = byText.get(comparable(query));
      return q === undefined ? -1 : branches[q]!;
    },
  };
}
