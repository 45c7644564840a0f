/**
 * Per-user term histories in a compact, mutable form for the greedy heuristic: one sorted run of term ids per
 * user in a flat `Int32Array` (CSR layout), with a parallel weight per (user, term) = how many times the user
 * used the term (its share of the log size). Suppressing a term from a user shortens that user's run in place.
 */
import type { QueryEvent } from "../../log/events.ts";
import type { LogRecord } from "../../log/record.ts";
import { IntBuffer } from "../../util/int-buffer.ts";
import { queryTerms } from "./terms.ts";

export class TermHistories {
  /**
   * @param start offset of each user's run in `items`
   * @param len current length of each user's run (shrinks as terms are suppressed)
   * @param items term ids, ascending within each run
   * @param weight occurrences of the term in the user's queries, parallel to `items`
   * @param terms number of distinct term ids
   */
  constructor(
    readonly start: Int32Array,
    readonly len: Int32Array,
    readonly items: Int32Array,
    readonly weight: Int32Array,
    readonly terms: number,
  ) {}

  get users(): number {
    return this.len.length;
  }

  /** Position of term `t` in `items` within user `u`'s run, or -1. Binary search. */
  indexOf(u: number, t: number): number {
    let lo = this.start[u]!;
    let hi = lo + this.len[u]! - 1;
    const items = this.items;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = items[mid]!;
      if (v === t) return mid;
      if (v < t) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** Whether user `u` still holds every term of `terms`. */
  hasAll(u: number, terms: ArrayLike<number>): boolean {
    for (let i = 0; i < terms.length; i++) if (this.indexOf(u, terms[i]!) < 0) return false;
    return true;
  }

  /** Suppress term `t` from user `u`; returns false if the user did not hold it. */
  remove(u: number, t: number): boolean {
    const at = this.indexOf(u, t);
    if (at < 0) return false;
    const end = this.start[u]! + this.len[u]!;
    this.items.copyWithin(at, at + 1, end);
    this.weight.copyWithin(at, at + 1, end);
    this.len[u] = this.len[u]! - 1;
    return true;
  }

  /** Current number of users holding each term. */
  supports(): Int32Array {
    const s = new Int32Array(this.terms);
    for (let u = 0; u < this.len.length; u++) {
      const b = this.start[u]!;
      const e = b + this.len[u]!;
      for (let i = b; i < e; i++) s[this.items[i]!]!++;
    }
    return s;
  }
}

/** Global statistics of each term in the input log, the values the target functions and measures use. */
export interface TermStats {
  /** Occurrences of the term over all query events (repeats in one query counted). */
  readonly occurrences: Float64Array;
  /** Query events whose query contains the term: its impressions. */
  readonly impressions: Float64Array;
  /** Click rows of query events whose query contains the term: its clicks. */
  readonly clicks: Float64Array;
  /** Users whose history contains the term. */
  readonly users: Float64Array;
}

/** Everything the method derives from the input log before suppressing anything. */
export interface KmIndex {
  readonly vocab: string[];
  readonly termId: Map<string, number>;
  /** User names by user index. */
  readonly userNames: string[];
  /** User index of each event. */
  readonly eventUser: Int32Array;
  readonly histories: TermHistories;
  readonly stats: TermStats;
}

/** Term ids by first appearance and each term's log-wide statistics, fed one query event at a time. */
class TermCounter {
  readonly termId = new Map<string, number>();
  readonly vocab: string[] = [];
  occ: number[] = [];
  imp: number[] = [];
  clk: number[] = [];
  private lastEvent: number[] = [];
  private events = 0;

  /** The id of `term`, numbered on first appearance. */
  private id(term: string): number {
    let t = this.termId.get(term);
    if (t === undefined) {
      t = this.vocab.length;
      this.termId.set(term, t);
      this.vocab.push(term);
      this.occ.push(0);
      this.imp.push(0);
      this.clk.push(0);
      this.lastEvent.push(-1);
    }
    return t;
  }

  /** A term with its counts over some events, added at once (a sharded run's summed histories): its id. */
  counted(term: string, occurrences: number, impressions: number, clicks: number): number {
    const t = this.id(term);
    this.occ[t]! += occurrences;
    this.imp[t]! += impressions;
    this.clk[t]! += clicks;
    return t;
  }

