/**
 * The per-user contribution bound of the set-selection strategies: each user's history (their non-empty query
 * events) becomes a set of at most d distinct items — the d queries they issued most often (ties: the earlier
 * first), or likewise the d query-click pairs they clicked most often among the queries already released. A user
 * thus counts at most once per item and for at most d items, which is what every threshold in `selection/`
 * assumes. The choice reads nothing but the user's own history, so adding or removing a user changes no other
 * user's set. (Most-often first rather than first in time: a user's habitual queries are the ones others share;
 * on a generated tuning log it released 5–12% more than first-in-time, docs/results/dp.md.)
 */
import type { QueryEvent } from "../../log/events.ts";
import type { LogRecord } from "../../log/record.ts";
import type { UserItems } from "./selection/selection.ts";

/** A per-record map of query text (`--canonical`), or undefined for the text as logged. */
export type QueryForm = ((text: string) => string) | undefined;

/**
 * Each user's non-empty query events, sorted by time; users in order of first appearance. With `form`, each
 * event's query is its canonical form (an event whose form is empty is no query).
 */
export function histories(events: readonly QueryEvent[], form?: QueryForm): QueryEvent[][] {
  const byUser = new Map<string, QueryEvent[]>();
  for (const raw of events) {
    const e = form === undefined || raw.query === "" ? raw : { ...raw, query: form(raw.query) };
    if (e.query === "") continue;
    let list = byUser.get(e.user);
    if (!list) {
      list = [];
      byUser.set(e.user, list);
    }
    list.push(e);
  }
  const out = [...byUser.values()];
  for (const list of out) list.sort((a, b) => a.time - b.time || a.first - b.first);
  return out;
}

export interface Bounded {
  /** The item behind each id (a query, or a query and a URL). */
  readonly keys: string[];
  /** Each user's distinct item ids, at most d. */
  readonly users: UserItems;
  /** Users who held more than d distinct items. */
  readonly usersTruncated: number;
  /** (user, item) pairs left out by the bound. */
  readonly dropped: number;
}

/** Builds the bounded sets one user at a time (ids shared across users): `boundQueries`, `boundPairs`, and callers that stream users. */
export class Bounder {
  readonly keys: string[] = [];
  private readonly ids = new Map<string, number>();
  readonly users: Int32Array[] = [];
  usersTruncated = 0;
  dropped = 0;

  constructor(private readonly d: number) {}

  add(userKeys: Iterable<string>): void {
    const mine = new Set<number>();
    const over = new Set<string>();
    for (const key of userKeys) {
      let id = this.ids.get(key);
      if (id !== undefined && mine.has(id)) continue;
      if (mine.size >= this.d) {
        over.add(key);
        continue;
      }
      if (id === undefined) {
        id = this.keys.length;
        this.ids.set(key, id);
        this.keys.push(key);
      }
      mine.add(id);
    }
    if (over.size > 0) this.usersTruncated++;
    this.dropped += over.size;
    this.users.push(Int32Array.from(mine));
  }
}

/**
 * A public score per item from its key alone (`Selection.prior`): when given, a user's items of highest prior
 * come first, and frequency only breaks ties.
 */
export type Prior = (key: string) => number;

/** Each user's d most frequent queries (of highest prior first, when there is one). */
export function boundQueries(users: readonly QueryEvent[][], d: number, prior?: Prior): Bounded {
  const b = new Bounder(d);
  for (const list of users)
    b.add(
      ranked(
        list.map((e) => e.query),
        prior,
      ),
    );
  return b;
}

/** A user's distinct keys: highest prior first if any, then most frequent first, then first seen first. */
export function ranked(keys: readonly string[], prior?: Prior): string[] {
  const n = new Map<string, number>();
  for (const k of keys) n.set(k, (n.get(k) ?? 0) + 1);
  const out = [...n.keys()];
  if (!prior) return out.sort((a, b) => n.get(b)! - n.get(a)!);
  const p = new Map(out.map((k) => [k, prior(k)]));
  return out.sort((a, b) => p.get(b)! - p.get(a)! || n.get(b)! - n.get(a)!);
}

/** The key of a query-click pair. */
const pairKey = (query: string, url: string): string => `${query}\t${url}`;

/** Each user's d most frequent (query, URL) clicks whose query is in `released` (highest prior first, if any). */
export function boundPairs(
  records: readonly LogRecord[],
  users: readonly QueryEvent[][],
  released: ReadonlySet<string>,
  d: number,
  prior?: Prior,
): Bounded {
  const b = new Bounder(d);
  for (const list of users) b.add(ranked(pairKeys(records, list, released), prior));
  return b;
}

/** One user's (query, URL) click keys, once per click, of the queries in `released`. */
export function pairKeys(
  records: readonly LogRecord[],
  list: readonly QueryEvent[],
  released: ReadonlySet<string>,
): string[] {
  const keys: string[] = [];
  for (const e of list) {
    if (e.clicks === 0 || !released.has(e.query)) continue;
    for (let r = e.first; r < e.first + e.rows; r++) {
      const url = records[r]!.clickUrl;
      if (url) keys.push(pairKey(e.query, url));
    }
  }
  return keys;
}
