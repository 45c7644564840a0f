/**
 * Where user profiles live. A profile is, per user, the number of released queries in each category; the weight
 * of a category is its share of the user's queries (computed on read, so an update is one counter increment).
 * The interface is small so a PostgreSQL store can follow the embedded SQLite one ({@link SqliteProfileStore}).
 */

/** One counter update: `count` more queries of `user` in `category`. */
export interface ProfileDelta {
  readonly user: string;
  readonly category: string;
  readonly count: number;
}

export interface CategoryWeight {
  readonly category: string;
  readonly count: number;
  /** count / the user's total, in [0, 1]. */
  readonly weight: number;
}

/** One load of an input into a store: what `profile` records so that a re-run does not count a log twice. */
export interface LoadedInput {
  readonly file: string;
  readonly bytes: number;
  readonly sha256: string;
  /** ISO time the load was committed. */
  readonly at: string;
}

export interface ProfileStore {
  /** Apply a batch of updates atomically (one transaction). */
  add(deltas: readonly ProfileDelta[]): void;
  /** The user's categories by descending count (ties by name); empty for an unknown user. */
  profile(user: string): CategoryWeight[];
  /** Every user with a profile, sorted. */
  users(): string[];
  /** Every (user, category, count) row, sorted by user then category: for comparing two stores. */
  rows(): ProfileDelta[];
  /** Earlier loads of an input with this content hash (oldest first); empty if never loaded. */
  loads(sha256: string): LoadedInput[];
  /**
   * Run `work` (which calls `add`) as one transaction and record `inputs` as loaded when it commits. If `work`
   * fails or the process dies, the store is left as it was: a load is all or nothing.
   */
  load<T>(inputs: readonly Omit<LoadedInput, "at">[], work: () => Promise<T>): Promise<T>;
  close(): void;
}

/**
 * The streaming write side that both the SQLite and the PostgreSQL store offer: a batch of deltas applied exactly
 * once under its id (a replayed batch is skipped, in the same transaction that would apply it). The cluster's
 * profile writer and the service write through this; `rows` reads back for comparison.
 */
export interface ProfileSink {
  /**
   * Apply batches in one transaction, each exactly once: for each, true if applied now, false if its id was applied
   * before (or earlier in the same call).
   */
  applyBatches(batches: readonly SinkBatch[]): Promise<boolean[]>;
  /** How many applied batch ids start with `prefix`. */
  countApplied(prefix: string): Promise<number>;
  sortedRows(): Promise<ProfileDelta[]>;
}

export interface SinkBatch {
  readonly id: string;
  readonly deltas: readonly ProfileDelta[];
}

/** Weights from counts, by descending count then category name. */
export function weigh(counts: readonly { category: string; count: number }[]): CategoryWeight[] {
  const total = counts.reduce((a, c) => a + c.count, 0);
  return counts
    .map((c) => ({ category: c.category, count: c.count, weight: total === 0 ? 0 : c.count / total }))
    .sort((a, b) => b.count - a.count || (a.category < b.category ? -1 : a.category > b.category ? 1 : 0));
}