  /** The next event's terms, as ids pushed on `out` (repeats kept). */
  event(query: string, clicks: number, out: IntBuffer): void {
    const e = this.events++;
    for (const term of queryTerms(query)) {
      const t = this.id(term);
      this.occ[t]!++;
      if (this.lastEvent[t] !== e) {
        this.lastEvent[t] = e;
        this.imp[t]!++;
        this.clk[t]! += clicks;
      }
      out.push(t);
    }
  }

  /** The index, terms renumbered by ascending support (then first appearance), given the histories so far. */
  finish(userNames: string[], eventUser: Int32Array, first: TermHistories): KmIndex {
    const { vocab, termId } = this;
    const users0 = new Float64Array(vocab.length);
    for (let i = 0; i < first.items.length; i++) users0[first.items[i]!]!++;
    // Projections anchored at rare terms stay small and infrequent prefixes are pruned early (see mine.ts).
    const order = Array.from(vocab.keys()).sort((a, b) => users0[a]! - users0[b]! || a - b);
    const newId = new Int32Array(vocab.length);
    order.forEach((old, i) => {
      newId[old] = i;
    });
    const permute = (xs: ArrayLike<number>): Float64Array => Float64Array.from(order, (old) => xs[old]!);
    const stats: TermStats = {
      occurrences: permute(this.occ),
      impressions: permute(this.imp),
      clicks: permute(this.clk),
      users: permute(users0),
    };
    const vocab2 = order.map((old) => vocab[old]!);
    for (const [term, old] of termId) termId.set(term, newId[old]!);
    this.occ = this.imp = this.clk = this.lastEvent = [];
    return { vocab: vocab2, termId, userNames, eventUser, histories: remap(first, newId), stats };
  }
}

/** Build the vocabulary, the per-user histories and the term statistics of a log, from its query events. */
export function indexLog(records: readonly LogRecord[], events: readonly QueryEvent[]): KmIndex {
  const terms = new TermCounter();
  const userIndex = new Map<string, number>();
  const userNames: string[] = [];
  const eventUser = new Int32Array(events.length);
  const pairU = new IntBuffer(events.length * 3);
  const pairT = new IntBuffer(events.length * 3);
  for (let e = 0; e < events.length; e++) {
    const ev = events[e]!;
    let u = userIndex.get(ev.user);
    if (u === undefined) {
      u = userNames.length;
      userIndex.set(ev.user, u);
      userNames.push(ev.user);
    }
    eventUser[e] = u;
    const before = pairT.length;
    terms.event(records[ev.first]!.query, ev.clicks, pairT);
    for (let i = before; i < pairT.length; i++) pairU.push(u);
  }
  const first = buildHistories(userNames.length, terms.vocab.length, pairU, pairT);
  return terms.finish(userNames, eventUser, first);
}

/** One term of a user's history with the user's counts of it (`IndexByUser.addHistory`). */
export interface HistoryTerm {
  readonly term: string;
  readonly occurrences: number;
  readonly impressions: number;
  readonly clicks: number;
}

/**
 * {@link indexLog} fed one user's events at a time, users in log order (a log grouped by user): each user's
 * history is sorted and merged as soon as the user ends, so memory holds the (user, term) pairs, not the
 * events. `eventUser` of its index is empty (the events are read again by user).
 */
export class IndexByUser {
  private readonly terms = new TermCounter();
  private readonly userNames: string[] = [];
  private readonly start = new IntBuffer();
  private readonly items = new IntBuffer();
  private readonly weight = new IntBuffer();
  private readonly pending = new IntBuffer();

  /** The next user's records and their events. */
  add(records: readonly LogRecord[], events: readonly QueryEvent[]): void {
    if (events.length === 0) return;
    this.userNames.push(events[0]!.user);
    this.pending.length = 0;
    for (const ev of events) this.terms.event(records[ev.first]!.query, ev.clicks, this.pending);
    const seg = this.pending.data.subarray(0, this.pending.length).sort();
    this.start.push(this.items.length);
    for (let i = 0; i < seg.length; i++) {
      if (i > 0 && seg[i] === seg[i - 1]) this.weight.data[this.weight.length - 1]!++;
      else {
        this.items.push(seg[i]!);
        this.weight.push(1);
      }
    }
  }

