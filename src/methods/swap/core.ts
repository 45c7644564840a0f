/**
 * The swap anonymizer of paper 000 (Algorithm 2) on query events, independent of how records arrive.
 *
 * Each bucket (a category) holds two multisets: the events waiting to be released, and user slots (one per
 * event that entered, naming its author). When a bucket holds k events, a random event is released under a
 * random slot user who is not its author, and both leave the bucket. If every slot names the same user no such
 * user exists, and the bucket's k grows: k ← k·δ (the paper's l-diversity rule). Because every entering event
 * adds one slot of its author and every release removes one event and one slot, each user is released in a
 * category exactly as many times as they searched in it (the paper's §4.5 profile equality).
 *
 * An event is the unit (one query and all its click rows), so clicks travel with their query. The released rows
 * keep query text, ItemRank, ClickURL and category; user and time are replaced; `source` (the input line, which
 * would re-link) is dropped.
 */
import type { LogRecord } from "../../log/record.ts";
import { Rng } from "../../util/random.ts";
import { ancestorKeys, type Bucket, BucketTree } from "./buckets.ts";
import { type CoreSnapshot, type Emit, type Entry, type EventRows, RECORD_ROWS } from "./entry.ts";
import { Loads } from "./loads.ts";
import type { SwapParams } from "./meta.ts";

export class SwapCore<R = LogRecord[]> {
  private readonly tree: BucketTree<Entry<R>>;
  /** Category → the bucket its events enter. */
  private readonly direct = new Map<string, Bucket<Entry<R>>>();
  private rng: Rng;
  private now = Number.NEGATIVE_INFINITY;
  /** A lower bound on the earliest time + maxDelay of a held event (exact right after a scan). */
  private nextDeadline = Number.POSITIVE_INFINITY;
  private held = 0;
  /** User, time and query of the last released event: the next release must not look like the same event. */
  private lastUser = "";
  private lastTime = Number.NaN;
  /**
   * The last released event's rows, or its query text (from a snapshot): the text is read only when a release
   * repeats the last user and time, so raw rows need not decode it otherwise.
   */
  private lastRows: R | undefined;
  private lastText = "";
  readonly c = {
    inEvents: 0,
    inRows: 0,
    outEvents: 0,
    outRows: 0,
    suppressedEvents: 0,
    suppressedRows: 0,
    forcedEvents: 0,
    /** Events released a second after the previous one, which had the same user, time and text. */
    shiftedEvents: 0,
    kGrowths: 0,
    maxHeld: 0,
    /** Times a bucket below the top level handed its events to its parent. */
    handedUp: 0,
  };

  constructor(
    private readonly p: SwapParams,
    rng: Rng,
    private readonly emit: Emit<R>,
    snap?: CoreSnapshot<R>,
    private readonly rows: EventRows<R> = RECORD_ROWS as unknown as EventRows<R>,
  ) {
    this.rng = rng;
    this.tree = new BucketTree(p.k);
    if (snap) this.restore(snap);
  }

  /** Add one event with its bucket category; may release one event of that bucket. */
  add(entry: Entry<R>, category: string): void {
    this.c.inEvents++;
    this.c.inRows += this.rows.count(entry.rows);
    if (entry.time > this.now) this.now = entry.time;
    if (this.p.maxDelay > 0) {
      if (this.now >= this.nextDeadline) this.scanDelays();
      const deadline = entry.time + this.p.maxDelay;
      if (deadline < this.nextDeadline) this.nextDeadline = deadline;
    }
    let b = this.direct.get(category);
    if (b === undefined) {
      b = this.tree.bucket(ancestorKeys(category, this.p.depth));
      this.direct.set(category, b);
    }
    b.entries.push(entry);
    this.tree.pushSlot(b, entry.user);
    if (++this.held > this.c.maxHeld) this.c.maxHeld = this.held;
    if (b.level === 1) {
      if (b.entries.length >= b.k) this.topRule(b);
    } else this.settle(b);
  }

  /** The paper's rule at a top-level bucket holding ≥ k events: one release, or k ← k·δ. */
  private topRule(b: Bucket<Entry<R>>): boolean {
    if (this.p.ownAuthor) {
      this.release(b, this.rng.int(b.entries.length), this.rng.int(b.slots.length));
      return true;
    }
    const i = this.rng.int(b.entries.length);
    const j = this.otherSlot(b, b.entries[i]!.user);
    if (j >= 0) {
      this.release(b, i, j);
      return true;
    }
    // Every slot names the drawn event's author x: release another user's event under x if one is held; if the
    // bucket holds user x only, grow its k (the paper's δ rule).
    const i2 = this.otherEntry(b, b.entries[i]!.user);
    if (i2 >= 0) {
      this.release(b, i2, this.rng.int(b.slots.length));
      return true;
    }
    b.k *= this.p.delta;
    this.c.kGrowths++;
    return false;
  }

  /** Release a random event of a deep bucket under a random slot user who is not its author. */
  private readonly releaseDeep = (b: Bucket<Entry<R>>): void => {
    const i = this.rng.int(b.entries.length);
    const j = this.p.ownAuthor ? this.rng.int(b.slots.length) : this.otherSlot(b, b.entries[i]!.user);
    this.release(b, i, j);
  };

