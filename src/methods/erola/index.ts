/**
 * "erola": semantic microaggregation of Erola, Castellà-Roca, Navarro-Arribas & Torra (PSD 2010), as
 * reimplemented for the comparison of paper 004 (§2, §5.2). Each *word* of each query is looked up in ODP
 * separately (no noun phrases); users are compared by the number of identical categories (Ds with a Boolean
 * category distance) and clustered by MDAV; a cluster's prototype is a random subset of the cluster's query
 * events, as many as the mean log size of its members.
 */

import type { ConceptMapper } from "../../semantic/concept-mapper.ts";
import { STOP_WORDS, words } from "../../semantic/concept-mapper.ts";
import { profileOf } from "../../semantic/profile.ts";
import { type UserLogs, userLogs } from "../../semantic/user-logs.ts";
import { contextMapper } from "../mdav/index.ts";
import { anonymizeWhenItFits, checkClusterK, checkHeap, heldRows } from "../mdav/limits.ts";
import { cached, meanEvents, microaggregate } from "../mdav/microaggregate.ts";
import { booleanDistanceMatrix } from "../mdav/multiset-distance.ts";
import type { Method } from "../method.ts";
import { type ErolaParams, erolaDeclaration } from "./meta.ts";

interface Prepared {
  readonly logs: UserLogs;
  readonly distances: Float32Array;
}

/** The categories of a query, word by word (first category of each word that maps). */
export function wordCategories(query: string, mapper: ConceptMapper): number[] {
  const out: number[] = [];
  for (const w of words(query)) {
    if (STOP_WORDS.has(w)) continue;
    const c = mapper.map(w)[0];
    if (c !== undefined) out.push(c);
  }
  return out;
}

export const erola: Method<ErolaParams> = {
  ...erolaDeclaration,
  parse: (raw) => erolaDeclaration.params.parse(raw),
  anonymizeByUser(log, params, ctx) {
    return anonymizeWhenItFits(this, log, params, ctx);
  },
  heldRows() {
    return heldRows(this.name);
  },
  async anonymize(input, params, ctx) {
    checkHeap(this.name, input.records.length, true);
    checkClusterK(this.name, params.k, input.records);
    const mapper = await contextMapper(ctx);
    const perMapper = cached(input, "erola", () => new WeakMap<ConceptMapper, Prepared>());
    let prepared = perMapper.get(mapper);
    if (!prepared) {
      prepared = prepare();
      perMapper.set(mapper, prepared);
    }
    const { logs, distances } = prepared;
    return microaggregate({
      input,
      logs,
      distances,
      k: params.k,
      rng: ctx.rng,
      prototype: (members, rng) => {
        const pool = Array.from(members).flatMap((u) => logs.byUser[u]!);
        return rng.shuffle(pool).slice(0, meanEvents(logs, members));
      },
    });

    function prepare(): Prepared {
      const logs = userLogs(input.records);
      const profiles = logs.byUser.map((events) =>
        profileOf(events.flatMap((e) => wordCategories(logs.events[e]!.query, mapper))),
      );
      ctx.progress.start("erola: distances", profiles.length);
      const distances = booleanDistanceMatrix(profiles, () => ctx.progress.tick());
      ctx.progress.stop();
      return { logs, distances };
    }
  },
};
