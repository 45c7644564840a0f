/**
 * One synthetic user's whole history, generated in time order into a reusable buffer. A user has a heavy-tailed
 * number of query events, a few topic interests, and sessions (30-minute inactivity cut) spread over the period
 * at calibrated hours of the day. Within a session each event is a next-page request, a reformulation of the
 * previous query, a repeat of an earlier query of the user, or a fresh query (sometimes carrying a fake
 * identifier); each event has 0..n clicks with ranks skewed to the top.
 *
 * Rows come out in AOL order: by time, a clicked query once per click with the same time, next pages later.
 * This is the generator's hot path: the simulator keeps its arrays from user to user and makes no closures.
 */
import type { LogRecord } from "../log/record.ts";
import type { Rng } from "../util/random.ts";
import { PII_KINDS } from "./calibration.ts";
import { hashString } from "./hash.ts";
import type { Model } from "./model.ts";
import { fakeIdentity, type Identity, piiQuery } from "./pii.ts";
import { Gaussian, geometric } from "./sampling.ts";
import { PREFIXES, SUFFIXES } from "./words.ts";

/** Per-row flags, so the caller can count what it actually emits (the row cap may cut a user short). */
export const FIRST_ROW = 1;
export const NEXT_PAGE = 2;
export const PII = 4;
export const REFORMULATION = 8;
export const REPEAT = 16;

const NEW = 0;
const NEXT = 1;
const REFORM = 2;
const REPEAT_EVENT = 3;

// Local bindings: imported bindings cost a little more per access on this path.
const prefixes = PREFIXES;
const suffixes = SUFFIXES;
const piiKinds = PII_KINDS;

export class UserSimulator {
  /** The rows of the last simulated user and their flags (valid up to `length`). */
  readonly records: LogRecord[] = [];
  readonly flags: number[] = [];
  length = 0;

  private readonly histQuery: string[] = [];
  private readonly histCat: number[] = [];
  private readonly histPii: number[] = [];
  private readonly lengths: number[] = [];
  private readonly interests = new Int32Array(12);
  private readonly interestCum = new Float64Array(12);
  private interestCount = 0;
  private starts = new Float64Array(256);
  private rng: Rng;
  private readonly gauss: Gaussian;
  private user = "";

  constructor(
    private readonly m: Model,
    rng: Rng,
  ) {
    this.rng = rng;
    this.gauss = new Gaussian(rng);
  }

  /** Generate user `user`'s rows from `rng` (a fresh, per-user stream). */
  simulate(rng: Rng, user: string): void {
    const m = this.m;
    const cal = m.cal;
    const tr = cal.transitions;
    this.rng = rng;
    this.gauss.reset(rng);
    this.user = user;
    this.length = 0;
    const n = Math.max(
      1,
      Math.min(cal.activity.max, Math.round(this.gauss.logNormal(cal.activity.logMean, cal.activity.logSd))),
    );
    this.drawInterests(n);

    // Sessions: geometric lengths until n events; start times at calibrated hours, sorted.
    const lengths = this.lengths;
    lengths.length = 0;
    for (let total = 0; total < n; ) {
      const len = Math.min(n - total, geometric(rng, cal.session.meanEvents));
      lengths.push(len);
      total += len;
    }
    if (this.starts.length < lengths.length) this.starts = new Float64Array(lengths.length * 2);
    const starts = this.starts.subarray(0, lengths.length);
    for (let i = 0; i < starts.length; i++) {
      starts[i] = m.start + rng.int(m.days) * 86400 + m.hours.sample(rng) * 3600 + rng.int(3600);
    }
    starts.sort();

    let identity: Identity | undefined;
    const histQuery = this.histQuery;
    const histCat = this.histCat;
    const histPii = this.histPii;
    histQuery.length = 0;
    histCat.length = 0;
    histPii.length = 0;
    const cut = cal.session.cutSeconds;
    const pNext = tr.nextPage;
    const pReform = pNext + tr.reformulate;
    const pRepeat = pReform + tr.repeatWithin;
    let last = Number.NEGATIVE_INFINITY;
    // The user's previous query, across sessions: an identical query right after it would read as a next page.
    let prevQuery = "";
    let prevCat = -1;
    let prevPii = 0;

    for (let s = 0; s < lengths.length; s++) {
      let time = Math.max(starts[s]!, last + cut);
      if (time >= m.end) return;
      let page = 0;
      for (let e = 0; e < lengths[s]!; e++) {
        let type = NEW;
        if (e === 0) {
          if (histQuery.length > 0 && rng.float() < tr.repeatAtStart) type = REPEAT_EVENT;
        } else {
          const u = rng.float();
          if (u < pNext) type = NEXT;
          else if (u < pReform) type = REFORM;
          else if (u < pRepeat && histQuery.length > 0) type = REPEAT_EVENT;
          const gap =
            type === NEXT
              ? this.gauss.logNormal(cal.session.nextPageGap.logMean, cal.session.nextPageGap.logSd)
              : this.gauss.logNormal(cal.session.interQuery.logMean, cal.session.interQuery.logSd);
          time += Math.min(cut - 1, Math.max(1, Math.round(gap)));
          if (time >= m.end) return;
        }

        let query: string;
        let cat: number;
        let pii = 0;
        let flags = FIRST_ROW;
        if (type === NEXT) {
          query = prevQuery;
          cat = prevCat;
          pii = prevPii;
          page++;
          flags |= NEXT_PAGE;
        } else {
          page = 0;
          let j = type === REPEAT_EVENT ? rng.int(histQuery.length) : -1;
          if (j >= 0 && histQuery[j] === prevQuery) j = -1; // would read as a next page: a fresh query instead
          if (j >= 0) {
            query = histQuery[j]!;
            cat = histCat[j]!;
            pii = histPii[j]!;
            flags |= REPEAT;
          } else if (type === REFORM) {
            query = this.reformulate(prevQuery, prevCat, prevPii !== 0);
            cat = prevCat;
            pii = prevPii;
            flags |= REFORMULATION;
          } else if (rng.float() < m.piiShare) {
            const kind = m.piiKinds.sample(rng);
            identity ??= fakeIdentity(rng);
            const who = rng.float() < cal.pii.own ? identity : fakeIdentity(rng);
            query = piiQuery(piiKinds[kind]!, who, rng);
            cat = -2 - kind; // identifier queries: negative codes, see Model.piiCategory
            pii = 1;
          } else {
            cat = e > 0 && prevCat >= 0 && rng.float() < tr.sameTopic ? prevCat : this.profileCategory();
            query = m.topics.sampleQuery(cat, rng);
            for (let tries = 0; query === prevQuery && tries < 3; tries++)
              query = m.topics.sampleQuery(cat, rng);
          }
          histQuery.push(query);
          histCat.push(cat);
          histPii.push(pii);
        }
        if (pii) flags |= PII;
        this.emitEvent(query, cat, time, page, flags);
        prevQuery = query;
        prevCat = cat;
        prevPii = pii;
      }
      last = time;
    }
  }

