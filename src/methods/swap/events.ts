/**
 * The one grouping of rows into query events every swap driver uses (the record stage, the batch release, which
 * is the record stage run over the log, and the raw-row stage): consecutive rows with the same user, query and
 * time are one event (AOL's click rows of one search), each tagged with the input index of its first row. An event
 * is handed on when the next different row arrives (or at {@link EventGrouper.flush}), so the grouping does not
 * depend on how the stream is cut into batches. The rows themselves are the driver's: records, or handles of raw
 * bytes ({@link EventSink}).
 */

export interface GroupedRow {
  readonly user: string;
  readonly time: number;
  readonly query: string;
}

export function sameEvent(a: GroupedRow, b: GroupedRow): boolean {
  return a.user === b.user && a.time === b.time && a.query === b.query;
}

/** How a driver holds events: `E` is an event being assembled (records, or a handle of held bytes). */
export interface EventSink<B, E> {
  /** An event of row i of `batch`. */
  open(batch: B, i: number): E;
  /** Whether row i of `batch` is of event `e` (the same user, time and query). */
  continues(e: E, batch: B, i: number): boolean;
  /** Add row i of `batch` to event `e`. */
  extend(e: E, batch: B, i: number): void;
  /** A complete event, with the tag of its first row. */
  close(e: E, tag: number): void;
}

/** The event being assembled and the next row's tag: what a snapshot must carry to resume the grouping. */
export interface GrouperState<E> {
  readonly pending: { rows: E; tag: number } | null;
  readonly nextTag: number;
}

export class EventGrouper<B, E> {
  private pending: E | null = null;
  private pendingTag = 0;
  private nextTag = 0;

  constructor(
    private readonly sink: EventSink<B, E>,
    state?: GrouperState<E>,
  ) {
    if (state) {
      this.pending = state.pending ? state.pending.rows : null;
      this.pendingTag = state.pending?.tag ?? 0;
      this.nextTag = state.nextTag;
    }
  }

  /** Group the `n` rows of `batch`. */
  push(batch: B, n: number): void {
    const sink = this.sink;
    for (let i = 0; i < n; i++) {
      const e = this.pending;
      if (e !== null && sink.continues(e, batch, i)) sink.extend(e, batch, i);
      else {
        if (e !== null) {
          this.pending = null;
          sink.close(e, this.pendingTag);
        }
        this.pending = sink.open(batch, i);
        this.pendingTag = this.nextTag;
      }
      this.nextTag++;
    }
  }

  /** Hand on the event being assembled, if any. */
  flush(): void {
    const e = this.pending;
    if (e === null) return;
    this.pending = null;
    this.sink.close(e, this.pendingTag);
  }

  /** The event being assembled (null: none). */
  current(): E | null {
    return this.pending;
  }

  /** The state, with the event being assembled as `copy` gives it. */
  state<S>(copy: (e: E) => S): GrouperState<S> {
    return {
      pending: this.pending === null ? null : { rows: copy(this.pending), tag: this.pendingTag },
      nextTag: this.nextTag,
    };
  }
}

/** Events of records: a batch is an array of records, an event the array of its rows. */
export function recordSink<R extends GroupedRow>(
  close: (rows: R[], tag: number) => void,
): EventSink<readonly R[], R[]> {
  return {
    open: (batch, i) => [batch[i]!],
    continues: (e, batch, i) => sameEvent(e[0]!, batch[i]!),
    extend: (e, batch, i) => {
      e.push(batch[i]!);
    },
    close,
  };
}