  /** A top-level bucket that events were handed up to: the paper's rule while it holds ≥ k events. */
  private readonly topAfterHandUp = (b: Bucket<Entry<R>>): void => {
    while (b.entries.length >= b.k && this.topRule(b)) {}
  };

  /** A bucket below the top level after an event arrived: release while it may, or hand everything up. */
  private settle(b: Bucket<Entry<R>>): void {
    this.c.handedUp += this.tree.settle(b, this.releaseDeep, this.topAfterHandUp);
  }

  /** End of stream: apply the end policy to everything still held. */
  flushAll(): void {
    // Deeper buckets hand what they hold up, deepest first; the top level pairs it.
    this.c.handedUp += this.tree.handUpAll();
    for (const b of this.tree.byKey.values()) {
      if (b.level > 1) continue;
      if (this.p.end === "release") this.pairRemaining(b);
      while (b.entries.length > 0) this.suppress(b, b.entries.length - 1);
    }
  }

  /** Index of a random slot whose user is not `author`; -1 if none. */
  private otherSlot(b: Bucket<Entry<R>>, author: string): number {
    const n = b.slots.length;
    for (let t = 0; t < 8; t++) {
      const j = this.rng.int(n);
      if (b.slots[j] !== author) return j;
    }
    const ok: number[] = [];
    for (let j = 0; j < n; j++) if (b.slots[j] !== author) ok.push(j);
    return ok.length === 0 ? -1 : ok[this.rng.int(ok.length)]!;
  }

  /**
   * Index of a random event whose author is not `user`; -1 if none. With `avoidQuery`, events with another
   * query text are preferred (see {@link release}: an event must not read back merged with the previous one).
   */
  private otherEntry(b: Bucket<Entry<R>>, user: string, avoidQuery?: string): number {
    let ok: number[] = [];
    for (let i = 0; i < b.entries.length; i++) if (b.entries[i]!.user !== user) ok.push(i);
    if (avoidQuery !== undefined && ok.length > 1) {
      const better = ok.filter((i) => this.rows.query(b.entries[i]!.rows) !== avoidQuery);
      if (better.length > 0) ok = better;
    }
    return ok.length === 0 ? -1 : ok[this.rng.int(ok.length)]!;
  }

  /**
   * Release entry i under slot j's user. Rows with equal user, query and time are one event in the log format
   * (the click rows of one search), so an event released right after an event with the same query, at the same
   * time, under the same user would merge with it when the log is read back (and the released profile would
   * lose a query). When `flexible`, such a release goes to another slot user who is not the author, if the
   * bucket holds one. Returns the user it was released under.
   */
  private release(b: Bucket<Entry<R>>, i: number, j: number, flexible = !this.p.ownAuthor): string {
    const e = b.entries[i]!;
    let time = this.p.time === "release" ? this.now : e.time;
    const row = e.rows;
    let user = b.slots[j]!;
    if (flexible && this.likeLast(user, time, row)) {
      const ok: number[] = [];
      for (let s = 0; s < b.slots.length; s++) {
        const u = b.slots[s]!;
        if (u !== user && u !== e.user) ok.push(s);
      }
      if (ok.length > 0) {
        j = ok[this.rng.int(ok.length)]!;
        user = b.slots[j]!;
      }
    }
    // Still the previous release's user, time and text (no other slot could take it, or the end-of-stream
    // pairing had to use this slot): release it a second later, so it reads back as an event of its own. With
    // release times this says only "released a second later"; with original times it shifts the query's time.
    if (this.likeLast(user, time, row)) {
      time += 1;
      this.c.shiftedEvents++;
    }
    this.removeAt(b, i, j);
    this.c.outEvents++;
    this.c.outRows += this.rows.count(row);
    this.lastUser = user;
    this.lastTime = time;
    this.lastRows = row;
    this.emit(e, user, time);
    return user;
  }

  /** Whether releasing `rows` under `user` at `time` repeats the last release's user, time and query text. */
  private likeLast(user: string, time: number, rows: R): boolean {
    return user === this.lastUser && time === this.lastTime && this.rows.query(rows) === this.lastQuery();
  }

  private lastQuery(): string {
    return this.lastRows === undefined ? this.lastText : this.rows.query(this.lastRows);
  }

  /** Drop entry i and one slot of its own author (all slots left name that user when this is needed). */
  private suppress(b: Bucket<Entry<R>>, i: number): void {
    const e = b.entries[i]!;
    let j = b.slots.lastIndexOf(e.user);
    if (j < 0) j = b.slots.length - 1;
    this.removeAt(b, i, j);
    this.c.suppressedEvents++;
    this.c.suppressedRows += this.rows.count(e.rows);
    this.rows.suppressed(e.rows);
  }

  private removeAt(b: Bucket<Entry<R>>, i: number, j: number): void {
    b.entries[i] = b.entries[b.entries.length - 1]!;
    b.entries.pop();
    this.tree.takeSlot(b, j);
    this.held--;
  }

