/** Users' category profiles (C_u of paper 004 §4.1.3) and the category → query-event pool, from a mapper. */
import type { ConceptMapper } from "./concept-mapper.ts";
import { type Profile, profileOf } from "./profile.ts";
import type { UserLogs } from "./user-logs.ts";

export interface MappedLogs {
  /** One profile per user of `logs.users`. */
  readonly profiles: Profile[];
  /** Category id → indices of the events whose query maps to it (an event mapped twice appears twice). */
  readonly pool: Map<number, number[]>;
  /** Events whose query mapped to no category. */
  readonly unmapped: number;
}

export function mapLogs(logs: UserLogs, mapper: ConceptMapper): MappedLogs {
  const pool = new Map<number, number[]>();
  let unmapped = 0;
  const profiles = logs.byUser.map((events) => {
    const cats: number[] = [];
    for (const e of events) {
      const ids = mapper.map(logs.events[e]!.query);
      if (ids.length === 0) unmapped++;
      for (const c of ids) {
        cats.push(c);
        const list = pool.get(c);
        if (list) list.push(e);
        else pool.set(c, [e]);
      }
    }
    return profileOf(cats);
  });
  return { profiles, pool, unmapped };
}
