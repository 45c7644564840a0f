/**
 * Algorithm 3 of paper 000: the attacker replays the anonymizer on the released log. Released events are read
 * in time order (the paper's "+T") into per-category buckets of events and user slots; when a bucket holds k
 * events, the attacker pops an event and names a slot user as its author. The four de-anonymizers differ only in
 * which user they name ({@link PickRule}, §4.2.2).
 *
 * The attacker knows k, δ and the depth, and the authors' rule that a query is never released under its author,
 * so it never names the user an event was released under. Guesses are scored by {@link scoreGuesses}.
 */
import { groupEvents } from "../log/events.ts";
import { BucketChooser } from "../methods/swap/buckets.ts";
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
  readonly events: number[];
  readonly slots: string[];
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
  const chooser = new BucketChooser(depth, k0);
  const buckets = new Map<string, Bucket>();
  const history = new Map<string, number>();
  const guesses: (string | undefined)[] = new Array(recs.length);
  const rng = input.rng;
  let kGrowths = 0;

  const guess = (b: Bucket, key: string, pos: number): boolean => {
    const ev = events[b.events[pos]!]!;
    const slotCount = new Map<string, number>();
    for (const u of b.slots) if (u !== ev.user) slotCount.set(u, (slotCount.get(u) ?? 0) + 1);
    if (slotCount.size === 0) return false;
    const candidates = [...slotCount.keys()];
    const ctx: PickContext = {
      candidates,
      slotCount,
      history: (u) => history.get(`${u}\u0000${key}`) ?? 0,
      int: (n) => rng.int(n),
    };
    const user = candidates[rule(ctx)]!;
    for (let r = ev.first; r < ev.first + ev.rows; r++) guesses[r] = user;
    b.events[pos] = b.events[b.events.length - 1]!;
    b.events.pop();
    const j = b.slots.indexOf(user);
    b.slots[j] = b.slots[b.slots.length - 1]!;
    b.slots.pop();
    return true;
  };

  input.progress.start(name, order.length);
  for (const ei of order) {
    const ev = events[ei]!;
    const key = chooser.choose(recs[ev.first]!.category!, ev.user);
    let b = buckets.get(key);
    if (b === undefined) {
      b = { k: k0, events: [], slots: [] };
      buckets.set(key, b);
    }
    b.events.push(ei);
    b.slots.push(ev.user);
    const hk = `${ev.user}\u0000${key}`;
    history.set(hk, (history.get(hk) ?? 0) + 1);
    if (b.events.length >= b.k && !guess(b, key, rng.int(b.events.length))) {
      b.k *= delta;
      kGrowths++;
    }
    input.progress.tick();
  }
  // End of stream: name an author for whatever is left, while a candidate exists.
  for (const [key, b] of buckets) {
    for (let pos = b.events.length - 1; pos >= 0; pos--) {
      if (pos < b.events.length) guess(b, key, pos);
    }
  }
  input.progress.stop();
  const ks = [...buckets.values()].map((b) => b.k);
  return scoreGuesses(name, input, guesses, {
    "k growths": kGrowths,
    "final k mean": ks.length ? ks.reduce((a, x) => a + x, 0) / ks.length : 0,
  });
}
