/**
 * The matcher of paper 000 (§3.3.3): released records identical to a record of the original log (a multiset
 * match on user, query, ItemRank, ClickURL and, unless `matchTime` is false, time). On a correct swap release
 * it finds nothing; on the A(NR) ablation it finds the queries left under their own author (Fig. 6).
 */
import type { LogRecord } from "../log/record.ts";
import { boolParam } from "../util/params.ts";
import type { Attack, AttackResult } from "./attack.ts";

function key(r: LogRecord, withTime: boolean): string {
  return `${r.user}\u0000${r.query}\u0000${withTime ? r.time : ""}\u0000${r.itemRank ?? ""}\u0000${r.clickUrl ?? ""}`;
}

export const matcher: Attack = {
  name: "matcher",
  summary: "Count released records identical to an original record",
  paper: "Pàmies-Estrems et al. 2016",
  params: [
    {
      name: "matchTime",
      type: "boolean",
      description: "a match must also have the same time (false: the paper's time-blind matcher)",
      default: true,
    },
  ],
  parse: (raw) => ({ matchTime: boolParam("matcher", raw, "matchTime", true) }),
  async run(input): Promise<AttackResult> {
    const withTime = boolParam("matcher", input.params, "matchTime", true);
    const pool = new Map<string, number>();
    const users = new Set<string>();
    for (const r of input.original.records) {
      const k = key(r, withTime);
      pool.set(k, (pool.get(k) ?? 0) + 1);
      users.add(r.user);
    }
    let linked = 0;
    const linkedUsers = new Set<string>();
    for (const r of input.released.records) {
      const k = key(r, withTime);
      const left = pool.get(k) ?? 0;
      if (left > 0) {
        pool.set(k, left - 1);
        linked++;
        linkedUsers.add(r.user);
      }
    }
    const total = input.released.records.length;
    return {
      attack: "matcher",
      guessed: total,
      linked,
      total,
      linkedPct: total === 0 ? 0 : (100 * linked) / total,
      usersLinked: linkedUsers.size,
      users: users.size,
      counts: { "match time": withTime ? 1 : 0 },
    };
  },
};
