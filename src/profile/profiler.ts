/**
 * The profiler of paper 000: with each released record, the profile of the record's (released) user gains one
 * query in the record's category, at a chosen ODP depth (1 = top level, as in the paper). Counts are aggregated
 * in memory and written in one transaction every `flushEvery` records (and by {@link Profiler.flush}): a commit
 * rewrites every B-tree page it touched, so few large transactions are much cheaper than one per batch.
 *
 * Unit: query events, not rows — the AOL click rows of one search count once, so a profile says how many
 * searches a user made on a topic (the paper counts "queries").
 */
import type { LogRecord } from "../log/record.ts";
import type { ProfileDelta, ProfileStore } from "./store.ts";

/** The category at `depth` (1 = `Top/Arts`); "" stays "" (unclassified). */
export function categoryAt(category: string, depth: number): string {
  if (category === "") return "";
  let seen = 0;
  const skipTop = category.startsWith("Top/") ? 1 : 0;
  for (let i = 0; i < category.length; i++) {
    if (category.charCodeAt(i) === 47 /* / */ && ++seen === depth + skipTop) return category.slice(0, i);
  }
  return category;
}

export class Profiler {
  private last: LogRecord | undefined;
  private records = 0;
  private events = 0;
  private pending = new Map<string, Map<string, number>>();
  private pendingRecords = 0;

  constructor(
    private readonly store: Pick<ProfileStore, "add">,
    private readonly depth = 1,
    private readonly flushEvery = 1 << 19,
  ) {}

  /** The last record counted. */
  get lastRecord(): LogRecord | undefined {
    return this.last;
  }

  /** Continue a stream whose last counted record was `last` (a restart: its event's other rows count no more). */
  resume(last: LogRecord): void {
    this.last = last;
  }

  /** Count one batch of released records (events spanning batches are counted once). */
  update(batch: readonly LogRecord[]): void {
    const agg = this.pending;
    for (const r of batch) {
      this.records++;
      const prev = this.last;
      this.last = r;
      if (prev && prev.user === r.user && prev.time === r.time && prev.query === r.query) continue;
      this.events++;
      const cat = categoryAt(r.category ?? "", this.depth);
      let m = agg.get(r.user);
      if (m === undefined) {
        m = new Map();
        agg.set(r.user, m);
      }
      m.set(cat, (m.get(cat) ?? 0) + 1);
    }
    this.pendingRecords += batch.length;
    if (this.pendingRecords >= this.flushEvery) this.flush();
  }

  /** Write what is pending to the store (call at the end of a stream, or before reading the store). */
  flush(): void {
    const deltas: ProfileDelta[] = [];
    for (const [user, m] of this.pending)
      for (const [category, count] of m) deltas.push({ user, category, count });
    this.store.add(deltas);
    this.pending = new Map();
    this.pendingRecords = 0;
  }

  counts(): Record<string, number> {
    return { "profiled rows": this.records, "profiled events": this.events };
  }
}
