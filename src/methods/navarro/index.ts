/**
 * "navarro": user microaggregation of Navarro-Arribas, Torra, Erola & Castellà-Roca (IPM 2012), the syntactic
 * baseline of paper 004 (§2, §5.2). Queries are compared by {@link queryDistance} (edit distances on strings and
 * terms, timestamps, clicked domains, length); two users by the Ds structure of paper 004 (each query matched to
 * the other user's closest one, weighted by repetitions, both ways, normalized); clusters by MDAV. The prototype
 * preserves query frequency: the cluster's distinct queries get copies in proportion to their frequency in the
 * cluster (largest remainder), as many in all as the members' mean log size.
 *
 * For tractability each user is represented in the distance by her `sample` most frequent distinct queries
 * (default 10; the whole log is still used for the prototype).
 */
import type { QueryLog } from "../../log/record.ts";
import { words } from "../../semantic/concept-mapper.ts";
import { type UserLogs, userLogs } from "../../semantic/user-logs.ts";
import type { Rng } from "../../util/random.ts";
import { anonymizeWhenItFits, checkClusterK, checkHeap, heldRows } from "../mdav/limits.ts";
import { cached, meanEvents, microaggregate } from "../mdav/microaggregate.ts";
import type { Method } from "../method.ts";
import { type NavarroParams, navarroDeclaration } from "./meta.ts";
import { domainLabels, queryDistance, type SyntacticQuery } from "./query-distance.ts";

interface Sampled {
  readonly queries: SyntacticQuery[];
  readonly weights: number[];
  readonly total: number;
}

/** Each user's `sample` most frequent distinct queries (first occurrence), with their counts. */
function sampleUsers(input: QueryLog, logs: UserLogs, sample: number): Sampled[] {
  const termIds = new Map<string, number>();
  return logs.byUser.map((events) => {
    const byQuery = new Map<string, { first: number; count: number }>();
    for (const e of events) {
      const q = logs.events[e]!.query;
      const s = byQuery.get(q);
      if (s) s.count++;
      else byQuery.set(q, { first: e, count: 1 });
    }
    const top = [...byQuery.values()].sort((a, b) => b.count - a.count || a.first - b.first).slice(0, sample);
    const queries = top.map(({ first }) => {
      const ev = logs.events[first]!;
      const terms = words(ev.query).map((w) => {
        let id = termIds.get(w);
        if (id === undefined) {
          id = termIds.size;
          termIds.set(w, id);
        }
        return id;
      });
      return {
        text: ev.query,
        terms: Int32Array.from(terms),
        time: ev.time,
        domain: domainLabels(input.records[ev.first]!.clickUrl),
      };
    });
    const weights = top.map((t) => t.count);
    return { queries, weights, total: weights.reduce((a, b) => a + b, 0) };
  });
}

function directed(a: Sampled, b: Sampled, span: number): number {
  let sum = 0;
  a.queries.forEach((q, i) => {
    let best = 1;
    for (const r of b.queries) {
      const d = queryDistance(q, r, span);
      if (d < best) best = d;
    }
    sum += a.weights[i]! * best;
  });
  return sum;
}

function distanceMatrix(users: readonly Sampled[], span: number, onRow: () => void): Float32Array {
  const n = users.length;
  const out = new Float32Array(n * n);
  for (let u = 0; u < n; u++) {
    for (let v = u + 1; v < n; v++) {
      const a = users[u]!;
      const b = users[v]!;
      const total = a.total + b.total;
      const d = total === 0 ? 0 : (directed(a, b, span) + directed(b, a, span)) / total;
      out[u * n + v] = d;
      out[v * n + u] = d;
    }
    onRow();
  }
  return out;
}

/** Frequency-preserving prototype (see the module comment). */
function frequencyPrototype(logs: UserLogs, members: Int32Array, rng: Rng): number[] {
  const size = meanEvents(logs, members);
  const byQuery = new Map<string, number[]>();
  let pooled = 0;
  for (const u of members) {
    for (const e of logs.byUser[u]!) {
      const q = logs.events[e]!.query;
      const l = byQuery.get(q);
      if (l) l.push(e);
      else byQuery.set(q, [e]);
      pooled++;
    }
  }
  const groups = rng.shuffle([...byQuery.values()]);
  const share = groups.map((g) => (g.length * size) / pooled);
  const copies = share.map(Math.floor);
  let missing = size - copies.reduce((a, b) => a + b, 0);
  const order = share
    .map((s, i) => ({ i, frac: s - Math.floor(s) }))
    .sort((a, b) => b.frac - a.frac || a.i - b.i);
  for (const { i } of order) {
    if (missing-- <= 0) break;
    copies[i]!++;
  }
  const out: number[] = [];
  groups.forEach((g, i) => {
    for (let c = 0; c < copies[i]!; c++) out.push(rng.pick(g));
  });
  return out;
}

export const navarro: Method<NavarroParams> = {
  ...navarroDeclaration,
  parse: (raw) => navarroDeclaration.params.parse(raw),
  anonymizeByUser(log, params, ctx) {
    return anonymizeWhenItFits(this, log, params, ctx);
  },
  heldRows() {
    return heldRows(this.name);
  },
  async anonymize(input, params, ctx) {
    checkHeap(this.name, input.records.length, true);
    checkClusterK(this.name, params.k, input.records);
    const { logs, distances } = cached(input, `navarro:${params.sample}`, () => {
      const logs = userLogs(input.records);
      let lo = Number.POSITIVE_INFINITY;
      let hi = Number.NEGATIVE_INFINITY;
      for (const e of logs.events) {
        lo = Math.min(lo, e.time);
        hi = Math.max(hi, e.time);
      }
      const users = sampleUsers(input, logs, params.sample);
      ctx.progress.start("navarro: distances", users.length);
      const distances = distanceMatrix(users, hi > lo ? hi - lo : 0, () => ctx.progress.tick());
      ctx.progress.stop();
      return { logs, distances };
    });
    return microaggregate({
      input,
      logs,
      distances,
      k: params.k,
      rng: ctx.rng,
      prototype: (members, rng) => frequencyPrototype(logs, members, rng),
    });
  },
};