  /** Topic interests: categories from the global mix, weighted 1, 1/2, 1/3, … ; heavier users range wider. */
  private drawInterests(n: number): void {
    const k = Math.min(12, 1 + Math.floor(Math.log1p(n) / 1.5 + this.rng.float() * 2));
    let w = 0;
    for (let i = 0; i < k; i++) {
      this.interests[i] = this.m.topics.sampleCategory(this.rng);
      w += 1 / (i + 1);
      this.interestCum[i] = w;
    }
    this.interestCount = k;
  }

  private profileCategory(): number {
    const rng = this.rng;
    if (rng.float() < this.m.cal.topics.offProfile) return this.m.topics.sampleCategory(rng);
    const last = this.interestCount - 1;
    const u = rng.float() * this.interestCum[last]!;
    for (let i = 0; i < last; i++) if (u < this.interestCum[i]!) return this.interests[i]!;
    return this.interests[last]!;
  }

  private push(rec: LogRecord, flags: number): void {
    this.records[this.length] = rec;
    this.flags[this.length] = flags;
    this.length++;
  }

  /** The rows of one query event: one row without a click, or one row per click (same query and time). */
  private emitEvent(query: string, cat: number, time: number, page: number, flags: number): void {
    const m = this.m;
    const rng = this.rng;
    const user = this.user;
    const clicks = rng.float() < m.cal.clicks.noClick ? 0 : m.clicks.sample(rng) + 1;
    const logged = m.excite && (flags & NEXT_PAGE) !== 0 ? "" : query;
    const catId = cat >= 0 ? cat : m.piiCategory[-2 - cat]!.id;
    const category = m.truth ? (cat >= 0 ? m.taxonomy.path(cat) : m.piiCategory[-2 - cat]!.path) : undefined;
    if (clicks === 0 || m.excite) {
      this.push(
        category === undefined ? { user, query: logged, time } : { user, query: logged, time, category },
        flags,
      );
      return;
    }
    const qh = hashString(query, 0);
    let used = 0;
    for (let i = 0; i < clicks; i++) {
      let r = m.ranks.sample(rng);
      for (let tries = 0; (used & (1 << r)) !== 0 && tries < 20; tries++) r = m.ranks.sample(rng);
      if ((used & (1 << r)) !== 0) break; // no free rank found: fewer clicks
      used |= 1 << r;
      const itemRank = page * 10 + r + 1;
      const clickUrl = m.urls.url(query, qh, catId, itemRank);
      this.push(
        category === undefined
          ? { user, query, time, itemRank, clickUrl }
          : { user, query, time, itemRank, clickUrl, category },
        i === 0 ? flags : flags & ~FIRST_ROW,
      );
    }
  }

  /** Add, drop or replace a word of `prev`. An identifier query only gains a word, so it keeps its identifier. */
  private reformulate(prev: string, cat: number, pii: boolean): string {
    const rng = this.rng;
    const u = pii ? 0 : rng.float();
    if (u < this.m.reformAdd) {
      const w = this.word(prev, cat);
      return pii || rng.float() < 0.7 ? `${prev} ${w}` : `${w} ${prev}`;
    }
    const words = prev.split(" ");
    if (u < this.m.reformDrop && words.length > 1) {
      words.splice(rng.int(words.length), 1);
      return words.join(" ");
    }
    words[rng.int(words.length)] = this.word(prev, cat);
    const q = words.join(" ");
    return q === prev ? `${prev} ${this.word(prev, cat)}` : q;
  }

  /** A word to add to `prev`: related to its category, or a modifier; one not already in it if possible. */
  private word(prev: string, cat: number): string {
    let w = this.drawWord(cat);
    if (prev.includes(w)) w = this.drawWord(cat);
    return w;
  }

  private drawWord(cat: number): string {
    const rng = this.rng;
    const v = rng.float();
    if (cat >= 0 && v < 0.5) return this.m.topics.relatedTerm(cat, rng.float());
    return v < 0.75 ? rng.pick(suffixes) : rng.pick(prefixes);
  }
}
