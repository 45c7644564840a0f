/**
 * Algorithm 3 of paper 000: the attacker replays the anonymizer on the released log. Released events are read
 * in time order (the paper's "+T") into per-category buckets of events and user slots; when a bucket holds k
 * events, the attacker pops an event and names a slot user as its author. The four de-anonymizers differ only in
 * which user they name ({@link PickRule}, §4.2.2).
 *
 * At depth > 1 the attacker replays the depth rule too, through the anonymizer's own {@link BucketTree}
 * (src/methods/swap/buckets.ts): events enter the bucket of their category at that depth, a deeper bucket is
 * attacked when it holds k + 1 events of k + 1 distinct users and hands its events up as soon as a user holds two
 * of its slots. The history of a user counts their released events at every level of the category.
 *
 * The attacker knows k, δ and the depth, and the authors' rule that a query is never released under its author,
 * so it never names the user an event was released under. Guesses are scored by {@link scoreGuesses}.
 */
import { groupEvents } from "../log/events.ts";
import { ancestorKeys, type Bucket, BucketTree } from "../methods/swap/index.ts";
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
  /** The anonymizer's buckets, replayed; an entry is an index into `events`. */
  const tree = new BucketTree<number>(k0);
  const history = new Map<string, number>();
  const guesses: (string | undefined)[] = new Array(recs.length);
  const rng = input.rng;
  let kGrowths = 0;

  const guess = (b: Bucket<number>, pos: number): boolean => {
    const ev = events[b.entries[pos]!]!;
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
    b.entries[pos] = b.entries[b.entries.length - 1]!;
    b.entries.pop();
    tree.takeSlot(b, b.slots.indexOf(user));
    return true;
  };

  const top = (b: Bucket<number>) => {
    while (b.entries.length >= b.k) {
      if (guess(b, rng.int(b.entries.length))) continue;
      b.k *= delta;
      kGrowths++;
      return;
    }
  };

  const release = (b: Bucket<number>) => {
    guess(b, rng.int(b.entries.length));
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
    const b = tree.bucket(keys);
    b.entries.push(ei);
    tree.pushSlot(b, ev.user);
    for (const key of keys) {
      const hk = `${ev.user}\u0000${key}`;
      history.set(hk, (history.get(hk) ?? 0) + 1);
    }
    if (b.level === 1) {
      // The paper's rule: one attempt per arrival.
      if (b.entries.length >= b.k && !guess(b, rng.int(b.entries.length))) {
        b.k *= delta;
        kGrowths++;
      }
    } else tree.settle(b, release, top);
    input.progress.tick();
  }
  // End of stream: deeper buckets hand up (deepest first), then name an author for whatever is left at the top,
  // while a candidate exists.
  tree.handUpAll();
  for (const b of tree.byKey.values()) {
    if (b.level > 1) continue;
    for (let pos = b.entries.length - 1; pos >= 0; pos--) {
      if (pos < b.entries.length) guess(b, pos);
    }
  }
  input.progress.stop();
  const ks = [...tree.byKey.values()].map((b) => b.k);
  return scoreGuesses(name, input, guesses, {
    "k growths": kGrowths,
    "final k mean": ks.length ? ks.reduce((a, x) => a + x, 0) / ks.length : 0,
  });
}