  /**
   * The next user's history given whole: its terms in the order they first appear in the user's queries, each
   * with the user's occurrences, impressions and clicks of it (what {@link add} counts from the events).
   */
  addHistory(user: string, terms: readonly HistoryTerm[]): void {
    this.userNames.push(user);
    const ids = terms.map((x) => this.terms.counted(x.term, x.occurrences, x.impressions, x.clicks));
    const order = Array.from(ids.keys()).sort((a, b) => ids[a]! - ids[b]!);
    this.start.push(this.items.length);
    for (const i of order) {
      this.items.push(ids[i]!);
      this.weight.push(terms[i]!.occurrences);
    }
  }

  finish(): KmIndex {
    const users = this.userNames.length;
    const start = this.start.data.slice(0, users);
    const len = new Int32Array(users);
    for (let u = 0; u < users; u++) len[u] = (u + 1 < users ? start[u + 1]! : this.items.length) - start[u]!;
    const first = new TermHistories(
      start,
      len,
      this.items.data.slice(0, this.items.length),
      this.weight.data.slice(0, this.items.length),
      this.terms.vocab.length,
    );
    // The buffers (up to twice the pairs each) would live as long as the builder.
    for (const buf of [this.start, this.items, this.weight, this.pending]) {
      buf.data = new Int32Array(0);
      buf.length = 0;
    }
    return this.terms.finish(this.userNames, new Int32Array(0), first);
  }
}

/**
 * The same histories with term ids mapped through `newId`, each run sorted again, in place (a copy of the pairs
 * would be their largest allocation at the peak).
 */
function remap(h: TermHistories, newId: Int32Array): TermHistories {
  const { items, weight } = h;
  let ids = new Int32Array(64);
  let ws = new Int32Array(64);
  const idx: number[] = [];
  for (let u = 0; u < h.users; u++) {
    const b = h.start[u]!;
    const n = h.len[u]!;
    if (n > ids.length) {
      ids = new Int32Array(2 * n);
      ws = new Int32Array(2 * n);
    }
    idx.length = 0;
    for (let i = 0; i < n; i++) {
      ids[i] = newId[items[b + i]!]!;
      ws[i] = weight[b + i]!;
      idx.push(i);
    }
    idx.sort((x, y) => ids[x]! - ids[y]!);
    for (let i = 0; i < n; i++) {
      items[b + i] = ids[idx[i]!]!;
      weight[b + i] = ws[idx[i]!]!;
    }
  }
  return h;
}

/** Counting-sort the (user, term) occurrence pairs by user, then sort and merge each user's terms. */
function buildHistories(nUsers: number, nTerms: number, pairU: IntBuffer, pairT: IntBuffer): TermHistories {
  const n = pairU.length;
  const off = new Int32Array(nUsers + 1);
  for (let i = 0; i < n; i++) off[pairU.data[i]! + 1]!++;
  for (let u = 0; u < nUsers; u++) off[u + 1]! += off[u]!;
  const fill = off.slice(0, nUsers);
  const sorted = new Int32Array(n);
  for (let i = 0; i < n; i++) sorted[fill[pairU.data[i]!]!++] = pairT.data[i]!;
  const start = new Int32Array(nUsers);
  const len = new Int32Array(nUsers);
  const items = new Int32Array(n);
  const weight = new Int32Array(n);
  let w = 0;
  for (let u = 0; u < nUsers; u++) {
    const seg = sorted.subarray(off[u]!, off[u + 1]!).sort();
    start[u] = w;
    for (let i = 0; i < seg.length; i++) {
      if (i > 0 && seg[i] === seg[i - 1]) weight[w - 1]!++;
      else {
        items[w] = seg[i]!;
        weight[w++] = 1;
      }
    }
    len[u] = w - start[u]!;
  }
  return new TermHistories(start, len, items.slice(0, w), weight.slice(0, w), nTerms);
}
