/**
 * What the swap core (./core.ts) holds of a query event and hands back: the event's rows as the caller keeps
 * them, the entry a bucket holds, the release callback, and the core's snapshot.
 */
import type { LogRecord } from "../../log/record.ts";

/**
 * What the core reads of an event's rows, which it otherwise only carries: how many rows, and their query text
 * (an event's rows share it). The rows are the caller's: an array of records ({@link RECORD_ROWS}), or a handle
 * of the raw-row stage's held bytes (./rows.ts).
 */
export interface EventRows<P> {
  count(rows: P): number;
  /** The event's query text: asked for only when a release could read back merged with the previous one. */
  query(rows: P): string;
  /** A copy for a snapshot (records: a new array). */
  copy(rows: P): P;
  /** The event was suppressed: the core lets go of its rows and will never hand them out. */
  suppressed(rows: P): void;
}

/** Events whose rows are records. */
export const RECORD_ROWS: EventRows<LogRecord[]> = {
  count: (rows) => rows.length,
  query: (rows) => rows[0]!.query,
  copy: (rows) => [...rows],
  suppressed: () => {},
};

/** A query event waiting in a bucket. `tag` identifies it for the caller (the input index of its first row). */
export interface Entry<P = LogRecord[]> {
  readonly user: string;
  readonly time: number;
  readonly tag: number;
  readonly rows: P;
}

/** Called for each released event: its rows go out under `user` with `time`. */
export type Emit<R = LogRecord[]> = (entry: Entry<R>, user: string, time: number) => void;

export interface CoreSnapshot<R = LogRecord[]> {
  readonly v: 2;
  readonly rng: number[];
  readonly now: number;
  readonly nextDeadline: number | null;
  readonly buckets: [string, { k: number; entries: Entry<R>[]; slots: string[] }][];
  readonly counts: Record<string, number>;
  /** User, time and query of the last released event (absent in snapshots of older versions). */
  readonly last?: [string, number | null, string];
}