  /**
   * Pair the events left in a bucket with its slots so that no event goes to its author, as many as possible:
   * always serve the user x with most events + slots (if x must be matched it is now), which keeps a full
   * matching possible whenever one exists. It stops only when every event and slot left names one user, so
   * suppressing the rest (the caller) keeps each user's released count equal to their searches minus their
   * suppressed events.
   */
  private pairRemaining(b: Bucket<Entry<R>>): void {
    if (this.p.ownAuthor) {
      while (b.entries.length > 0) this.release(b, this.rng.int(b.entries.length), 0);
      return;
    }
    const loads = new Loads(
      b.slots,
      b.entries.map((e) => e.user),
    );
    const pair = (i: number, j: number, flexible?: boolean) => {
      loads.drop(b.entries[i]!.user);
      loads.drop(this.release(b, i, j, flexible));
    };
    while (b.entries.length > 0) {
      const x = this.heaviest(b, loads);
      const mine = b.entries.findIndex((e) => e.user === x);
      const j = mine >= 0 ? this.otherSlot(b, x) : -1;
      if (j >= 0) {
        pair(mine, j);
        continue;
      }
      // x's events cannot be placed (or x has none): place another user's event under one of x's slots.
      const xs = b.slots.indexOf(x);
      // Under x's slot at the current time, an event with the last release's query would merge with it.
      const avoid = x === this.lastUser && this.now === this.lastTime ? this.lastQuery() : undefined;
      const i = xs >= 0 ? this.otherEntry(b, x, avoid) : -1;
      if (i < 0) return; // everything left belongs to x alone
      pair(i, xs, false); // x's slot must go now (the pairing argument), whatever the merge risk
    }
  }

  /** The user with the largest load; of several, the first met in the slots, then in the events. */
  private heaviest(b: Bucket<Entry<R>>, loads: Loads): string {
    const most = loads.most;
    for (const u of b.slots) if (loads.of(u) === most) return u;
    for (const e of b.entries) if (loads.of(e.user) === most) return e.user;
    throw new Error("swap: an empty bucket has no heaviest user");
  }

  /**
   * Force out every held event whose deadline (time + maxDelay) has come, before the arriving event is added:
   * an event leaves at the latest with the first arrival at or after its deadline (stream time only advances
   * with arrivals). The forced event goes to a random slot user other than its author, or is suppressed.
   */
  private scanDelays(): void {
    const limit = this.now - this.p.maxDelay;
    let next = Number.POSITIVE_INFINITY;
    for (const b of this.tree.byKey.values()) {
      for (let i = b.entries.length - 1; i >= 0; i--) {
        if (i >= b.entries.length) continue;
        const e = b.entries[i]!;
        if (e.time > limit) {
          if (e.time + this.p.maxDelay < next) next = e.time + this.p.maxDelay;
          continue;
        }
        const j = this.p.ownAuthor ? this.rng.int(b.slots.length) : this.otherSlot(b, e.user);
        this.c.forcedEvents++;
        if (j < 0) this.suppress(b, i);
        else this.release(b, i, j);
      }
    }
    // Entries moved by swap-removal were already looked at; `next` is exact for what is left.
    this.nextDeadline = next;
  }

  /** Current k of every bucket (mean is the paper's "final k"). */
  kValues(): number[] {
    return [...this.tree.byKey.values()].map((b) => b.k);
  }

  /** Each bucket's key and current k, in creation order (for diagnostics: which buckets grew). */
  bucketKs(): [string, number][] {
    return [...this.tree.byKey.entries()].map(([key, b]) => [key, b.k]);
  }

  heldEvents(): number {
    return this.held;
  }

  snapshot(): CoreSnapshot<R> {
    return {
      v: 2,
      rng: this.rng.state(),
      now: this.now,
      nextDeadline: Number.isFinite(this.nextDeadline) ? this.nextDeadline : null,
      buckets: [...this.tree.byKey.entries()].map(([key, b]) => [
        key,
        {
          k: b.k,
          entries: b.entries.map((e) => ({ ...e, rows: this.rows.copy(e.rows) })),
          slots: [...b.slots],
        },
      ]),
      counts: { ...this.c },
      last: [this.lastUser, Number.isNaN(this.lastTime) ? null : this.lastTime, this.lastQuery()],
    };
  }

  private restore(s: CoreSnapshot<R>): void {
    if (s.v !== 2) throw new Error(`swap: unsupported snapshot version ${String(s.v)}`);
    this.rng = Rng.fromState(s.rng);
    this.now = s.now ?? Number.NEGATIVE_INFINITY;
    this.nextDeadline = s.nextDeadline ?? Number.POSITIVE_INFINITY;
    for (const [key, saved] of s.buckets) {
      const b = this.tree.bucket(ancestorKeys(key, this.p.depth));
      b.k = saved.k;
      for (const e of saved.entries) b.entries.push(e);
      for (const u of saved.slots) this.tree.pushSlot(b, u);
      this.held += saved.entries.length;
    }
    Object.assign(this.c, s.counts);
    if (s.last) {
      this.lastUser = s.last[0];
      this.lastTime = s.last[1] ?? Number.NaN;
      this.lastText = s.last[2];
    }
  }
}
