/**
 * Algorithm 3 of paper 000: the attacker replays the anonymizer on the released log. Released events are read
 * in time order (the paper's "+T") into per-category buckets of events and user slots; when a bucket holds k
 * events, the attacker pops an event and names a slot user as its author. The four de-anonymizers differ only in
 * which user they name ({@link PickRule}, §4.2.2).
 *
 * At depth > 1 the attacker replays the depth rule too (src/methods/swap/buckets.ts): events enter the bucket of
 * their category at that depth, a deeper bucket is attacked while it holds ≥ k + 1 distinct users and hands its
 * events up otherwise. The history of a user counts their released events at every level of the category.
 *
 * The attacker knows k, δ and the depth, and the authors' rule that a query is never released under its author,
 * so it never names the user an event was released under. Guesses are scored by {@link scoreGuesses}.
 */
import { groupEvents } from "../log/events.ts";
import { ancestorKeys, deepBucketAction } from "../methods/swap/index.ts";
import { AttackError, type AttackInput, type AttackResult, scoreGuesses } from "./attack.ts";

/** What a rule may look at when it names an author. */
export interface PickContext {
  /** Candidate users: distinct slot users of the bucket other than the event's released user. */
  readonly candidates: readonly string[];
  /** Number of slots each candidate holds in the bucket. */
  readonly slotCount: ReadonlyMap<string, number>;
  /** Released events of a user in this bucket's category seen so far (history), 0 if none. */
  history(user: string): number;
  /** Uniform integer in [0, n). */
  int(n: number): number;
}

/** Returns the index in `candidates` of the named author. */
export type PickRule = (c: PickContext) => number;

/** Index of the candidate maximising `score`; ties broken uniformly at random. */
export function argmax(c: PickContext, score: (u: string) => number): number {
  let best = Number.NEGATIVE_INFINITY;
  let ties: number[] = [];
  c.candidates.forEach((u, i) => {
    const s = score(u);
    if (s > best) [best, ties] = [s, [i]];
    else if (s === best) ties.push(i);
  });
  return ties[c.int(ties.length)]!;
}

interface Bucket {
  k: number;
  readonly key: string;
  readonly events: number[];
  readonly slots: string[];
  readonly level: number;
  readonly parent: Bucket | undefined;
  /** Below the top level: slots per user. */
  readonly users: Map<string, number> | undefined;
}

export function runDeanonymizer(name: string, rule: PickRule, input: AttackInput): AttackResult {
  const recs = input.released.records;
  const k0 = input.params.k as number;
  const delta = input.params.delta as number;
  const depth = input.params.depth as number;
  if (recs.some((r) => r.category === undefined)) {
    throw new AttackError(`${name}: the released log carries no categories; classify it first`);
  }
  const events = groupEvents(recs);
  const order = events.map((_, i) => i).sort((a, b) => events[a]!.time - events[b]!.time || a - b);
  const keysOf = new Map<string, string[]>();
  const buckets = new Map<string, Bucket>();
  const history = new Map<string, number>();
  const guesses: (string | undefined)[] = new Array(recs.length);
  const rng = input.rng;
  let kGrowths = 0;

  const bucketOf = (keys: readonly string[], at = 0): Bucket => {
    const key = keys[at]!;
    let b = buckets.get(key);
    if (b === undefined) {
      const level = keys.length - at;
      const parent = level > 1 ? bucketOf(keys, at + 1) : undefined;
      b = { k: k0, key, events: [], slots: [], level, parent, users: level > 1 ? new Map() : undefined };
      buckets.set(key, b);
    }
    return b;
  };
  const pushSlot = (b: Bucket, u: string) => {
    b.slots.push(u);
    if (b.users) b.users.set(u, (b.users.get(u) ?? 0) + 1);
  };

  const guess = (b: Bucket, pos: number): boolean => {
    const ev = events[b.events[pos]!]!;
    const slotCount = new Map<string, number>();
    for (const u of b.slots) if (u !== ev.user) slotCount.set(u, (slotCount.get(u) ?? 0) + 1);
    if (slotCount.size === 0) return false;
    const candidates = [...slotCount.keys()];
    const ctx: PickContext = {
      candidates,
      slotCount,
      history: (u) => history.get(`${u}\u0000${b.key}`) ?? 0,
      int: (n) => rng.int(n),
    };
    const user = candidates[rule(ctx)]!;
    for (let r = ev.first; r < ev.first + ev.rows; r++) guesses[r] = user;
    b.events[pos] = b.events[b.events.length - 1]!;
    b.events.pop();
    const j = b.slots.indexOf(user);
    b.slots[j] = b.slots[b.slots.length - 1]!;
    b.slots.pop();
    if (b.users) {
      const n = b.users.get(user)! - 1;
      if (n === 0) b.users.delete(user);
      else b.users.set(user, n);
    }
    return true;
  };

  const handUp = (b: Bucket): Bucket => {
    const parent = b.parent!;
    for (const e of b.events) parent.events.push(e);
    for (const u of b.slots) pushSlot(parent, u);
    b.events.length = 0;
    b.slots.length = 0;
    b.users!.clear();
    return parent;
  };

  const top = (b: Bucket) => {
    while (b.events.length >= b.k) {
      if (guess(b, rng.int(b.events.length))) continue;
      b.k *= delta;
      kGrowths++;
      return;
    }
  };

  const settle = (b: Bucket): void => {
    for (;;) {
      const action = deepBucketAction(b.events.length, b.users!.size, k0);
      if (action === "wait") return;
      if (action === "release") {
        guess(b, rng.int(b.events.length));
        continue;
      }
      const parent = handUp(b);
      if (parent.level > 1) settle(parent);
      else top(parent);
      return;
    }
  };

  input.progress.start(name, order.length);
  for (const ei of order) {
    const ev = events[ei]!;
    const category = recs[ev.first]!.category!;
    let keys = keysOf.get(category);
    if (keys === undefined) {
      keys = ancestorKeys(category, depth);
      keysOf.set(category, keys);
    }
    const b = bucketOf(keys);
    b.events.push(ei);
    pushSlot(b, ev.user);
    for (const key of keys) {
      const hk = `${ev.user}\u0000${key}`;
      history.set(hk, (history.get(hk) ?? 0) + 1);
    }
    if (b.level === 1) {
      // The paper's rule: one attempt per arrival.
      if (b.events.length >= b.k && !guess(b, rng.int(b.events.length))) {
        b.k *= delta;
        kGrowths++;
      }
    } else settle(b);
    input.progress.tick();
  }
  // End of stream: deeper buckets hand up (deepest first), then name an author for whatever is left at the top,
  // while a candidate exists.
  const deep = [...buckets.values()].filter((b) => b.level > 1).sort((a, b) => b.level - a.level);
  for (const b of deep) if (b.events.length > 0) handUp(b);
  for (const b of buckets.values()) {
    if (b.level > 1) continue;
    for (let pos = b.events.length - 1; pos >= 0; pos--) {
      if (pos < b.events.length) guess(b, pos);
    }
  }
  input.progress.stop();
  const ks = [...buckets.values()].map((b) => b.k);
  return scoreGuesses(name, input, guesses, {
    "k growths": kGrowths,
    "final k mean": ks.length ? ks.reduce((a, x) => a + x, 0) / ks.length : 0,
  });
}
