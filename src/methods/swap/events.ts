/**
 * Rows grouped into query events on the fly (consecutive rows with the same user, query and time: AOL click rows of
 * one search), each event tagged with the input index of its first row. An event is handed on when the next
 * different row arrives (or at {@link EventGrouper.flush}), so the grouping does not depend on how the stream is
 * cut into batches. Both swap stages (records and raw rows) group through this one class.
 */

export interface GroupedRow {
  readonly user: string;
  readonly time: number;
  readonly query: string;
}

export function sameEvent(a: GroupedRow, b: GroupedRow): boolean {
  return a.user === b.user && a.time === b.time && a.query === b.query;
}

/** The event being assembled and the next row's tag: what a snapshot must carry to resume the grouping. */
export interface GrouperState<R> {
  readonly pending: { rows: R[]; tag: number } | null;
  readonly nextTag: number;
}

export class EventGrouper<R extends GroupedRow> {
  private pending: R[] | null = null;
  private pendingTag = 0;
  private nextTag = 0;

  constructor(
    /** Receives each complete event: its rows and its tag. */
    private readonly close: (rows: R[], tag: number) => void,
    state?: GrouperState<R>,
    /** Whether two rows are of one event ({@link sameEvent}; raw rows compare their query bytes instead). */
    private readonly same: (a: R, b: R) => boolean = sameEvent,
  ) {
    if (state) {
      this.pending = state.pending ? [...state.pending.rows] : null;
      this.pendingTag = state.pending?.tag ?? 0;
      this.nextTag = state.nextTag;
    }
  }

  push(batch: readonly R[]): void {
    for (const row of batch) {
      if (this.pending !== null && this.same(this.pending[0]!, row)) {
        this.pending.push(row);
      } else {
        this.flush();
        this.pending = [row];
        this.pendingTag = this.nextTag;
      }
      this.nextTag++;
    }
  }

  /** Hand on the event being assembled, if any. */
  flush(): void {
    const rows = this.pending;
    if (rows === null) return;
    this.pending = null;
    this.close(rows, this.pendingTag);
  }

  state(): GrouperState<R> {
    return {
      pending: this.pending === null ? null : { rows: [...this.pending], tag: this.pendingTag },
      nextTag: this.nextTag,
    };
  }
}
