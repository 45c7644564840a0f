/** Diagnostic variants of the semantic MDAV method for `npm run eval:mdav -- --ablation`. */
import type { QueryLog } from "../../src/log/record.ts";
import { wordCategories } from "../../src/methods/erola/index.ts";
import { mdavPartition } from "../../src/methods/mdav/mdav-core.ts";
import { meanEvents } from "../../src/methods/mdav/microaggregate.ts";
import { booleanDistanceMatrix } from "../../src/methods/mdav/multiset-distance.ts";
import { semanticPartition } from "../../src/methods/mdav/partition.ts";
import { buildRelease } from "../../src/methods/mdav/release.ts";
import { pickQueries, quotas, representativeCategories } from "../../src/methods/mdav/representative.ts";
import type { Release } from "../../src/methods/method.ts";
import type { ConceptMapper } from "../../src/semantic/concept-mapper.ts";
import { profileOf } from "../../src/semantic/profile.ts";
import { mapLogs } from "../../src/semantic/profiles.ts";
import { userLogs } from "../../src/semantic/user-logs.ts";
import type { Rng } from "../../src/util/random.ts";

/** An anonymization of `log` at `k` with a seeded rng. */
export type Run = (k: number, rng: Rng) => Promise<Release>;

/**
 * Diagnostic variants of the semantic method, each changing one part (clusters reused across seeds):
 * - `abl:random-prototype`: semantic partition, Erola's prototype (random events of the members);
 * - `abl:own-queries`: semantic representative, but each category's query drawn among the members' own events;
 * - `abl:no-z`: each member's quota of categories drawn at random from her own (no sorting by δs to z), queries
 *   from the whole log as in the paper;
 * - `abl:erola-partition`: Erola's partition (identical word categories) with the semantic representative.
 */

export function ablations(log: QueryLog, mapper: ConceptMapper): Map<string, Run> {
  const logs = userLogs(log.records);
  const { profiles, pool } = mapLogs(logs, mapper);
  const space = mapper.space;
  const semantic = new Map<number, Promise<Int32Array[]>>();
  const semanticClusters = (k: number) => {
    if (!semantic.has(k))
      semantic.set(k, semanticPartition(space, profiles, { k, variant: "exact", blockSize: 0 }));
    return semantic.get(k)!;
  };
  let erolaD: Float32Array | undefined;
  const erolaClusters = (k: number) => {
    erolaD ??= booleanDistanceMatrix(
      logs.byUser.map((ev) => profileOf(ev.flatMap((e) => wordCategories(logs.events[e]!.query, mapper)))),
    );
    return mdavPartition({ n: profiles.length, data: erolaD }, k);
  };
  const members = (m: Int32Array) => Array.from(m, (u) => profiles[u]!);
  const release = (k: number, clusters: Int32Array[], syn: (m: Int32Array, rng: Rng) => number[], rng: Rng) =>
    buildRelease(
      log,
      logs,
      clusters,
      clusters.map((m, c) => syn(m, rng.fork(c))),
      {},
      k,
    );
  const randomPrototype = (m: Int32Array, rng: Rng) =>
    rng.shuffle(Array.from(m).flatMap((u) => logs.byUser[u]!)).slice(0, meanEvents(logs, m));
  const semanticRep = (m: Int32Array, rng: Rng) =>
    pickQueries(representativeCategories(space, members(m)), pool, rng);
  const ownQueries = (m: Int32Array, rng: Rng) => {
    const own = new Map<number, number[]>();
    for (const u of m) {
      for (const e of logs.byUser[u]!) {
        for (const c of mapper.map(logs.events[e]!.query)) {
          const l = own.get(c);
          if (l) l.push(e);
          else own.set(c, [e]);
        }
      }
    }
    return pickQueries(representativeCategories(space, members(m)), own, rng);
  };
  const noZ = (m: Int32Array, rng: Rng) => {
    const ps = members(m);
    const q = quotas(ps.map((p) => p.total));
    const cats: number[] = [];
    ps.forEach((p, i) => {
      const all: number[] = [];
      p.cats.forEach((c, j) => {
        for (let r = 0; r < p.weights[j]!; r++) all.push(c);
      });
      cats.push(...rng.shuffle(all).slice(0, q[i]!));
    });
    return pickQueries(cats, pool, rng);
  };
  return new Map<string, Run>([
    ["abl:random-prototype", async (k, rng) => release(k, await semanticClusters(k), randomPrototype, rng)],
    ["abl:own-queries", async (k, rng) => release(k, await semanticClusters(k), ownQueries, rng)],
    ["abl:no-z", async (k, rng) => release(k, await semanticClusters(k), noZ, rng)],
    ["abl:erola-partition", async (k, rng) => release(k, erolaClusters(k), semanticRep, rng)],
  ]);
}
