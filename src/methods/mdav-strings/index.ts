/**
 * "mdav-strings": the non-semantic version of paper 004 (§5.2). No query processing and no ODP: queries are
 * compared as strings (identical or not) in Ds, users are clustered by the same MDAV, and the representative is
 * built from the distribution of queries only: each user contributes her Eq. 7 quota of query events, her most
 * repeated queries first (ties in random order).
 */

import { profileOf } from "../../semantic/profile.ts";
import { type UserLogs, userLogs } from "../../semantic/user-logs.ts";
import type { Rng } from "../../util/random.ts";
import { anonymizeWhenItFits, checkClusterK, checkHeap, heldRows } from "../mdav/limits.ts";
import { cached, microaggregate } from "../mdav/microaggregate.ts";
import { booleanDistanceMatrix } from "../mdav/multiset-distance.ts";
import { quotas } from "../mdav/representative.ts";
import type { Method } from "../method.ts";
import { mdavStringsDeclaration, type StringsParams } from "./meta.ts";

/** Each member's quota of her own events, most repeated queries first. */
function distributionPrototype(logs: UserLogs, members: Int32Array, rng: Rng): number[] {
  const q = quotas(Array.from(members, (u) => logs.byUser[u]!.length));
  const out: number[] = [];
  members.forEach((u, m) => {
    const events = rng.shuffle([...logs.byUser[u]!]);
    const count = new Map<string, number>();
    for (const e of events) count.set(logs.events[e]!.query, (count.get(logs.events[e]!.query) ?? 0) + 1);
    events.sort((a, b) => count.get(logs.events[b]!.query)! - count.get(logs.events[a]!.query)!);
    out.push(...events.slice(0, q[m]!));
  });
  return out;
}

export const mdavStrings: Method<StringsParams> = {
  ...mdavStringsDeclaration,
  parse: (raw) => mdavStringsDeclaration.params.parse(raw),
  anonymizeByUser(log, params, ctx) {
    return anonymizeWhenItFits(this, log, params, ctx);
  },
  heldRows() {
    return heldRows(this.name);
  },
  async anonymize(input, params, ctx) {
    checkHeap(this.name, input.records.length, true);
    checkClusterK(this.name, params.k, input.records);
    const { logs, distances } = cached(input, "mdav-strings", () => {
      const logs = userLogs(input.records);
      const ids = new Map<string, number>();
      const profiles = logs.byUser.map((events) =>
        profileOf(
          events.map((e) => {
            const q = logs.events[e]!.query;
            let id = ids.get(q);
            if (id === undefined) {
              id = ids.size;
              ids.set(q, id);
            }
            return id;
          }),
        ),
      );
      ctx.progress.start("mdav-strings: distances", profiles.length);
      const distances = booleanDistanceMatrix(profiles, () => ctx.progress.tick());
      ctx.progress.stop();
      return { logs, distances };
    });
    return microaggregate({
      input,
      logs,
      distances,
      k: params.k,
      rng: ctx.rng,
      prototype: (members, rng) => distributionPrototype(logs, members, rng),
    });
  },
};
